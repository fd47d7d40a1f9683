#!/usr/bin/env bash
# The fault sweep of issue 29: for each command that writes (import, refresh, fetch, delete,
# config, open) and the browser's two writers (notes, scene), fail each eligible system call on
# the state directory in turn (open, read, write,
# pread, pwrite, fsync, rename, unlink, ftruncate) with EIO, ENOSPC and EINTR, through
# tools/faults/faultshim.so (LD_PRELOAD), and check after every trial:
#   - no crash: exit status below 128;
#   - exit 0 only if the work was done (the store or file holds exactly the "after" state);
#   - otherwise one clear sentence on stderr (one line, "Error: …"), and the store or file holds
#     exactly the "before" or the "after" state; a failure that did the work is counted apart;
#   - the store passes PRAGMA integrity_check, and is called damaged only if it is not;
#   - no state file moved aside (….corrupt-…) that is a copy of a good one.
# `fetch` runs against Benchmarks/peers/fdsnws_server.py on 127.0.0.1 (never the network), with
# a limit that makes it page through several windows: a failed fetch may keep the windows it
# finished, so its store must hold the "before" rows plus some of the "after" rows and nothing
# else, and the same command run again without faults must finish it exactly.
# `delete` commits in batches, oldest first (issue 57), here of 200 quakes (QUAKETUI_BATCH_ROWS)
# so that faults fall between batches: a failed delete may keep the batches it committed, so its
# store must hold every "after" row and some "before" rows, the deleted ones the oldest (as a
# delete before an earlier time), and the same command run again must finish it exactly.
# `notes` and `scene` drive the browser in tmux: the fault is armed (FAULT_ARM) once the browser
# is idle, so the range is what one notes save (ctrl-s in the Notes tab) or one scene change (`s`)
# and the quit after it do; the failure must be said on the status line (`not saved`), and then
# the save is made again and `q` must exit 0, or exit 1 with one sentence if the quit's own save
# failed. Every browser trial also runs with FAULT_ERRNO=KILL (kill -9 at that call). After each,
# the scene file is the old or the new whole plist, the notes the old or the new text, and the
# browser launched again without faults shows the scene and quits with 0.
#
# Usage: tools/faults/sweep.sh [--binary PATH] [--sample K] [--seed S] [--errnos "EIO ENOSPC EINTR"]
#                              [--only SCENARIO] [--data DIR] [--progress FILE] [--points "N …"]
#                              [--shard K/M]
# SCENARIO: import associate refresh fetch delete config open notes scene. `associate` imports
# another agency's reports (FDSN text, `Author` EMSC) of 200 of the base month's quakes, each
# moved within the association window, so that each joins its USGS event: the import's staging,
# association and `report` writes; the state compared includes each event's agency count and
# `report`.
# --sample K runs K fault points per scenario and errno, chosen by the seed (default: all).
# --errnos replaces the errnos of every scenario (the browser's default adds KILL).
# --points "N …" runs those fault points only (the failures of an earlier sweep, run again).
# --shard K/M runs the points N with N mod M = K only: M sweeps side by side, one per core, share a
# scenario's points (each in its own work directory).
# --progress FILE appends one line per trial (scenario, errno, call, seconds, ok or FAIL) as it ends,
# so a long sweep's partial results survive an interruption.
# Prints one line per failed trial and a summary per scenario; exit 1 if any trial failed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
binary="$root/.build/debug/quaketui"
sample=0
seed=1
errnos="EIO ENOSPC EINTR"
browser_errnos="EIO ENOSPC EINTR KILL"
only=""
data="${QUAKETUI_SHARED_DATA:-$root/../shared/data}"
progress=/dev/null
points_only=""
shard_index=0
shard_count=1
[ -d "$data/usgs" ] || data=/work/shared/data
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary=$2; shift 2 ;;
        --sample) sample=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --errnos) errnos=$2; browser_errnos=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --data) data=$2; shift 2 ;;
        --progress) progress=$2; shift 2 ;;
        --points) points_only=$2; shift 2 ;;
        --shard) shard_index=${2%/*}; shard_count=${2#*/}; shift 2 ;;
        *) echo "sweep: unknown argument $1" >&2; exit 64 ;;
    esac
done
shim=$("$here/build.sh")
work=$(mktemp -d /tmp/quaketui-sweep.XXXXXX)
socket="quaketui-sweep-$$"
server_pid=""
cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
[ -n "${SWEEP_KEEP:-}" ] && trap - EXIT
calls=open,read,write,pread,pwrite,fsync,rename,unlink,ftruncate

# The FDSN service for `fetch`: a month of M4.5+ quakes as FDSN text, a limit of 150 a request.
python3 - "$data/usgs/4.5_month-2014-03-21.geojson" > "$work/catalogue.txt" <<'PY' || exit 1
import json, sys, datetime
print("#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName")
for f in json.load(open(sys.argv[1]))["features"]:
    p, (lon, lat, depth) = f["properties"], f["geometry"]["coordinates"]
    t = datetime.datetime.fromtimestamp(p["time"] / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]
    print(f"{f['id']}|{t}|{lat}|{lon}|{depth}|{p['net']}|{p['net']}|{p['net']}|{f['id']}|{p['magType']}|{p['mag']}|{p['net']}|{p['place']}")
PY
echo '{}' > "$work/faults.json"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$root/Benchmarks/peers/fdsnws_server.py" "$work/catalogue.txt" "$port" 100000 "$work/faults.json" /dev/null \
    > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done

# The base state: a store with a month of quakes, a note, and settings.
base=$work/base
mirror=$work/mirror
mkdir -p "$mirror"
cp "$data/usgs/all_week-2020-06-10.geojson" "$mirror/all_week.geojson"
"$binary" import "$data/usgs/2.5_month-2019-07-19.geojson" --state-dir "$base" > /dev/null || exit 1
sqlite3 "$base/quakes.sqlite" "UPDATE quake SET notes = 'felt it' WHERE rowid = 7" || exit 1
"$binary" config alertMagnitude 6.5 --state-dir "$base" > /dev/null || exit 1
"$binary" config autoRefreshInterval 0 --state-dir "$base" > /dev/null || exit 1   # the browser stays offline
"$binary" list --state-dir "$base" > /dev/null || exit 1   # checkpoints and closes the WAL

# Another agency's reports of 200 of the base month's quakes (`associate`): 2 s later, 0.05° north.
python3 - "$data/usgs/2.5_month-2019-07-19.geojson" > "$work/other-agency.txt" <<'PY' || exit 1
import json, sys, datetime
print("#EventID|Time|Latitude|Longitude|Depth/km|Author|Catalog|Contributor|ContributorID|MagType|Magnitude|MagAuthor|EventLocationName|EventType")
features = sorted(json.load(open(sys.argv[1]))["features"], key=lambda f: f["properties"]["time"])[:200]
for f in features:
    p, (lon, lat, depth) = f["properties"], f["geometry"]["coordinates"]
    t = datetime.datetime.fromtimestamp(p["time"] / 1000 + 2, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]
    print(f"e{f['id']}|{t}|{lat + 0.05}|{lon}|{depth}|EMSC|EMSC|||{p['magType']}|{p['mag']}|EMSC|{p['place']}|earthquake")
PY

# The state a trial leaves: the store's rows, the settings, the pending activities.
fingerprint() {
    local dir=$1
    {
        sqlite3 "$dir/quakes.sqlite" "SELECT code, updated, coalesce(notes, ''), agencies FROM quake ORDER BY code" 2>&1
        sqlite3 "$dir/quakes.sqlite" "SELECT report.code, quake.code FROM report JOIN quake ON quake.id = report.event ORDER BY 1" 2>&1
        # Whether a fetch is finished: with every quake stored, its last (empty) window may not be.
        sqlite3 "$dir/quakes.sqlite" "SELECT value LIKE '%\"done\":true%' FROM meta WHERE key LIKE 'fetch.%'" 2>&1
        cat "$dir/defaults.plist" 2>/dev/null
        grep -c us70004jyv "$dir"/activity.plist 2>/dev/null; cat "$dir"/scenes/*.plist 2>/dev/null
    } | md5sum | cut -d' ' -f1
}

rows() {   # the store's rows, one a line, sorted
    sqlite3 "$1/quakes.sqlite" "SELECT code || ' ' || updated || ' ' || coalesce(notes, '') FROM quake ORDER BY 1" 2>&1
}

# A fetch that failed may keep its finished windows: the "before" rows, some "after" rows, and
# nothing else; the same command run again without faults must then finish it exactly.
fetch_partial_problem() {   # dir
    local dir=$1
    rows "$dir" > "$work/rows.got"
    if [ -n "$(comm -23 "$work/rows.got" "$work/rows.union")" ]; then
        echo "rows neither before nor after: $(comm -23 "$work/rows.got" "$work/rows.union" | head -2 | tr '\n' ' ')"
    elif [ -n "$(comm -13 "$work/rows.got" "$work/rows.before")" ]; then
        echo "rows of before were lost"
    fi
}

# A delete that failed may keep its committed batches: every row of "after", some of "before"
# and nothing else, and every deleted row no newer than any row it kept from before the date.
delete_partial_problem() {   # dir
    local dir=$1
    rows "$dir" > "$work/rows.got"
    if [ -n "$(comm -23 "$work/rows.got" "$work/rows.before")" ]; then
        echo "rows that were not there before: $(comm -23 "$work/rows.got" "$work/rows.before" | head -2 | tr '\n' ' ')"
    elif [ -n "$(comm -13 "$work/rows.got" "$work/rows.after")" ]; then
        echo "rows of after were lost"
    else
        local newer
        newer=$(sqlite3 "$dir/quakes.sqlite" "ATTACH '$base/quakes.sqlite' AS b;
            SELECT count(*) FROM b.quake o WHERE o.time < $delete_cutoff AND o.code NOT IN (SELECT code FROM main.quake)
              AND o.time > (SELECT coalesce(min(time), $delete_cutoff) FROM main.quake WHERE time < $delete_cutoff)" 2>&1)
        [ "$newer" = 0 ] || echo "not the oldest deleted first: $newer deleted rows are newer than one kept"
    fi
}
delete_cutoff=$(( $(date -u -d 2019-07-10 +%s) * 1000 ))

scenario_args() {
    case "$1" in
        import) echo "import $data/usgs/1.0_week-2019-02-16.geojson" ;;
        associate) echo "import $work/other-agency.txt" ;;
        refresh) echo "refresh all_week" ;;
        delete) echo "delete --before 2019-07-10" ;;
        config) echo "config alertMagnitude 7" ;;
        open) echo "open us70004jyv --scene main" ;;
        fetch) echo "fetch --start 2014-02-19 --end 2014-03-22 --json" ;;
    esac
}

# The fault points a scenario's trials fail with one errno: --points as given, a seeded sample
# of --sample, or every point 1…$1; of those, this shard's.
fault_points() {
    all_fault_points "$@" | awk -v k="$shard_index" -v m="$shard_count" '$1 % m == k'
}

all_fault_points() {
    if [ -n "$points_only" ]; then
        echo "$points_only" | tr -s " " "\n"
    elif [ "$sample" -gt 0 ] && [ "$sample" -lt "$1" ]; then
        seq 1 "$1" | shuf -n "$sample" --random-source=<(yes "$seed$2$3") | sort -n
    else
        seq 1 "$1"
    fi
}

run_trial() {   # dir, scenario, env...
    local dir=$1 scenario=$2; shift 2
    # shellcheck disable=SC2046
    env "$@" QUAKETUI_BATCH_ROWS=200 QUAKETUI_FEED_BASE_URL="file://$mirror" QUAKETUI_FDSN_BASE_URL="http://127.0.0.1:$port/fdsnws/event/1/query" \
        QUAKETUI_FDSN_LIMIT=150 "$binary" $(scenario_args "$scenario") --state-dir "$dir" \
        > "$work/out" 2> "$work/err"
}

total_failures=0
summary=""
for scenario in import associate refresh fetch delete config open; do
    [ -n "$only" ] && [ "$only" != "$scenario" ] && continue
    before=$(fingerprint "$base")
    rm -rf "$work/clean"; cp -a "$base" "$work/clean"
    run_trial "$work/clean" "$scenario" || { echo "sweep: $scenario fails without faults: $(cat "$work/err")"; exit 1; }
    after=$(fingerprint "$work/clean")
    rows "$base" > "$work/rows.before"
    rows "$work/clean" > "$work/rows.after"
    sort -u "$work/rows.before" "$work/rows.after" > "$work/rows.union"
    rm -rf "$work/count"; cp -a "$base" "$work/count"
    run_trial "$work/count" "$scenario" LD_PRELOAD="$shim" FAULT_CALLS=$calls FAULT_PATH="$work/count" FAULT_NTH=0 FAULT_COUNT="$work/n"
    points=$(cat "$work/n")
    trials=0; failures=0; done_but_failed=0; began=$SECONDS
    echo "# $scenario: $points fault points, errnos $errnos, sample $sample, binary $binary" >> "$progress"
    for errno in $errnos; do
        nths=$(fault_points "$points" "$scenario" "$errno")
        for nth in $nths; do
            trials=$((trials + 1))
            trial=$work/trial-state   # (no other file in $work has this in its path: FAULT_PATH matches substrings)
            rm -rf "$trial"; cp -a "$base" "$trial"
            run_trial "$trial" "$scenario" LD_PRELOAD="$shim" FAULT_CALLS=$calls FAULT_PATH="$trial" FAULT_NTH="$nth" \
                FAULT_ERRNO="$errno" FAULT_LOG="$work/faultlog"
            rc=$?
            problem=""
            got=$(fingerprint "$trial")
            [ "$scenario" = fetch ] && sed -i '/^fetch: /d' "$work/err"   # its notes: halving a window, a retry
            lines=$(wc -l < "$work/err")
            if [ "$rc" -ge 128 ]; then problem="crashed (exit $rc)"
            elif [ "$rc" -eq 0 ] && [ "$got" != "$after" ]; then problem="exit 0 but the work was not done"
            elif [ "$rc" -ne 0 ] && [ "$scenario" = fetch ] && [ "$got" != "$before" ] && [ "$got" != "$after" ] \
                && partial=$(fetch_partial_problem "$trial") && [ -n "$partial" ]; then problem="$partial"
            elif [ "$rc" -ne 0 ] && [ "$scenario" = delete ] && [ "$got" != "$before" ] && [ "$got" != "$after" ] \
                && partial=$(delete_partial_problem "$trial") && [ -n "$partial" ]; then problem="$partial"
            elif [ "$rc" -ne 0 ] && [ "$scenario" != fetch ] && [ "$scenario" != delete ] && [ "$got" != "$before" ] && [ "$got" != "$after" ]; then problem="the state is neither before nor after"
            elif [ "$rc" -ne 0 ] && { [ "$lines" -ne 1 ] || ! head -1 "$work/err" | grep -q '^Error: '; }; then problem="not one sentence: $(head -c 300 "$work/err")"
            elif [ "$rc" -ne 0 ] && [ "$got" = "$after" ]; then done_but_failed=$((done_but_failed + 1)); problem="exit $rc after the work was done: $(head -c 200 "$work/err")"
            fi
            if [ -f "$trial/quakes.sqlite" ]; then
                check=$(sqlite3 "$trial/quakes.sqlite" "PRAGMA integrity_check" 2>&1)
                [ "$check" = "ok" ] || problem="$problem; integrity_check: $check"
                # "Damaged, move it aside" on a sound store throws away every note (issue 29).
                if [ "$check" = "ok" ] && grep -q -E "is damaged|malformed|disk image" "$work/err"; then
                    problem="$problem; called damaged, but integrity_check is ok: $(head -c 200 "$work/err")"
                fi
            fi
            # A fetch that kept windows, or a delete that kept batches, says so, not "nothing was changed".
            if { [ "$scenario" = fetch ] || [ "$scenario" = delete ]; } && [ "$rc" -ne 0 ] && [ "$got" != "$before" ] \
                && grep -qi "nothing was changed" "$work/err"; then
                problem="$problem; says nothing was changed, but some work is kept: $(head -c 200 "$work/err")"
            fi
            # The next run works: a fetch or a delete that failed is finished by the same command.
            if { [ "$scenario" = fetch ] || [ "$scenario" = delete ]; } && [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ]; then
                if ! run_trial "$trial" "$scenario"; then problem="$problem; the next $scenario failed too: $(head -c 200 "$work/err")"
                elif [ "$(fingerprint "$trial")" != "$after" ]; then problem="$problem; the next $scenario did not finish it exactly"
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
                echo "$scenario $errno $nth $((SECONDS - began)) FAIL $problem" >> "$progress"
            else
                echo "$scenario $errno $nth $((SECONDS - began)) ok" >> "$progress"
            fi
            rm -f "$work/faultlog"
        done
    done
    line="$scenario: $points fault points, $trials trials, $failures failures ($done_but_failed of them exit ≠ 0 after the work was done), $((SECONDS - began)) s"
    echo "$line"
    summary="$summary$line"$'\n'
    total_failures=$((total_failures + failures))
done

# ---- The browser's writers: a notes save and a scene save, in tmux. ----
if [ -z "$only" ] || [ "$only" = notes ] || [ "$only" = scene ]; then
tmux -L "$socket" -f /dev/null new-session -d -s sweep -x 120 -y 30 cat || exit 1

screen() { tmux -L "$socket" capture-pane -p -t sweep:b 2>/dev/null; }
waitfor() {   # timeout-seconds, then a command that succeeds when the wait is over
    local deadline=$(( $(date +%s) + $1 )) began=$SECONDS; shift
    while ! "$@"; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            [ -n "${SWEEP_DEBUG:-}" ] && echo "waited $1 s in vain for: $*" >&2
            return 1
        fi
        sleep 0.05
    done
    [ -n "${SWEEP_DEBUG:-}" ] && echo "waited $((SECONDS - began)) s for: $*" >&2
    return 0
}
idles() { local n; n=$(grep -c '^idle' "$work/trace" 2>/dev/null); echo "${n:-0}"; }
more_idles() { [ "$(idles)" -gt "$1" ]; }
exited() { [ -s "$work/status" ]; }
settled_since() { exited || { more_idles "$1" && [ "$(tail -1 "$work/trace" 2>/dev/null)" = idle ]; }; }
shows() { screen | grep -q -- "$1"; }
shows_or_exited() { exited || screen | grep -q -i -E -- "$1"; }
# The scene file as canonical JSON (a torn or missing file prints nothing).
scene_json() {
    # (Its message log, which records what the status line said and when, and the mark of what
    # the scene last showed, which holds the time of that, are left out.)
    python3 -c 'import plistlib, sys, json; d = plistlib.load(open(sys.argv[1], "rb")); d.pop("ContentView.messageLog", None); d.pop("ContentView.lastLooked", None); print(json.dumps(d, sort_keys=True, default=str))' \
        "$1/scenes/main.plist" 2>/dev/null
}
keydiff() {   # the keys in which two scene_json texts differ
    python3 -c 'import json, sys; a, b = (json.loads(x or "{}") for x in sys.argv[1:]); print(" ".join(sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))))' "$1" "$2"
}
notes_of() { sqlite3 "$1/quakes.sqlite" "SELECT coalesce(notes, '') FROM quake WHERE code = '$2'" 2>&1; }

launch() {   # dir, env... : the browser of scene main in the window sweep:b
    local dir=$1; shift
    tmux -L "$socket" kill-window -t sweep:=b 2>/dev/null  # "=": exactly b (tmux 3.3 took a missing b as the current window, the only one, and the server ended)
    rm -f "$work/status" "$work/trace" "$work/err"
    local env="" arg
    for arg in "$@" QUAKETUI_TRACE="$work/trace" QUAKETUI_FEED_BASE_URL=file:///nonexistent-quaketui-feed \
        QUAKETUI_WINDOW_BUDGET_MS=60000; do env="$env $(printf %q "$arg")"; done
    tmux -L "$socket" new-window -d -t sweep -n b \
        "env $env $(printf %q "$binary") --state-dir $(printf %q "$dir") --scene main 2> $(printf %q "$work/err"); echo \$? > $(printf %q "$work/status"); exec sleep 86400"
    waitfor 60 more_idles 0 || { exited || echo "launch: no idle in 60 s"; return 1; }
}
quit() {   # q (or SIGTERM while editing notes) and the exit status
    if exited; then cat "$work/status"; return; fi
    if [ "${1:-q}" = term ]; then
        pid=$(cat "/proc/$(tmux -L "$socket" display-message -p -t sweep:b '#{pane_pid}')/task/"*/children 2>/dev/null | awk '{print $1}')
        [ -n "$pid" ] && kill -TERM "$pid"
    else
        tmux -L "$socket" send-keys -t sweep:b q
    fi
    waitfor 60 exited || { echo 999; return; }
    cat "$work/status"
}

# The browser's base: the same store and settings, a scene with the first quake's detail open.
bbase=$work/bbase
cp -a "$base" "$bbase"
launch "$bbase" || exit 1
tmux -L "$socket" send-keys -t sweep:b Enter 3
waitfor 30 shows "Notes" || { echo "sweep: the browser shows no Notes tab"; screen; exit 1; }
[ "$(quit)" = 0 ] || { echo "sweep: the browser does not quit cleanly: $(cat "$work/err")"; exit 1; }
code=$(python3 -c 'import plistlib, sys; print(plistlib.load(open(sys.argv[1], "rb"))["ContentView.selectedQuake"])' "$bbase/scenes/main.plist") \
    || { echo "sweep: no selected quake in the browser's scene"; exit 1; }
old_notes=$(notes_of "$bbase" "$code")
old_scene=$(scene_json "$bbase")

# One browser trial: the action, then the checks; prints the problem, if any.
browser_trial() {   # scenario, dir, env...
    local scenario=$1 dir=$2; shift 2
    rm -f "$work/arm"
    launch "$dir" "$@" FAULT_ARM="$work/arm" || { echo "launch failed: $(head -c 200 "$work/err")"; return; }
    local n rc killed=0 retried=0 changed=0
    if [ "$scenario" = notes ]; then
        tmux -L "$socket" send-keys -t sweep:b e
        tmux -L "$socket" send-keys -t sweep:b -l "sweep note"
        waitfor 30 shows "sweep note" || { echo "the typed note never showed"; quit > /dev/null; return; }
        touch "$work/arm"
        n=$(idles)
        tmux -L "$socket" send-keys -t sweep:b C-s
        # (A failed read elsewhere, a merge, may say so over "Notes saved": the checks below decide.)
        waitfor 30 shows_or_exited "Notes saved|not saved|could not" || { echo "no word on the save in 30 s"; }
        if ! exited && shows "not saved"; then
            # The failure was said; the draft is kept: the same save again must work.
            retried=1
            n=$(idles)
            tmux -L "$socket" send-keys -t sweep:b C-s
            waitfor 30 shows_or_exited "Notes saved" || echo "the second save did not work either: $(screen | tail -1)"
        fi
        # Settled after the save: an idle since ctrl-s and no frame drawn after it (waiting
        # for one more idle than that waited 10 s in vain whenever the save had settled at once).
        waitfor 10 settled_since "$n"
        screen > "$work/screen"
        rc=$(quit term)
    else
        n=$(idles)
        touch "$work/arm"
        tmux -L "$socket" send-keys -t sweep:b s
        # A failed read leaves the order as it was, and says so on the status line.
        waitfor 10 shows_or_exited "sort magnitude|failed|not |rror" 
        waitfor 5 more_idles "$n"
        screen > "$work/screen"
        grep -q "sort magnitude" "$work/screen" && changed=1
        if [ "$changed" = 0 ] && ! exited && ! tail -1 "$work/screen" | grep -q -i -E "could not|not saved"; then
            echo "the sort did not change, and the status line does not say why: $(tail -1 "$work/screen")"
        fi
        rc=$(quit q)
    fi
    [ "$rc" = 137 ] && [ "$FAULT_KIND" = KILL ] && killed=1
    if [ "$rc" -ge 128 ] && [ "$killed" = 0 ]; then echo "crashed (exit $rc): $(head -c 300 "$work/err")"; fi
    if grep -q -E 'Backtrace|Fatal error' "$work/err"; then echo "a backtrace: $(head -c 300 "$work/err")"; fi
    if [ "$killed" = 0 ] && [ "$rc" != 0 ] && { [ "$(wc -l < "$work/err")" -ne 1 ] || ! grep -q '^Error: ' "$work/err"; }; then
        echo "exit $rc without one sentence: $(head -c 300 "$work/err")"
    fi
    local got_notes got_scene check
    got_notes=$(notes_of "$dir" "$code")
    got_scene=$(scene_json "$dir")
    check=$(sqlite3 "$dir/quakes.sqlite" "PRAGMA integrity_check" 2>&1)
    [ "$check" = ok ] || echo "integrity_check: $check"
    [ "$check" = ok ] && grep -q -E "is damaged|malformed|disk image" "$work/screen" "$work/err" \
        && echo "called damaged, but integrity_check is ok: $(grep -h -E "is damaged|malformed|disk image" "$work/screen" "$work/err" | head -1)"
    [ "$got_notes" = "$old_notes" ] || [ "$got_notes" = "sweep note" ] || echo "notes neither before nor after: $got_notes"
    [ "$scenario" = notes ] && [ "$killed" = 0 ] && [ "$got_notes" != "sweep note" ] && echo "exit $rc but the notes were not saved"
    [ -n "$got_scene" ] || echo "the scene file is missing or torn"
    # A notes save changes the scene in several steps (the draft, then none): only the scene
    # scenario has one old and one new plist.
    [ "$scenario" = notes ] || [ "$got_scene" = "$old_scene" ] || [ "$got_scene" = "$new_scene" ] || echo "the scene is neither the old nor the new plist: $(keydiff "$got_scene" "$old_scene") / $(keydiff "$got_scene" "$new_scene")"
    [ "$scenario" = scene ] && [ "$rc" = 0 ] && [ "$changed" = 1 ] && [ "$got_scene" != "$new_scene" ] && echo "exit 0 but the scene was not saved"
    # (Killed, the screen may not have shown the new order yet: old and new are both right.)
    [ "$scenario" = scene ] && [ "$changed" = 0 ] && [ "$killed" = 0 ] && [ "$got_scene" != "$old_scene" ] && echo "the sort did not change, but the scene did"
    for aside in $(find "$dir" -name '*.corrupt-*' 2>/dev/null); do
        python3 -c 'import plistlib, sys; plistlib.load(open(sys.argv[1], "rb"))' "$aside" 2>/dev/null \
            && echo "a good file was moved aside: $aside"
    done
    # The next run works: the browser launches on what is left, shows the scene and quits.
    if ! launch "$dir"; then echo "the next launch failed: $(head -c 200 "$work/err")"; return; fi
    screen | grep -q "scene main" || echo "the next launch does not show scene main"
    rc=$(quit term)
    [ "$rc" = 0 ] || echo "the next launch exited $rc: $(head -c 200 "$work/err")"
}

for scenario in notes scene; do
    [ -n "$only" ] && [ "$only" != "$scenario" ] && continue
    # The clean run: what the action leaves without faults (the "after"), and how many calls it makes.
    rm -rf "$work/clean"; cp -a "$bbase" "$work/clean"
    new_scene=""
    FAULT_KIND=EIO
    # A scene save's faults go to scenes/ alone: every point is then SceneStorage's atomic write.
    where=""; [ "$scenario" = scene ] && where=/scenes
    problem=$(browser_trial "$scenario" "$work/clean" LD_PRELOAD="$shim" FAULT_CALLS=$calls FAULT_PATH="$work/clean$where" \
        FAULT_NTH=0 FAULT_COUNT="$work/n")
    if [ "$scenario" = notes ]; then
        [ "$(notes_of "$work/clean" "$code")" = "sweep note" ] || { echo "sweep: notes fail without faults: $problem"; exit 1; }
    fi
    new_scene=$(scene_json "$work/clean")
    [ "$scenario" = notes ] || [ "$new_scene" != "$old_scene" ] || { echo "sweep: the $scenario action changed no scene key: $problem"; exit 1; }
    points=$(cat "$work/n")
    trials=0; failures=0; began=$SECONDS
    echo "# $scenario: $points fault points, errnos $browser_errnos, sample $sample, binary $binary" >> "$progress"
    for errno in $browser_errnos; do
        nths=$(fault_points "$points" "$scenario" "$errno")
        for nth in $nths; do
            trials=$((trials + 1))
            trial=$work/trial-state   # (no other file in $work has this in its path: FAULT_PATH matches substrings)
            rm -rf "$trial"; cp -a "$bbase" "$trial"
            FAULT_KIND=$errno
            problem=$(browser_trial "$scenario" "$trial" LD_PRELOAD="$shim" FAULT_CALLS=$calls FAULT_PATH="$trial$where" \
                FAULT_NTH="$nth" FAULT_ERRNO="$errno" FAULT_LOG="$work/faultlog")
            if [ -n "$problem" ]; then
                failures=$((failures + 1))
                echo "FAIL $scenario $errno call #$nth ($(tail -1 "$work/faultlog" 2>/dev/null)): $(echo "$problem" | tr '\n' ';')"
                echo "$scenario $errno $nth $((SECONDS - began)) FAIL $(echo "$problem" | tr '\n' ';')" >> "$progress"
            else
                echo "$scenario $errno $nth $((SECONDS - began)) ok" >> "$progress"
            fi
            rm -f "$work/faultlog"
        done
    done
    line="$scenario: $points fault points, $trials trials, $failures failures, $((SECONDS - began)) s"
    echo "$line"
    summary="$summary$line"$'\n'
    total_failures=$((total_failures + failures))
done
fi

echo "---"
printf "%s" "$summary"
[ "$total_failures" -eq 0 ]
