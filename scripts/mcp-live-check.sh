#!/bin/bash
# Live check of `hiveterm mcp` (issue 49) with the real OpenAI Codex CLI and Google Gemini CLI,
# each configured with `hiveterm mcp --db DB` as its documentation says (Codex:
# `[mcp_servers.hiveterm]` in config.toml; Gemini: `mcpServers` in settings.json) and driven by
# the corpus generator's scripted models (../shared/corpus-agents: mock_openai.py,
# mock_gemini.py, runner.py) inside a loopback-only network namespace. The scripted model calls
# `search`, then `session_summary` (Codex finds them first with its `tool_search`: it defers MCP
# tools, as the namespace `mcp__hiveterm`; Gemini names them `mcp_hiveterm_…`); the check is
# that the CLI reports both calls done with `hiveterm mcp`'s answers (the session id the search
# finds, the summary's agent).
#
#   sudo bash scripts/mcp-live-check.sh [HIVETERM_BINARY [codex|gemini]]
#                                               (default target/debug/hiveterm, both agents)
#
# Needs root (ip netns) and, the first time, the npm registry: the pinned CLIs are installed
# into $WORK/node (WORK defaults to /tmp/hiveterm-mcp-live; GEN_SRC names the generator's
# folder). Prints `mcp live check: ok (…)` for each agent and exits 0, or says what failed.
set -eu
CODEX_VERSION=0.171.0
GEMINI_VERSION=0.61.0
REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(realpath "${1:-$REPO/target/debug/hiveterm}")
AGENTS=${2:-codex gemini}
GEN_SRC=${GEN_SRC:-$REPO/../shared/corpus-agents}
WORK=${WORK:-/tmp/hiveterm-mcp-live}
NS=hvmcp$$
[ -x "$BIN" ] || { echo "no hiveterm binary at $BIN (cargo build -p hiveterm)" >&2; exit 1; }
[ -f "$GEN_SRC/runner.py" ] || { echo "no corpus generator at $GEN_SRC" >&2; exit 1; }
mkdir -p "$WORK/node"
NODE=$WORK/node/node_modules/.bin
if [ "$("$NODE/codex" --version 2>/dev/null)" != "codex-cli $CODEX_VERSION" ] ||
  [ "$("$NODE/gemini" --version 2>/dev/null)" != "$GEMINI_VERSION" ]; then
  (cd "$WORK/node" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install "@openai/codex@$CODEX_VERSION" "@google/gemini-cli@$GEMINI_VERSION" >&2)
fi
rm -rf "$WORK/gen" "$WORK/out/raw"
mkdir -p "$WORK/gen/scenarios/codex" "$WORK/gen/scenarios/gemini"
(cd "$GEN_SRC" && tar --exclude=./out --exclude=./scenarios -cf - .) | tar -xf - -C "$WORK/gen"

# A database with one session: a Claude Code log with failing tool calls.
DB=$WORK/sessions.db
rm -f "$DB" "$DB"-*
"$BIN" run --once --db "$DB" --addr 127.0.0.1:0 --title live -- \
  cat "$REPO/fixtures/claude-code-2.1.332/tool_errors.stream.jsonl" >/dev/null 2>"$WORK/run.err"
QUERY="Exit code 1"
SESSION=$("$BIN" search "$QUERY" --db "$DB" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["hits"][0]["session"])')

# The scenarios: the scripted model's turns and each CLI's configuration.
python3 - "$WORK/gen/scenarios" "$BIN" "$DB" "$QUERY" "$SESSION" <<'PY'
import json, sys
folder, binary, db, query, session = sys.argv[1:]
prompt = "Did we hit '%s' before, and how did that session go?" % query
answer = "Yes, in session " + session + "."
def codex_call(name, **args):
    return {"items": [{"type": "function_call", "namespace": "mcp__hiveterm", "name": name,
                       "arguments": args}]}
json.dump({
    "name": "mcp_lookup",
    "threads": [{"match": "", "turns": [
        {"items": [{"type": "tool_search_call", "call_id": "ts_1", "execution": "client",
                    "status": "completed", "arguments": {"query": "hiveterm search sessions"}}]},
        codex_call("search", query=query),
        codex_call("session_summary", session=session),
        {"items": [{"type": "message", "text": answer, "phase": "final_answer"}]}]}],
    "runs": [{"prompt": prompt}],
    "codex_config": "[mcp_servers.hiveterm]\ncommand = %s\nargs = [\"mcp\", \"--db\", %s]\n"
                    % (json.dumps(binary), json.dumps(db)),
}, open(folder + "/codex/mcp_lookup.json", "w"))
json.dump({
    "name": "mcp_lookup",
    "aux_json": {"complexity_score": 15, "complexity_reasoning": "Simple, single-step request.",
                 "next_speaker": "user", "model_choice": "flash"},
    "threads": [{"match": "", "turns": [
        {"parts": [{"call": "mcp_hiveterm_search", "args": {"query": query}}]},
        {"parts": [{"call": "mcp_hiveterm_session_summary", "args": {"session": session}}]},
        {"parts": [{"text": answer}]}]}],
    "runs": [{"prompt": prompt}],
    "gemini_settings": {"mcpServers": {"hiveterm": {"command": binary,
                                                    "args": ["mcp", "--db", db]}}},
}, open(folder + "/gemini/mcp_lookup.json", "w"))
PY

cleanup() { ip netns del "$NS" 2>/dev/null || true; }
trap cleanup EXIT INT TERM
ip netns add "$NS"
ip netns exec "$NS" ip link set lo up

rc=0
for agent in $AGENTS; do
  ip netns exec "$NS" python3 "$WORK/gen/runner.py" "$agent" mcp_lookup >&2 || rc=1
  python3 - "$agent" "$WORK/out/raw/$agent/mcp_lookup.stream.jsonl" "$SESSION" <<'PY' || rc=1
import json, sys
agent, path, session = sys.argv[1:]
done, calls = {}, {}
for line in open(path):
    ev = json.loads(line)
    item = ev.get("item") or {}
    if ev.get("type") == "item.completed" and item.get("type") == "mcp_tool_call":  # codex --json
        text = "".join(c.get("text", "") for c in (item.get("result") or {}).get("content", []))
        done[item["tool"]] = (item.get("status"), text)
    elif ev.get("type") == "tool_use":  # gemini stream-json
        calls[ev["tool_id"]] = ev["tool_name"].replace("mcp_hiveterm_", "")
    elif ev.get("type") == "tool_result" and ev.get("tool_id") in calls:
        status = "completed" if ev.get("status") == "success" else ev.get("status")
        done[calls[ev["tool_id"]]] = (status, ev.get("output") or "")
problems = []
status, text = done.get("search", (None, ""))
if status != "completed" or session not in text:
    problems.append("search: %s %.300s" % (status, text))
status, text = done.get("session_summary", (None, ""))
if status != "completed" or '"agent":"claude-code"' not in text:
    problems.append("session_summary: %s %.300s" % (status, text))
if problems:
    sys.exit("mcp live check failed for %s (%s):\n  %s" % (agent, path, "\n  ".join(problems)))
print("mcp live check: ok (%s called search and session_summary of hiveterm mcp)" % agent)
PY
done
exit $rc
