#!/usr/bin/env bash
# The real coding-agent CLIs, live: Codex and Gemini (issue 20), OpenCode, Qwen Code and Copilot
# CLI (issue 47), each run under `hiveterm run`, each live session's rows checked against
# `hiveterm classify` of what the CLI printed; and for the last three, `hiveterm serve --agents`
# on the store each run left in its home. Not part of scripts/test.sh: it needs root (the
# generators run the CLIs in a network namespace that has only loopback), the npm registry the
# first time (the CLIs, installed into each generator's work root) and the generators of
# ../shared/corpus-agents (Codex, Gemini; CORPUS=dir to point elsewhere) and
# ../shared/corpus-more (OpenCode, Qwen Code, Copilot CLI; MORE_CORPUS=dir). Only the model is a
# mock, on loopback; nothing leaves the machine.
#
#   scripts/live-agents.sh                       # every scenario of all five agents (~10 minutes)
#   scripts/live-agents.sh corpus-more           # one generator's agents (or corpus-agents)
#   scripts/live-agents.sh codex shell_command   # one agent, some scenarios
#
# HIVETERM (default target/release/hiveterm) is the binary under test; WORK (default
# /tmp/agents) and MORE_WORK (default /tmp/agmore), the generators' own defaults so that their
# installed CLIs are reused, their work roots. The checks are scripts/live_check.py's:
#   - `rows`, for every `<agent>-<run>` session in <work root>/wrapped.db: its stored events are
#     the printed lines, byte for byte, between the harness lines `run` adds; its live rows
#     (GET …/events/history) are exactly `hiveterm classify` of the stored events; each printed
#     line's live rows are its rows in `hiveterm classify` of the printed lines alone, but for
#     the turn rows (docs/ROWS.md); no `!` (unrecognised) row;
#   - `store` (OpenCode, Qwen Code, Copilot CLI), for every scenario's kept home: `HOME=<it>
#     hiveterm serve --agents` serves one session per session of the CLI's store, its `agent`
#     naming the CLI, its title the first prompt, no `!` row in its history.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HIVETERM="$(realpath "${HIVETERM:-${CARGO_TARGET_DIR:-$ROOT/target}/release/hiveterm}")"
CORPUS="$(realpath "${CORPUS:-$ROOT/../shared/corpus-agents}")"
MORE_CORPUS="$(realpath "${MORE_CORPUS:-$ROOT/../shared/corpus-more}")"
WORK="${WORK:-/tmp/agents}"
MORE_WORK="${MORE_WORK:-/tmp/agmore}"
PORT="${PORT:-7398}"
CHECK="$ROOT/scripts/live_check.py"

[ -x "$HIVETERM" ] || { echo "no hiveterm at $HIVETERM: cargo build --release -p hiveterm first" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (the generators make a network namespace)" >&2; exit 1; }

# live <generator folder> <work root> <agents with a store> [agent [scenario ...]]
live() {
    local corpus=$1 work=$2 stored=$3 rc=0 agent
    shift 3
    [ -f "$corpus/run_all.sh" ] || { echo "no generator at $corpus" >&2; return 1; }
    rm -f "$work/wrapped.db" "$work/wrapped.db-wal" "$work/wrapped.db-shm"
    # The generator's own checks (its path rewrite of kept copies) may fail without touching what
    # is compared here: the sessions, the raw stdout and the stores in the homes.
    HIVETERM_WRAP="$HIVETERM" WORK="$work" DEST="$work/live-out" bash "$corpus/run_all.sh" "$@" || {
        rc=$?
        echo "live-agents: $(basename "$corpus") exited $rc (its own checks); comparing what it ran" >&2
        rc=0
    }
    python3 "$CHECK" rows "$HIVETERM" "$work/wrapped.db" "$work/out/raw" "$PORT" || rc=1
    for agent in ${1:-$stored}; do
        case " $stored " in *" $agent "*) ;; *) continue ;; esac
        python3 "$CHECK" store "$HIVETERM" "$work" "$((PORT + 1))" "$agent" "${@:2}" || rc=1
    done
    return $rc
}

first() { live "$CORPUS" "$WORK" "" "$@"; }
more() { live "$MORE_CORPUS" "$MORE_WORK" "opencode qwen copilot" "$@"; }
case "${1:-}" in
    "") rc=0; first || rc=1; more || rc=1; exit $rc ;;
    corpus-agents) first ;;
    corpus-more) more ;;
    codex | gemini) first "$@" ;;
    opencode | qwen | copilot) more "$@" ;;
    *) echo "unknown agent $1 (codex, gemini, opencode, qwen, copilot; corpus-agents, corpus-more)" >&2; exit 1 ;;
esac
