#!/bin/bash
# Live check of `hiveterm mcp` (issue 49) with the real Anthropic Claude Code CLI, OpenAI Codex
# CLI and Google Gemini CLI, each configured with `hiveterm mcp --db DB` as its documentation
# says (Claude Code: `--mcp-config FILE` of `{"mcpServers": …}`; Codex: `[mcp_servers.hiveterm]`
# in config.toml; Gemini: `mcpServers` in settings.json) and driven by a scripted model inside a
# loopback-only network namespace: for Codex and Gemini the corpus generator's
# (../shared/corpus-agents: mock_openai.py, mock_gemini.py, runner.py), for Claude Code
# scripts/mock-anthropic.py (the Messages API, through ANTHROPIC_BASE_URL). The scripted model
# calls `search`, then `session_summary` (Codex finds them first with its `tool_search`: it
# defers MCP tools, as the namespace `mcp__hiveterm`; Gemini names them `mcp_hiveterm_…`,
# Claude Code `mcp__hiveterm__…`); the check is that the CLI reports both calls done with
# `hiveterm mcp`'s answers (the session id the search finds, the summary's agent) and, for
# Claude Code, that those answers reached the model in its next requests (the tool_result
# blocks), and that it read the session's resource (`ReadMcpResourceTool`).
#
#   sudo bash scripts/mcp-live-check.sh [HIVETERM_BINARY [claude|codex|gemini …]]
#                                        (default target/debug/hiveterm, the three agents)
#
# Needs root (ip netns) and, the first time, the npm registry: the pinned CLIs are installed
# into $WORK/node (WORK defaults to /tmp/hiveterm-mcp-live; GEN_SRC names the generator's
# folder). Prints `mcp live check: ok (…)` for each agent and exits 0, or says what failed.
set -eu
CLAUDE_VERSION=2.1.337
CODEX_VERSION=0.171.0
GEMINI_VERSION=0.61.0
REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(realpath "${1:-$REPO/target/debug/hiveterm}")
shift 2>/dev/null || true
AGENTS=${*:-claude codex gemini}
GEN_SRC=${GEN_SRC:-$REPO/../shared/corpus-agents}
WORK=${WORK:-/tmp/hiveterm-mcp-live}
NS=hvmcp$$
[ -x "$BIN" ] || { echo "no hiveterm binary at $BIN (cargo build -p hiveterm)" >&2; exit 1; }
[ -f "$GEN_SRC/runner.py" ] || { echo "no corpus generator at $GEN_SRC" >&2; exit 1; }
mkdir -p "$WORK/node"
NODE=$WORK/node/node_modules/.bin
# Claude Code's npm package carries a native binary (its optional dependency
# @anthropic-ai/claude-code-linux-x64); node 20 is enough to install it (npm warns that the
# package asks for node 22, which only its JavaScript wrapper needs).
if [ "$("$NODE/claude" --version 2>/dev/null)" != "$CLAUDE_VERSION (Claude Code)" ] ||
  [ "$("$NODE/codex" --version 2>/dev/null)" != "codex-cli $CODEX_VERSION" ] ||
  [ "$("$NODE/gemini" --version 2>/dev/null)" != "$GEMINI_VERSION" ]; then
  (cd "$WORK/node" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install "@anthropic-ai/claude-code@$CLAUDE_VERSION" "@openai/codex@$CODEX_VERSION" \
      "@google/gemini-cli@$GEMINI_VERSION" >&2)
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
PROMPT="Did we hit '$QUERY' before, and how did that session go?"
python3 - "$WORK/gen/scenarios" "$BIN" "$DB" "$QUERY" "$SESSION" "$PROMPT" <<'PY'
import json, sys
folder, binary, db, query, session, prompt = sys.argv[1:]
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

# Claude Code: a fresh HOME and folder, the scripted model on 127.0.0.1:$CLAUDE_PORT, `claude -p`
# with the server in an --mcp-config file and its tools allowed (`mcp__hiveterm`: all of them;
# -p cannot ask for a permission, it refuses the call).
CLAUDE_PORT=8791
run_claude() {
  local dir=$WORK/claude
  rm -rf "$dir"
  mkdir -p "$dir/home" "$dir/ws"
  python3 - "$dir" "$BIN" "$DB" "$QUERY" "$SESSION" <<'PY'
import json, sys
folder, binary, db, query, session = sys.argv[1:]
def call(name, **args):
    return {"tool_use": {"name": name, "input": args}}
# Claude Code defers MCP tools (only their names, in a system message: "load with
# ToolSearch"), so a real model loads them first, as this one does.
json.dump([call("ToolSearch", query="select:mcp__hiveterm__search,"
                "mcp__hiveterm__session_summary,ReadMcpResourceTool"),
           call("mcp__hiveterm__search", query=query),
           call("mcp__hiveterm__session_summary", session=session),
           call("ReadMcpResourceTool", server="hiveterm", uri="hiveterm://session/" + session),
           {"text": "Yes, in session " + session + "."}], open(folder + "/script.json", "w"))
json.dump({"mcpServers": {"hiveterm": {"command": binary, "args": ["mcp", "--db", db]}}},
          open(folder + "/mcp.json", "w"))
PY
  ip netns exec "$NS" python3 "$REPO/scripts/mock-anthropic.py" --script "$dir/script.json" \
    --match "$PROMPT" --port $CLAUDE_PORT --log "$dir/requests.jsonl" 2>"$dir/mock.err" &
  local mock=$!
  for _ in $(seq 50); do grep -qs listening "$dir/mock.err" && break; sleep 0.1; done
  local status=0
  (cd "$dir/ws" && ip netns exec "$NS" env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$dir/home" \
    ANTHROPIC_BASE_URL=http://127.0.0.1:$CLAUDE_PORT ANTHROPIC_API_KEY=sk-ant-mock \
    DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    timeout 180 "$NODE/claude" -p "$PROMPT" --mcp-config "$dir/mcp.json" --strict-mcp-config \
    --allowedTools mcp__hiveterm \
    --output-format stream-json --verbose >"$dir/stream.jsonl" 2>"$dir/stderr.txt") || status=$?
  kill "$mock" 2>/dev/null || true
  wait "$mock" 2>/dev/null || true
  [ $status = 0 ] || { echo "claude exited $status: $(tail -c 600 "$dir/stderr.txt")" >&2; return 1; }
  python3 - "$dir" "$SESSION" <<'PY'
import json, sys
folder, session = sys.argv[1:]
names = {"mcp__hiveterm__search": "search", "mcp__hiveterm__session_summary": "session_summary",
         "ReadMcpResourceTool": "resource"}
def text(content):
    if isinstance(content, str):
        return content
    return "".join(text(c.get("text", c.get("content", ""))) for c in content or [])
def results(messages):
    calls, out = {}, {}
    for m in messages:
        for b in m["content"] if isinstance(m.get("content"), list) else []:
            if b.get("type") == "tool_use" and b.get("name") in names:
                calls[b["id"]] = names[b["name"]]
            elif b.get("type") == "tool_result" and b.get("tool_use_id") in calls:
                out[calls[b["tool_use_id"]]] = (b.get("is_error"), text(b.get("content")))
    return out
# What the CLI printed (stream-json: its user messages carry the tool results) ...
printed = [json.loads(l)["message"] for l in open(folder + "/stream.jsonl")
           if json.loads(l).get("type") in ("assistant", "user")]
# ... and what reached the model: the main conversation's requests to the scripted model.
sent = [json.loads(l) for l in open(folder + "/requests.jsonl")]
sent = [r for r in sent if r["main"]]
last = sent[-1]["body"]["messages"] if sent else []
problems = []
for where, got in (("printed", results(printed)), ("sent to the model", results(last))):
    for tool, expect in (("search", session), ("session_summary", '"agent":"claude-code"'),
                         ("resource", '"agent":"claude-code"')):
        error, body = got.get(tool, (None, ""))
        if tool == "resource" and body.startswith("{"):  # ReadMcpResourceTool: {"contents": […]}
            body = "".join(c.get("text", "") for c in json.loads(body).get("contents", []))
        if error or expect not in body:
            problems.append("%s, %s: %s %.300s" % (where, tool, error, body))
turns = sorted(r["turn"] for r in sent)
if turns[:5] != [0, 1, 2, 3, 4]:
    problems.append("the model was asked turns %s" % turns)
if problems:
    sys.exit("mcp live check failed for claude (%s):\n  %s" % (folder, "\n  ".join(problems)))
print("mcp live check: ok (claude called search and session_summary of hiveterm mcp and read "
      "its resource; the answers reached the model)")
PY
}

rc=0
for agent in $AGENTS; do
  if [ "$agent" = claude ]; then
    run_claude || rc=1
    continue
  fi
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
