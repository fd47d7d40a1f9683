#!/usr/bin/env bash
# Runs one libFuzzer target built by tools/fuzz/build.sh for SECONDS (default 60), one job, with
# its seed corpus from tools/fuzz/corpus/ and a working corpus in .build/fuzz/corpus/TARGET.
# A crash leaves crash-* / leak-* / timeout-* in .build/fuzz/artifacts/ and exits non-zero.
#
#   tools/fuzz/run.sh fuzz-feed-json 3600      # an hour
#   tools/fuzz/run.sh all 10                   # every target, 10 s each
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${FUZZ_OUT:-$PWD/.build/fuzz}
target=${1:?usage: tools/fuzz/run.sh TARGET|all [SECONDS] [libFuzzer flags...]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
if [ "$target" = all ]; then
    for t in "$out"/fuzz-*; do [ -x "$t" ] && "$0" "$(basename "$t")" "$seconds" "$@"; done
    exit 0
fi
seeds=tools/fuzz/corpus/${target#fuzz-}
extra=()
# swift-corelibs-foundation leaks the CFError of every failed PropertyListSerialization parse
# (125 bytes, inside CFPropertyListCreateWithData; see FUZZING.md): not ours, so leak checks are
# off for the plist target only, and it runs in fork mode (short-lived child processes) so those
# leaks never add up to the RSS limit. ASan still reports every memory error there. Fork mode
# ignores a child's timeout or out-of-memory by default and then exits with that child's code
# (70 or 71) without naming the input: -ignore_timeouts=0 -ignore_ooms=0 make them findings,
# reported with the child's log and input as in the other targets.
if [ "$target" = fuzz-plist ]; then
    extra=(-detect_leaks=0 -fork=1 -ignore_timeouts=0 -ignore_ooms=0)
    export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
mkdir -p "$out/corpus/$target" "$out/artifacts"
# -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a read that grows memory is a finding.
"$out/$target" "$out/corpus/$target" ${seeds:+$( [ -d "$seeds" ] && echo "$seeds")} \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$out/artifacts/$target-" -print_final_stats=1 "${extra[@]}" "$@"
