#!/usr/bin/env bash
# Prints a screen of the real `moviesearch browse`, as a terminal shows it: runs the built binary in a private tmux
# server (its own socket, no configuration, no favorites but a temporary file), types the keys given, waits until the
# screen stops changing, and prints it as text (or with its attributes as SGR codes with --ansi). For COMMANDS.md screens
# and bug reports; the end-to-end tests drive browse the same way (Tests/TestSupport/TmuxSession.swift).
#
#   Scripts/browse-screen.sh [--ansi] [--size 80x24] [--binary path] [--cache file] [--] [key ...]
#
# Each key is a tmux key name (Enter, Escape, Tab, C-t, Down, …) or, prefixed with "text:", text typed as it is:
#   Scripts/browse-screen.sh --cache decade.mscache text:'dark kni'
#   Scripts/browse-screen.sh --size 60x16 --cache decade.mscache C-t Tab Down Tab C-t
set -euo pipefail
cd "$(dirname "$0")/.."

ansi=()
size=80x24
binary=.build/debug/moviesearch
cache_arguments=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --ansi) ansi=(-e); shift ;;
        --size) size="$2"; shift 2 ;;
        --binary) binary="$2"; shift 2 ;;
        --cache) cache_arguments=(--cache "$2"); shift 2 ;;
        --) shift; break ;;
        -*) echo "usage: Scripts/browse-screen.sh [--ansi] [--size 80x24] [--binary path] [--cache file] [--] [key ...]" >&2
            exit 2 ;;
        *) break ;;
    esac
done
command -v tmux >/dev/null 2>&1 || { echo "browse-screen: tmux not found (apt-get install -y tmux)" >&2; exit 1; }
[[ -x "$binary" ]] || { echo "browse-screen: $binary not found: run 'swift build' first" >&2; exit 1; }
[[ "$size" =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "browse-screen: --size wants COLUMNSxROWS, e.g. 80x24" >&2; exit 2; }
columns="${BASH_REMATCH[1]}" rows="${BASH_REMATCH[2]}"

work="$(mktemp -d)"
socket="$work/tmux"
tmux_() { tmux -S "$socket" -f /dev/null "$@"; }
trap 'tmux_ kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
env -u NO_COLOR -u COLUMNS -u LINES -u MOVIESEARCH_CACHE XDG_DATA_HOME="$work/data" \
    tmux -S "$socket" -f /dev/null set-option -g default-terminal xterm-256color \; set-option -g status off \; \
    set-option -g remain-on-exit on \; \
    new-session -d -s t -x "$columns" -y "$rows" -- "$binary" browse "${cache_arguments[@]}" </dev/null

# Polls (every 20 ms, 5 s at most) until the screen shows the tab bar and then stays the same for 100 ms.
settle() {
    local previous="" current same=0
    for _ in $(seq 250); do
        current="$(tmux_ capture-pane -p -t t: 2>/dev/null || true)"
        if [[ "$(tmux_ display-message -p -t t: '#{pane_dead}')" == 1 ]]; then
            echo "browse-screen: browse ended; its screen:" >&2
            echo "$current" >&2
            exit 1
        fi
        if [[ "$current" == "$previous" && "$current" == *"Search"* ]]; then
            same=$((same + 1))
            [[ $same -ge 5 ]] && return 0
        else
            same=0
        fi
        previous="$current"
        sleep 0.02
    done
    echo "browse-screen: the screen never settled; last screen:" >&2
    echo "$current" >&2
    exit 1
}

settle
for key in "$@"; do
    if [[ "$key" == text:* ]]; then
        text="${key#text:}"
        # tmux reads an argument ending in ';' as the end of its command: '\;' is the character.
        [[ "$text" == *";" ]] && text="${text%;}\\;"
        tmux_ send-keys -t t: -l -- "$text"
    else
        tmux_ send-keys -t t: -- "$key"
    fi
    settle
done
tmux_ capture-pane -p "${ansi[@]}" -t t:
