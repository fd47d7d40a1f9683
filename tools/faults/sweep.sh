#!/usr/bin/env bash
# The fault sweep of issue 29: for each command that writes (import, refresh, delete, config,
# open), fail each eligible system call on the state directory in turn (open, read, write,
# pread, pwrite, fsync, rename, unlink, ftruncate) with EIO, ENOSPC and EINTR, through
# tools/faults/faultshim.so (LD_PRELOAD), and check after every trial:
#   - no crash: exit status below 128;
#   - exit 0 only if the work was done (the store or file holds exactly the "after" state);
#   - otherwise one clear sentence on stderr (one line, "Error: …"), and the store or file holds
#     exactly the "before" or the "after" state; a failure that did the work is counted apart;
#   - the store passes PRAGMA integrity_check, and is called damaged only if it is not;
#   - no state file moved aside (….corrupt-…) that is a copy of a good one.
# `fetch` needs an FDSN server and is swept by hand; notes and scenes are saved only by the
# browser (no command-line path), so they are not swept here (see RELIABILITY.md).
#
# Usage: tools/faults/sweep.sh [--binary PATH] [--sample K] [--seed S] [--errnos "EIO ENOSPC EINTR"]
#                              [--only SCENARIO] [--data DIR]
# --sample K runs K fault points per scenario and errno, chosen by the seed (default: all).
# Prints one line per failed trial and a summary per scenario; exit 1 if any trial failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary="$root/.build/debug/quaketui"
sample=0
seed=1
errnos="EIO ENOSPC EINTR"
only=""
data="${QUAKETUI_SHARED_DATA:-$root/../shared/data}"
[ -d "$data/usgs" ] || data=/work/shared/data
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary=$2; shift 2 ;;
        --sample) sample=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --errnos) errnos=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --data) data=$2; shift 2 ;;
        *) echo "sweep: unknown argument $1" >&2; exit 64 ;;
    esac
done
shim=$("$here/build.sh")
work=$(mktemp -d /tmp/quaketui-sweep.XXXXXX)
trap 'rm -rf "$work"' EXIT
calls=open,read,write,pread,pwrite,fsync,rename,unlink,ftruncate

# The base state: a store with a month of quakes, a note, and settings.
base=$work/base
mirror=$work/mirror
mkdir -p "$mirror"
cp "$data/usgs/all_week-2020-06-10.geojson" "$mirror/all_week.geojson"
"$binary" import "$data/usgs/2.5_month-2019-07-19.geojson" --state-dir "$base" > /dev/null || exit 1
sqlite3 "$base/quakes.sqlite" "UPDATE quake SET notes = 'felt it' WHERE rowid = 7" || exit 1
"$binary" config alertMagnitude 6.5 --state-dir "$base" > /dev/null || exit 1
"$binary" list --state-dir "$base" > /dev/null || exit 1   # checkpoints and closes the WAL

# The state a trial leaves: the store's rows, the settings, the pending activities.
fingerprint() {
    local dir=$1
    {
        sqlite3 "$dir/quakes.sqlite" "SELECT code, updated, coalesce(notes, '') FROM quake ORDER BY code" 2>&1
        cat "$dir/defaults.plist" 2>/dev/null
        grep -c us70004jyv "$dir"/activity.plist 2>/dev/null; cat "$dir"/scenes/*.plist 2>/dev/null
    } | md5sum | cut -d' ' -f1
}

scenario_args() {
    case "$1" in
        import) echo "import $data/usgs/1.0_week-2019-02-16.geojson" ;;
        refresh) echo "refresh all_week" ;;
        delete) echo "delete --before 2019-07-10" ;;
        config) echo "config alertMagnitude 7" ;;
        open) echo "open us70004jyv --scene main" ;;
    esac
}

run_trial() {   # dir, scenario, env...
    local dir=$1 scenario=$2; shift 2
    # shellcheck disable=SC2046
    env "$@" QUAKETUI_FEED_BASE_URL="file://$mirror" "$binary" $(scenario_args "$scenario") --state-dir "$dir" \
        > "$work/out" 2> "$work/err"
}

total_failures=0
summary=""
for scenario in import refresh delete config open; do
    [ -n "$only" ] && [ "$only" != "$scenario" ] && continue
    before=$(fingerprint "$base")
    rm -rf "$work/clean"; cp -a "$base" "$work/clean"
    run_trial "$work/clean" "$scenario" || { echo "sweep: $scenario fails without faults: $(cat "$work/err")"; exit 1; }
    after=$(fingerprint "$work/clean")
    rm -rf "$work/count"; cp -a "$base" "$work/count"
    run_trial "$work/count" "$scenario" LD_PRELOAD="$shim" FAULT_CALLS=$calls FAULT_PATH="$work/count" FAULT_NTH=0 FAULT_COUNT="$work/n"
    points=$(cat "$work/n")
    trials=0; failures=0; done_but_failed=0
    for errno in $errnos; do
        if [ "$sample" -gt 0 ] && [ "$sample" -lt "$points" ]; then
            nths=$(seq 1 "$points" | shuf -n "$sample" --random-source=<(yes "$seed$scenario$errno") | sort -n)
        else
            nths=$(seq 1 "$points")
        fi
        for nth in $nths; do
            trials=$((trials + 1))
            trial=$work/t
            rm -rf "$trial"; cp -a "$base" "$trial"
            run_trial "$trial" "$scenario" LD_PRELOAD="$shim" FAULT_CALLS=$calls FAULT_PATH="$trial" FAULT_NTH="$nth" \
                FAULT_ERRNO="$errno" FAULT_LOG="$work/faultlog"
            rc=$?
            problem=""
            got=$(fingerprint "$trial")
            lines=$(wc -l < "$work/err")
            if [ "$rc" -ge 128 ]; then problem="crashed (exit $rc)"
            elif [ "$rc" -eq 0 ] && [ "$got" != "$after" ]; then problem="exit 0 but the work was not done"
            elif [ "$rc" -ne 0 ] && [ "$got" != "$before" ] && [ "$got" != "$after" ]; then problem="the state is neither before nor after"
            elif [ "$rc" -ne 0 ] && { [ "$lines" -ne 1 ] || ! head -1 "$work/err" | grep -q '^Error: '; }; then problem="not one sentence: $(head -c 300 "$work/err")"
            elif [ "$rc" -ne 0 ] && [ "$got" = "$after" ]; then done_but_failed=$((done_but_failed + 1)); problem="exit $rc after the work was done: $(head -c 200 "$work/err")"
            fi
            if [ -f "$trial/quakes.sqlite" ]; then
                check=$(sqlite3 "$trial/quakes.sqlite" "PRAGMA integrity_check" 2>&1)
                [ "$check" = "ok" ] || problem="$problem; integrity_check: $check"
                # "Damaged, move it aside" on a sound store throws away every note (issue 29).
                if [ "$check" = "ok" ] && grep -q "is damaged" "$work/err"; then
                    problem="$problem; called damaged, but integrity_check is ok: $(head -c 200 "$work/err")"
                fi
            fi
            for aside in $(find "$trial" -name '*.corrupt-*' 2>/dev/null); do
                if cmp -s "$aside" "$base/defaults.plist" || cmp -s "$aside" "$work/clean/defaults.plist"; then
                    problem="$problem; a good file was moved aside: $aside"
                fi
            done
            if [ -n "$problem" ]; then
                failures=$((failures + 1))
                echo "FAIL $scenario $errno call #$nth ($(tail -1 "$work/faultlog" 2>/dev/null)): $problem"
            fi
            rm -f "$work/faultlog"
        done
    done
    line="$scenario: $points fault points, $trials trials, $failures failures ($done_but_failed of them exit ≠ 0 after the work was done)"
    echo "$line"
    summary="$summary$line"$'\n'
    total_failures=$((total_failures + failures))
done
echo "---"
printf "%s" "$summary"
[ "$total_failures" -eq 0 ]
