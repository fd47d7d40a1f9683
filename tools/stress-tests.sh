#!/bin/bash
# The whole test suite under load (issue 16): ROUNDS rounds of two `swift test` runs side by side
# (each the other's load), all at nice 19 so that whatever else the machine does comes first.
# Usage: tools/stress-tests.sh [ROUNDS]   (default 10, i.e. 20 runs). One line per run in
# .build/stress/log; a failed run's whole output stays in .build/stress/run-LANE-N.txt.
set -u
rounds=${1:-10}
cd "$(dirname "$0")/.."
out=.build/stress
mkdir -p "$out"
log=$out/log
echo "start $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD) rounds $rounds" >> "$log"
nice -n 19 swift build --build-tests > "$out/build.txt" 2>&1 || { echo "build failed: $out/build.txt" >> "$log"; exit 1; }
lane() {
  for i in $(seq 1 "$rounds"); do
    start=$(date +%s)
    nice -n 19 swift test --skip-build > "$out/run-$1-$i.txt" 2>&1
    rc=$?
    summary=$(grep -E "Test run with [0-9]+ tests" "$out/run-$1-$i.txt" | tail -1)
    echo "lane $1 run $i rc=$rc $(( $(date +%s) - start ))s $(date -u +%T) $summary" >> "$log"
    [ $rc -eq 0 ] && rm -f "$out/run-$1-$i.txt"
  done
}
lane a & lane b & wait
echo "done $(date -u +%FT%TZ)" >> "$log"
grep -c "rc=0" "$log"
