#!/usr/bin/env bash
# The real Codex and Gemini CLIs under `hiveterm run`: each live session's rows must equal
# `hiveterm classify` of what the CLI printed (issue 20). Not part of scripts/test.sh: it needs
# root (the generator runs the CLIs in a network namespace that has only loopback), the npm
# registry the first time (about 500 MB of CLIs, installed into $WORK/node) and the generator
# of ../shared/corpus-agents (CORPUS=dir to point elsewhere). Only the model is a mock, on
# loopback; nothing leaves the machine.
#
#   scripts/live-agents.sh                       # every scenario of both agents (~2 minutes)
#   scripts/live-agents.sh codex shell_command   # one agent, some scenarios
#
# HIVETERM (default target/release/hiveterm) is the binary under test; WORK (default
# /tmp/agents, the generator's own default, so its installed CLIs are reused) its work root.
# For every `<agent>-<run>` session in $WORK/wrapped.db whose run printed stream JSON, it checks:
#   - the session's stored events are the printed lines, byte for byte (GET …/events/raw);
#   - every envelope of the session's history (GET …/events/history, all pages) equals the
#     envelope of the same seq in `hiveterm classify` of the printed lines (empty ones aside:
#     history leaves them out).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HIVETERM="$(realpath "${HIVETERM:-${CARGO_TARGET_DIR:-$ROOT/target}/release/hiveterm}")"
CORPUS="$(realpath "${CORPUS:-$ROOT/../shared/corpus-agents}")"
export WORK="${WORK:-/tmp/agents}"
PORT="${PORT:-7398}"

[ -x "$HIVETERM" ] || { echo "no hiveterm at $HIVETERM: cargo build --release -p hiveterm first" >&2; exit 1; }
[ -f "$CORPUS/run_all.sh" ] || { echo "no generator at $CORPUS (set CORPUS)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (the generator makes a network namespace)" >&2; exit 1; }

rm -f "$WORK/wrapped.db" "$WORK/wrapped.db-wal" "$WORK/wrapped.db-shm"
HIVETERM_WRAP="$HIVETERM" DEST="$WORK/live-out" bash "$CORPUS/run_all.sh" "$@"

"$HIVETERM" serve --db "$WORK/wrapped.db" --addr "127.0.0.1:$PORT" >"$WORK/live-serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    curl -fsS "http://127.0.0.1:$PORT/api/sessions" >/dev/null 2>&1 && break
    sleep 0.2
done

python3 - "$HIVETERM" "http://127.0.0.1:$PORT" "$WORK/out/raw" <<'EOF'
import json, subprocess, sys, urllib.parse, urllib.request

hiveterm, base, raw = sys.argv[1:]

def get(path):
    with urllib.request.urlopen(base + path) as r:
        return r.read()

sessions, cursor = [], None
while True:
    page = json.loads(get("/api/sessions?limit=1000" + (f"&before={urllib.parse.quote(str(cursor))}" if cursor else "")))
    sessions += page["sessions"]
    cursor = page.get("next_before")
    if not cursor:
        break

checked, failed = 0, 0
for s in sessions:
    agent, _, run = s["title"].partition("-")
    path = f"{raw}/{agent}/{run}.stream.jsonl"
    try:
        printed = open(path, "rb").read()
    except FileNotFoundError:
        print(f"skip {s['title']}: no {path} (an -o json run, or not this run's)")
        continue
    lines = [l for l in printed.split(b"\n") if l.strip()]
    stored = [l for l in get(f"/api/sessions/{s['id']}/events/raw").split(b"\n") if l]
    problems = []
    if stored != lines:
        problems.append(f"stored {len(stored)} events, the CLI printed {len(lines)} lines")
    live, before = {}, None
    while True:
        q = f"/api/sessions/{s['id']}/events/history?limit=1000" + (f"&before={before}" if before else "")
        page = json.loads(get(q))
        for env in page["envelopes"]:
            live[env["seq"]] = env
        before = page.get("next_before")
        if before is None:
            break
    out = subprocess.run([hiveterm, "classify", path], capture_output=True, check=True).stdout
    offline = {e["seq"]: e for e in map(json.loads, out.splitlines()) if e["msgs"]}
    if live.keys() != offline.keys():
        problems.append(f"seqs with rows differ: live only {sorted(live.keys() - offline.keys())[:5]}, "
                        f"classify only {sorted(offline.keys() - live.keys())[:5]}")
    for seq in sorted(live.keys() & offline.keys()):
        if live[seq]["msgs"] != offline[seq]["msgs"]:
            problems.append(f"seq {seq}: live {live[seq]['msgs']} != classify {offline[seq]['msgs']}")
            break
    unknown = sum(1 for e in offline.values() for m in e["msgs"] if m.get("icon") == "!")
    if unknown:
        problems.append(f"{unknown} unrecognised (!) rows")
    checked += 1
    if problems:
        failed += 1
        print(f"FAIL {s['title']}: " + "; ".join(problems))
    else:
        print(f"ok   {s['title']}: {len(lines)} events, {len(live)} with rows, live == classify")
print(f"{checked} sessions checked, {failed} failed")
sys.exit(1 if failed or not checked else 0)
EOF
