#!/bin/bash
# The resize fuzz of issue 28 for longer than `swift test` runs it: keys, resize-window (down to
# 1×1), resize-pane, zoom and SIGWINCH storms at random moments against the real browser in tmux;
# the browser must never exit and must end on the screen a full repaint draws.
# Usage: tools/resize-fuzz.sh [SECONDS-PER-SEED] [SEEDS]   (default 300 s, seeds 1..5).
# One line per seed in .build/resize-fuzz/log; a failed seed's output stays in seed-N.txt.
set -u
seconds=${1:-300}
seeds=${2:-5}
cd "$(dirname "$0")/.."
out=.build/resize-fuzz
mkdir -p "$out"
swift build --build-tests > "$out/build.txt" 2>&1 || { echo "build failed: $out/build.txt"; exit 1; }
failed=0
for seed in $(seq 1 "$seeds"); do
  QUAKETUI_RESIZE_FUZZ_SECONDS=$seconds QUAKETUI_RESIZE_FUZZ_SEED=$seed \
    swift test --skip-build --filter 'EndToEndTests.TerminalResizeTests/aSeededResizeFuzzNeverEndsTheBrowser' \
    > "$out/seed-$seed.txt" 2>&1
  rc=$?
  echo "seed $seed ${seconds}s rc=$rc $(date -u +%T)" | tee -a "$out/log"
  if [ $rc -eq 0 ]; then rm -f "$out/seed-$seed.txt"; else failed=$((failed + 1)); fi
done
echo "$failed of $seeds seeds failed"
[ $failed -eq 0 ]
