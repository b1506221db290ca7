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
#   - the session's stored events are the printed lines, byte for byte, between the harness
#     lines `run` adds (its turn_start and turn_end, `stderr:` notes) (GET …/events/raw);
#   - the live rows (GET …/events/history, all pages) are exactly `hiveterm classify` of the
#     stored events (seq for seq);
#   - each printed line's live rows are its rows in `hiveterm classify` of the printed lines
#     alone, but for the turn rows: under a harness its turn rows are the only ones, and the
#     agent's prompt is a `prompt ← user` row (docs/ROWS.md).
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
# The generator's own checks (its path rewrite of kept copies) may fail without touching what
# is compared here: the sessions and the raw stdout.
HIVETERM_WRAP="$HIVETERM" DEST="$WORK/live-out" bash "$CORPUS/run_all.sh" "$@" ||
    echo "live-agents: the generator exited $? (its own checks); comparing what it ran" >&2

"$HIVETERM" serve --db "$WORK/wrapped.db" --addr "127.0.0.1:$PORT" >"$WORK/live-serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    curl -fsS "http://127.0.0.1:$PORT/api/sessions" >/dev/null 2>&1 && break
    sleep 0.2
done

python3 - "$HIVETERM" "http://127.0.0.1:$PORT" "$WORK/out/raw" <<'EOF'
import json, re, subprocess, sys, tempfile, urllib.parse, urllib.request

hiveterm, base, raw = sys.argv[1:]
HARNESS = re.compile(rb'^\{"kind":"(turn_start|turn_end|note)"')
TURN = [("◆", re.compile(r"^TURN( ← .*)?$")), ("✅", re.compile(r"^turn ok$")),
        ("❌", re.compile(r"^turn fail( — .*)?$"))]

def get(path):
    with urllib.request.urlopen(base + path) as r:
        return r.read()

def classify(data):
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        f.write(data)
        f.flush()
        out = subprocess.run([hiveterm, "classify", f.name], capture_output=True, check=True).stdout
    return {e["seq"]: e["msgs"] for e in map(json.loads, out.splitlines())}

def is_turn(m):
    return any(m.get("icon") == i and p.match(m["summary"]) for i, p in TURN)

sessions, cursor = [], None
while True:
    q = "/api/sessions?limit=1000" + (f"&before={urllib.parse.quote(str(cursor))}" if cursor else "")
    page = json.loads(get(q))
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
    stored_raw = get(f"/api/sessions/{s['id']}/events/raw")
    stored = [l for l in stored_raw.split(b"\n") if l]
    cli = [(seq, l) for seq, l in enumerate(stored, 1) if not HARNESS.match(l)]
    problems = []
    if [l for _, l in cli] != lines:
        problems.append(f"stored {len(cli)} CLI lines, the CLI printed {len(lines)}")
    live, before = {}, None
    while True:
        q = f"/api/sessions/{s['id']}/events/history?limit=1000" + (f"&before={before}" if before else "")
        page = json.loads(get(q))
        for env in page["envelopes"]:
            live[env["seq"]] = env["msgs"]
        before = page.get("next_before")
        if before is None:
            break
    of_stored = {k: v for k, v in classify(stored_raw).items() if v}
    if live != of_stored:
        diff = sorted(k for k in live.keys() | of_stored.keys() if live.get(k) != of_stored.get(k))
        problems.append(f"live rows differ from classify of the stored events at seqs {diff[:5]}")
    alone = classify(printed)
    for n, (seq, _) in enumerate(cli, 1):
        want = [m for m in alone.get(n, []) if not is_turn(m)]
        got = [m for m in live.get(seq, []) if not m["summary"].startswith("prompt ←")]
        if want != got:
            problems.append(f"line {n} (seq {seq}): live {got} != classify {want}")
            break
    unknown = sum(1 for msgs in alone.values() for m in msgs if m.get("icon") == "!")
    if unknown:
        problems.append(f"{unknown} unrecognised (!) rows")
    checked += 1
    if problems:
        failed += 1
        print(f"FAIL {s['title']}: " + "; ".join(problems))
    else:
        print(f"ok   {s['title']}: {len(lines)} lines, {len(live)} events with rows, live == classify")
print(f"{checked} sessions checked, {failed} failed")
sys.exit(1 if failed or not checked else 0)
EOF
