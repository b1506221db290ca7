#!/bin/bash
# Live check of `hiveterm mcp` (issue 49) with the real OpenAI Codex CLI: Codex configured with
# `[mcp_servers.hiveterm]` (command = hiveterm, args = mcp --db DB), driven by the corpus
# generator's scripted model (../shared/corpus-agents: mock_openai.py, runner.py) inside a
# loopback-only network namespace. The scripted model finds the tools with Codex's
# `tool_search`, calls `search` then `session_summary`; the check is that the CLI reports both
# calls completed, with the answers of `hiveterm mcp` (the session id the search finds, the
# summary's agent).
#
#   sudo bash scripts/mcp-live-check.sh [HIVETERM_BINARY]      (default target/debug/hiveterm)
#
# Needs root (ip netns) and, the first time, the npm registry: the pinned Codex CLI is
# installed into $WORK/node (WORK defaults to /tmp/hiveterm-mcp-live). Prints `mcp live check:
# ok` and exits 0, or says what is missing and exits 1.
set -eu
CODEX_VERSION=0.171.0
REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(realpath "${1:-$REPO/target/debug/hiveterm}")
GEN_SRC=${GEN_SRC:-$REPO/../shared/corpus-agents}
WORK=${WORK:-/tmp/hiveterm-mcp-live}
NS=hvmcp$$
[ -x "$BIN" ] || { echo "no hiveterm binary at $BIN (cargo build -p hiveterm)" >&2; exit 1; }
[ -f "$GEN_SRC/runner.py" ] || { echo "no corpus generator at $GEN_SRC" >&2; exit 1; }
mkdir -p "$WORK/node"
CODEX=$WORK/node/node_modules/.bin/codex
if [ "$("$CODEX" --version 2>/dev/null)" != "codex-cli $CODEX_VERSION" ]; then
  (cd "$WORK/node" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install "@openai/codex@$CODEX_VERSION" >&2)
fi
rm -rf "$WORK/gen" "$WORK/out/raw/codex" && mkdir -p "$WORK/gen/scenarios/codex"
(cd "$GEN_SRC" && tar --exclude=./out --exclude=./scenarios -cf - .) | tar -xf - -C "$WORK/gen"

# A database with one session: a Claude Code log with failing tool calls.
DB=$WORK/sessions.db
rm -f "$DB" "$DB"-*
"$BIN" run --once --db "$DB" --addr 127.0.0.1:0 --title live -- \
  cat "$REPO/fixtures/claude-code-2.1.332/tool_errors.stream.jsonl" >/dev/null 2>"$WORK/run.err"
QUERY="Exit code 1"
SESSION=$("$BIN" search "$QUERY" --db "$DB" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["hits"][0]["session"])')

python3 - "$WORK/gen/scenarios/codex/mcp_lookup.json" "$BIN" "$DB" "$QUERY" "$SESSION" <<'EOF'
import json, sys
path, binary, db, query, session = sys.argv[1:]
def call(name, **args):
    return {"items": [{"type": "function_call", "namespace": "mcp__hiveterm", "name": name,
                       "arguments": args}]}
json.dump({
    "name": "mcp_lookup",
    "threads": [{"match": "", "turns": [
        {"items": [{"type": "tool_search_call", "call_id": "ts_1", "execution": "client",
                    "status": "completed", "arguments": {"query": "hiveterm search sessions"}}]},
        call("search", query=query),
        call("session_summary", session=session),
        {"items": [{"type": "message", "text": "Yes, in session " + session + ".",
                    "phase": "final_answer"}]}]}],
    "runs": [{"prompt": "Did we hit '%s' before, and how did that session go?" % query}],
    "codex_config": "[mcp_servers.hiveterm]\ncommand = %s\nargs = [\"mcp\", \"--db\", %s]\n"
                    % (json.dumps(binary), json.dumps(db)),
}, open(path, "w"))
EOF

cleanup() { ip netns del "$NS" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
ip netns add "$NS"
ip netns exec "$NS" ip link set lo up
ip netns exec "$NS" python3 "$WORK/gen/runner.py" codex mcp_lookup >&2

python3 - "$WORK/out/raw/codex/mcp_lookup.stream.jsonl" "$SESSION" <<'EOF'
import json, sys
path, session = sys.argv[1:]
done = {}
for line in open(path):
    ev = json.loads(line)
    item = ev.get("item") or {}
    if ev.get("type") == "item.completed" and item.get("type") == "mcp_tool_call":
        text = "".join(c.get("text", "") for c in (item.get("result") or {}).get("content", []))
        done[item["tool"]] = (item.get("status"), text)
problems = []
status, text = done.get("search", (None, ""))
if status != "completed" or session not in text:
    problems.append("search: %s %.300s" % (status, text))
status, text = done.get("session_summary", (None, ""))
if status != "completed" or '"agent":"claude-code"' not in text:
    problems.append("session_summary: %s %.300s" % (status, text))
if problems:
    sys.exit("mcp live check failed (%s):\n  %s" % (path, "\n  ".join(problems)))
print("mcp live check: ok (Codex CLI called search and session_summary of hiveterm mcp)")
EOF
