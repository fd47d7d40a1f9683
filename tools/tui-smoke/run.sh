#!/bin/sh
# Smoke test of the ncurses backend in a real terminal (tmux): drawing, keys, mouse, resize,
# the too-small message, colour depths, NO_COLOR, and restoring the terminal on q and SIGTERM.
# Usage: tools/tui-smoke/run.sh   (needs tmux; builds into tools/tui-smoke/.build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
swift build --scratch-path "$here/.build" >/dev/null
bin="$(swift build --scratch-path "$here/.build" --show-bin-path)/tui-smoke"
T="tmux -L tui-smoke-$$-0 -f /dev/null"
trap '$T kill-server 2>/dev/null || true' EXIT INT TERM
run=0
failures=0

# Polls the pane until it shows a fixed string (no fixed sleeps), up to 5 s.
wait_for() {
    i=0
    while [ $i -lt 50 ]; do
        if $T capture-pane -p -t smoke | grep -qF -- "$1"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    echo "FAIL: screen never showed: $1"; echo "---- last screen ----"; $T capture-pane -p -t smoke; echo "---------------------"
    failures=$((failures + 1))
    return 0
}

start() { # TERM [extra-env]; each run gets its own server so a dying one never races the next
    $T kill-server 2>/dev/null || true
    run=$((run + 1))
    T="tmux -L tui-smoke-$$-$run -f /dev/null"
    # tmux sets TERM in the pane itself, so set the environment inside the command.
    $T new-session -d -s smoke -x 100 -y 30 "env TERM=$1 ${2:-} sh -c '$bin; echo EXIT-STATUS \$?; sleep 60'"
}

start xterm-256color
wait_for "quaketui │ 4 quakes"
wait_for "Evil Place"
if $T capture-pane -p -t smoke | grep -q pwned; then echo "FAIL: escape sequence reached the screen"; failures=$((failures + 1)); fi
wait_for "depth full256"
$T send-keys -t smoke j;      wait_for "key j"
$T send-keys -t smoke Enter;  wait_for "1 Detail"
$T send-keys -t smoke Tab;    wait_for "key Tab"
wait_for "◉"
$T send-keys -t smoke BTab;   wait_for "key shift-Tab"
$T send-keys -t smoke C-s;    wait_for "key ctrl-s"
$T send-keys -t smoke PPage;  wait_for "key PgUp"
$T send-keys -t smoke -l "$(printf '\033[<0;15;2M')"; wait_for "key click(14,1)"
$T send-keys -t smoke -l "$(printf '\033[<65;10;5M')"; wait_for "key wheel-down"
$T send-keys -t smoke Escape; wait_for "key Esc"
$T resize-window -t smoke -x 35 -y 8;   wait_for "Terminal too small (need 40×10)"
$T resize-window -t smoke -x 130 -y 20; wait_for "key resize(130x20)"
$T send-keys -t smoke Enter;  wait_for "│  1 Detail"
pid=$(pgrep -P "$($T display -p -t smoke '#{pane_pid}')" -x tui-smoke || true)
[ -n "$pid" ] && kill -TERM "$pid"
wait_for "smoke exited: signal 15"
wait_for "EXIT-STATUS 0"

start xterm
wait_for "depth eight"
$T send-keys -t smoke q; wait_for "smoke exited: quit"

start xterm-256color NO_COLOR=1
wait_for "depth noColor"
$T send-keys -t smoke q; wait_for "smoke exited: quit"

if [ $failures -eq 0 ]; then echo "tui-smoke: all checks passed"; else echo "tui-smoke: $failures failed"; exit 1; fi
