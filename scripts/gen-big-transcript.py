#!/usr/bin/env python3
"""Writes a large, realistic Claude Code transcript for the classify benchmark.

Deterministic (seeded, Python 3 stdlib only): the same arguments give the same bytes on any
machine. The content is modelled on the real transcripts in fixtures/claude-code-2.1.332/:
the same line types and field sets (uuid, parentUuid, sessionId, timestamp, cwd, version,
message.usage, toolUseResult, ...), in the proportions of a long working session:

  - user prompts, compact summaries, task notifications;
  - assistant thinking, markdown text (headings, lists, tables, code fences), tool_use of
    Read / Edit (old/new strings) / Write / Bash / Grep / Glob / Agent / Task* / ToolSearch /
    mcp__* tools, several per message;
  - tool_result: short, long (file contents of several KB, twice: in the result and in
    toolUseResult), occasional 100 KB+ outputs, ANSI-coloured build logs, errors with
    <tool_use_error>, images from MCP tools;
  - bookkeeping: queue-operation, attachment (environment, skill_listing, prompt_snapshot,
    deferred_tools_delta, ...), api-request / api-request-blob / api-request-shape (the big
    nested JSON of tool schemas), last-prompt, tools-used, cost-state, atis-latch, mode;
  - system api_error (retries) and compact_boundary; sub-agent (sidechain) lines.

With --mix tools, a differently mixed log of the same line types: many small tool calls (long
turns of several calls per step, short outputs and inputs, short answers) and few big bodies
(big outputs 10x rarer). With --mix files, a long session whose every Edit and Write touches a
new file (tens of thousands of distinct files changed) and with more subagent calls: the summary's
lists grow with the log. With --mix huge, few lines with huge bodies (reads and outputs of
thousands of lines, 30x more often). The default mix (--mix session) is unchanged, byte for byte.

Usage: scripts/gen-big-transcript.py [--lines N] [--seed S] [--mix session|tools|files|huge]
                                     [--out PATH]
Default: 100,000 lines (about 150 MB) to bench-data/big.transcript.jsonl; other mixes to
bench-data/<mix>.transcript.jsonl.
"""

import argparse
import datetime
import json
import os
import random
import sys
import uuid

VERSION = "2.1.332"
MODEL = "claude-opus-5-5"

WORDS = (
    "the a an to of in for on with and or but not this that it is are was be by as at from "
    "function module crate parser reader buffer line stream event row summary body level icon "
    "server client request response handler router state store session transcript classifier "
    "test fixture golden case error warning panic result option vector string slice byte chunk "
    "index offset length limit cursor window page table column header cell width height value "
    "returns takes builds checks reads writes parses renders escapes trims splits joins sorts "
    "because so then now first next finally instead also only still already just again maybe "
    "fast slow small large empty full new old same other each every all some none any most "
    "config flag option path file directory build release debug profile target feature crate "
    "async await spawn join select timeout retry backoff queue channel sender receiver lock"
).split()
UNICODE_BITS = ["✓", "—", "→", "…", "✅", "🔍", "é", "ü", "½", "≤", "★", "日本語", "Ω"]
TOOLS_ALL = [
    "Agent", "Bash", "Edit", "Glob", "Grep", "Read", "Write", "NotebookEdit", "WebFetch",
    "WebSearch", "TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "ToolSearch", "Skill",
    "mcp__hyperhive__send", "mcp__hyperhive__recv", "mcp__hyperhive__remind",
    "mcp__hyperhive__set_status", "mcp__bash__run", "mcp__bash__status", "mcp__bash__kill",
    "mcp__matrix__send_message", "mcp__github__get_pull_request", "mcp__github__list_issues",
]
MCP_TOOLS = [t for t in TOOLS_ALL if t.startswith("mcp__")]
RUST_KEYWORDS = ["fn", "let", "mut", "pub", "impl", "struct", "enum", "match", "if", "for", "while"]
IDENTS = [
    "reader", "line", "chunk", "ctx", "env", "row", "msgs", "buf", "out", "len", "limit",
    "summary", "body", "level", "icon", "seq", "ts", "value", "event", "tool", "name", "id",
]


class Gen:
    def __init__(self, seed, mix="session"):
        self.rng = random.Random(seed)
        r = self.rng
        # --mix tools: many small tool calls, few big bodies (every change is behind this flag,
        # so the default mix keeps its bytes).
        self.small = mix == "tools"
        # --mix files: a long session whose every edit touches a new file, with more subagent
        # calls (the summary's lists grow with the log: issue 24). --mix huge: few lines, huge
        # bodies (file reads and command outputs of thousands of lines).
        self.many_files = mix == "files"
        self.huge = mix == "huge"
        self.n_new_files = 0
        self.t = datetime.datetime(2026, 11, 30, 2, 15, 0, tzinfo=datetime.timezone.utc)
        self.session = self.uuid()
        self.cwd = "/home/dev/work/hiveterm"
        self.slug = "quiet-harbor-lantern"
        self.parent = None
        self.prompt_index = 0
        self.tool_names = {}
        self.n_tool_ids = 0
        # Pools built once, then sampled: realistic variety at a fraction of the cost.
        self.sentences = [self._sentence() for _ in range(3000)]
        self.code_lines = [self._code_line() for _ in range(4000)]
        self.files = [self._source_file(i) for i in range(400)]
        self.log_lines = [self._log_line() for _ in range(2000)]
        self.tool_descriptions = {
            name: " ".join(r.choice(self.sentences) for _ in range(r.randint(4, 30)))
            for name in TOOLS_ALL
        }
        self.system_prompt = [
            "\n".join(r.choice(self.sentences) for _ in range(r.randint(10, 40)))
            for _ in range(10)
        ]

    # ---- primitives -------------------------------------------------------------------

    def uuid(self):
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def hexid(self, n):
        return "%0*x" % (n, self.rng.getrandbits(4 * n))

    def b58(self, n):
        alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def tick(self, lo=5, hi=4000):
        self.t += datetime.timedelta(milliseconds=self.rng.randint(lo, hi))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (self.t.microsecond // 1000)

    def _sentence(self):
        r = self.rng
        words = [r.choice(WORDS) for _ in range(r.randint(5, 18))]
        if r.random() < 0.15:
            words.insert(r.randrange(len(words)), "`%s`" % r.choice(IDENTS))
        if r.random() < 0.05:
            words.insert(r.randrange(len(words)), r.choice(UNICODE_BITS))
        s = " ".join(words)
        return s[0].upper() + s[1:] + r.choice([".", ".", ".", ":", "?", "!"])

    def _code_line(self):
        r = self.rng
        ind = "    " * r.choice([0, 1, 1, 2, 2, 3])
        kind = r.random()
        a, b, c = r.choice(IDENTS), r.choice(IDENTS), r.choice(IDENTS)
        if kind < 0.25:
            return f"{ind}let {a} = {b}.{c}(&{a}[..{r.randint(1, 999)}]);"
        if kind < 0.4:
            return f"{ind}if {a}.len() > {r.randint(1, 4096)} {{"
        if kind < 0.5:
            return f"{ind}}}"
        if kind < 0.6:
            return f"{ind}// {r.choice(self.sentences) if hasattr(self, 'sentences') else a}"
        if kind < 0.7:
            return f'{ind}{a}.push_str("{b} {c} \\"{r.choice(UNICODE_BITS)}\\"");'
        if kind < 0.8:
            return f"{ind}pub fn {a}_{b}(&mut self, {c}: &[u8]) -> Option<{r.choice(['u64', 'String', 'Row'])}> {{"
        if kind < 0.9:
            return f"{ind}match {a} {{ Some(x) => x, None => return Err(Error::{b.title()}) }},"
        return ""

    def _source_file(self, i):
        r = self.rng
        ext = r.choice(["rs", "rs", "rs", "py", "ts", "md", "toml"])
        d = r.choice(["src", "src/tools", "server/src", "classifier/src", "app/src", "docs", "tests"])
        path = f"{self.cwd}/{d}/{r.choice(IDENTS)}_{i}.{ext}"
        n = r.choice([5, 10, 15, 25, 35, 45, 65, 110])
        lines = [r.choice(self.code_lines) for _ in range(n)]
        return path, lines

    def _log_line(self):
        r = self.rng
        k = r.random()
        if k < 0.3:
            return "\x1b[1m\x1b[32m   Compiling\x1b[0m %s v0.%d.%d" % (r.choice(IDENTS), r.randint(0, 9), r.randint(0, 30))
        if k < 0.5:
            return "test %s::%s_%s ... %s" % (r.choice(IDENTS), r.choice(IDENTS), r.choice(IDENTS), r.choice(["ok", "ok", "ok", "\x1b[31mFAILED\x1b[0m"]))
        if k < 0.6:
            return "\x1b[1m\x1b[33mwarning\x1b[0m\x1b[1m: unused variable: `%s`\x1b[0m" % r.choice(IDENTS)
        if k < 0.8:
            f = r.choice(self.files)[0] if hasattr(self, "files") else "src/lib.rs"
            return "%s:%d:%d: %s" % (f, r.randint(1, 400), r.randint(1, 80), r.choice(self.sentences))
        return r.choice(self.sentences)

    def markdown(self, paragraphs):
        r = self.rng
        out = []
        for _ in range(paragraphs):
            k = r.random()
            if k < 0.15:
                out.append("## " + r.choice(self.sentences).rstrip(".:?!"))
            elif k < 0.35:
                out.append("\n".join("- " + r.choice(self.sentences) for _ in range(r.randint(2, 6))))
            elif k < 0.45:
                lang = r.choice(["rust", "bash", "toml", ""])
                body = "\n".join(r.choice(self.code_lines) for _ in range(r.randint(3, 25)))
                out.append(f"```{lang}\n{body}\n```")
            elif k < 0.52:
                rows = ["| file | lines | status |", "|---|---:|:---:|"]
                for _ in range(r.randint(2, 8)):
                    rows.append("| `%s` | %d | %s |" % (r.choice(self.files)[0].rsplit("/", 1)[1], r.randint(1, 900), r.choice(["✓", "✗", "todo"])))
                out.append("\n".join(rows))
            else:
                out.append(" ".join(r.choice(self.sentences) for _ in range(r.randint(1, 6))))
        return "\n\n".join(out)

    def usage(self):
        r = self.rng
        return {
            "input_tokens": r.randint(1, 400),
            "cache_creation_input_tokens": r.randint(0, 30000),
            "cache_read_input_tokens": r.randint(0, 180000),
            "output_tokens": r.randint(10, 4000),
            "output_tokens_details": {"thinking_tokens": r.randint(0, 2000)},
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "service_tier": "standard",
            "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": r.randint(0, 30000)},
            "inference_geo": "",
            "iterations": [],
            "speed": "standard",
            "fallback_credit": None,
        }

    # ---- envelopes ----------------------------------------------------------------------

    def tail_fields(self, d, sidechain=None):
        d.update({"userType": "external", "entrypoint": "sdk-cli", "cwd": self.cwd,
                  "sessionId": self.session, "version": VERSION, "gitBranch": "main",
                  "slug": self.slug})
        if sidechain:
            d["agentId"] = sidechain
        return d

    def chained(self, d, sidechain=None):
        """A line in the uuid chain: parentUuid, isSidechain first, like the real ones."""
        u = self.uuid()
        head = {"parentUuid": self.parent, "isSidechain": bool(sidechain)}
        head.update(d)
        head["uuid"] = u
        head["timestamp"] = self.tick()
        self.parent = u
        return self.tail_fields(head, sidechain)

    def assistant(self, content, stop_reason, sidechain=None):
        r = self.rng
        msg = {"id": "msg_01" + self.b58(24), "type": "message", "role": "assistant", "model": MODEL,
               "content": content, "stop_reason": stop_reason, "stop_sequence": None,
               "usage": self.usage(), "stop_details": None}
        d = {"message": msg, "apiBlockIndex": r.randint(0, 4),
             "requestId": "req_011" + self.b58(24), "requestRef": self.uuid(),
             "requestedModel": MODEL, "promptCacheRequested": "5m", "type": "assistant"}
        if content and content[0]["type"] == "thinking":
            d["thinkingDurationMs"] = r.randint(10, 20000)
            d["thinkingDisplay"] = "updates"
        if content and content[0]["type"] == "tool_use":
            d["toolInputStreamMs"] = r.randint(1, 900)
        line = self.chained(d, sidechain)
        line.update({"effort": "medium", "perTurnEffort": "medium", "madeBy": "model"})
        return line

    def user_prompt(self, text, extra=None):
        d = {"promptId": self.uuid(), "type": "user", "message": {"role": "user", "content": text}}
        line = self.chained(d)
        line.update({"permissionMode": "bypassPermissions", "promptSource": "sdk",
                     "sentAtMs": int(self.t.timestamp() * 1000), "rowSource": "local",
                     "turnOrigin": "sdk",
                     "turnPosition": {"promptIndex": self.prompt_index, "turnIndex": 1}})
        if extra:
            line.update(extra)
        self.prompt_index += 1
        return line

    def tool_result_line(self, tool_id, content, is_error, tur, sidechain=None):
        source = self.parent
        block = {"tool_use_id": tool_id, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        d = {"promptId": self.uuid(), "type": "user",
             "message": {"role": "user", "content": [block]}, "toolUseResult": tur,
             "sandboxed": False, "sourceToolAssistantUUID": source,
             "permissionDecision": {"decision": "accept", "source": "config", "reasonType": "mode"}}
        return self.chained(d, sidechain)

    def attachment(self, att, rendered=None, role="system"):
        d = {"attachment": att, "type": "attachment"}
        line = self.chained(d)
        if rendered is not None:
            line["rendered"] = [{"content": "<system-reminder>\n" + rendered + "\n</system-reminder>"}]
            line["renderedRole"] = role
        return line

    # ---- tools ------------------------------------------------------------------------

    def new_tool_id(self, name):
        self.n_tool_ids += 1
        tid = "toolu_01" + self.b58(22)
        self.tool_names[tid] = name
        return tid

    def tool_call(self):
        """One tool_use block and a function producing its result line content."""
        r = self.rng
        weights = [30, 22, 16, 9, 5, 4, 1.5, 6, 4, 1, 1.5]
        if self.many_files:
            weights = [22, 18, 30, 6, 3, 8, 3, 4, 3, 1, 1]
        name = r.choices(
            ["Bash", "Read", "Edit", "Grep", "Glob", "Write", "Agent", "mcp", "Task", "ToolSearch", "WebFetch"],
            weights=weights)[0]
        path, lines = r.choice(self.files)
        if self.many_files and name in ("Edit", "Write"):
            self.n_new_files += 1
            k = self.n_new_files
            path = "%s/crates/c%03d/src/m%d/%s_%d.rs" % (self.cwd, k % 997, k % 89, r.choice(IDENTS), k)
        big = r.random() < (0.004 if not self.huge else 0.12)
        if self.small:
            big = big and r.random() < 0.1
            lines = lines[: r.choice([1, 2, 3, 5, 8])]
        if name == "Bash":
            cmd = r.choice(["cargo test -p classifier", "cargo build --release", "git status --short",
                            "ls -la " + path.rsplit("/", 1)[0], "rg -n 'TODO' .", "cat " + path,
                            "cargo clippy --workspace -- -D warnings 2>&1 | tail -40"])
            inp = {"command": cmd, "description": r.choice(self.sentences)[:60]}
            if r.random() < 0.1:
                inp["timeout"] = 600000
            n = r.choice([0, 1, 1, 2, 4, 8, 15, 40]) if not big else r.randint(500, 1200) * (4 if self.huge else 1)
            if self.small and not big:
                n = r.choice([0, 0, 1, 1, 1, 2, 3])
            out = "\n".join(r.choice(self.log_lines) for _ in range(n))
            if r.random() < 0.08:
                code = r.choice([1, 2, 101])
                text = f"Exit code {code}\n{out}"
                return name, inp, text, True, "Error: " + text
            return name, inp, out, False, {"stdout": out, "stderr": "", "interrupted": False,
                                           "isImage": False, "noOutputExpected": n == 0}
        if name == "Read":
            inp = {"file_path": path}
            if r.random() < 0.05:
                return name, inp, "File does not exist. Note: your current working directory is " + self.cwd + ".", True, \
                    "Error: File does not exist."
            if big:
                lines = [r.choice(self.code_lines) for _ in range(r.randint(1200, 2500) * (4 if self.huge else 1))]
            numbered = "\n".join(f"{i + 1}\t{ln}" for i, ln in enumerate(lines))
            content = "\n".join(lines)
            return name, inp, numbered, False, {"type": "text", "file": {
                "filePath": path, "content": content, "numLines": len(lines), "startLine": 1,
                "totalLines": len(lines)}}
        if name == "Edit":
            i = r.randrange(len(lines))
            j = min(len(lines), i + r.randint(1, 8))
            old = "\n".join(lines[i:j])
            new_lines = [r.choice(self.code_lines) for _ in range(r.randint(1, 10))]
            new = "\n".join(new_lines)
            inp = {"replace_all": False, "file_path": path, "old_string": old, "new_string": new}
            if r.random() < 0.07:
                text = "<tool_use_error>String to replace not found in file.\nString: " + old + "</tool_use_error>"
                return name, inp, text, True, "Error: String to replace not found in file.\nString: " + old
            patch = [{"oldStart": i + 1, "oldLines": j - i, "newStart": i + 1, "newLines": len(new_lines),
                      "lines": [" " + x for x in lines[max(0, i - 3):i]] + ["-" + x for x in lines[i:j]]
                      + ["+" + x for x in new_lines] + [" " + x for x in lines[j:j + 3]]}]
            text = f"The file {path} has been updated successfully. (file state is current in your context — no need to Read it back)"
            return name, inp, text, False, {"filePath": path, "oldString": old, "newString": new,
                                            "originalFile": "\n".join(lines), "structuredPatch": patch,
                                            "userModified": False, "replaceAll": False}
        if name == "Write":
            body = "\n".join(r.choice(self.code_lines) for _ in range(r.randint(10, 150)))
            inp = {"file_path": path, "content": body}
            text = f"File created successfully at: {path} (file state is current in your context — no need to Read it back)"
            return name, inp, text, False, {"type": "create", "filePath": path, "content": body,
                                            "structuredPatch": [], "originalFile": None, "userModified": False}
        if name == "Grep":
            inp = {"pattern": r.choice(IDENTS) + r.choice(["", "\\(", "_[a-z]+"]), "output_mode": "content", "-n": True}
            hits = "\n".join("%s:%d:%s" % (r.choice(self.files)[0], r.randint(1, 400), r.choice(self.code_lines).strip())
                             for _ in range(r.choice([0, 2, 5, 12, 30])))
            return name, inp, hits or "No matches found", False, {"mode": "content", "numFiles": 0, "filenames": [],
                                                                  "content": hits, "numLines": hits.count("\n") + 1}
        if name == "Glob":
            inp = {"pattern": "**/*." + path.rsplit(".", 1)[1]}
            names = [r.choice(self.files)[0] for _ in range(r.randint(1, 30))]
            return name, inp, "\n".join(names), False, {"filenames": names, "durationMs": r.randint(3, 200),
                                                        "numFiles": len(names), "truncated": False}
        if name == "Agent":
            agent = self.hexid(17)
            inp = {"description": "Survey " + r.choice(IDENTS), "subagent_type": r.choice(["general-purpose", "Explore"]),
                   "prompt": self.markdown(2)}
            text = [{"type": "text", "text": "Async agent launched successfully. agentId: %s (internal metadata)" % agent}]
            return name, inp, text, False, {"isAsync": True, "status": "async_launched", "agentId": agent,
                                            "description": inp["description"], "resolvedModel": MODEL,
                                            "prompt": inp["prompt"], "outputFile": f"/tmp/cc/tasks/{agent}.output",
                                            "canReadOutputFile": True, "canContinueAgent": True}
        if name == "mcp":
            name = r.choice(MCP_TOOLS)
            inp = {"to": r.choice(["alice", "bob"]), "body": r.choice(self.sentences)} if "send" in name else {"id": "j-%d" % r.randint(1000, 9999)}
            if r.random() < 0.1:
                return name, inp, "no such job: " + str(inp.get("id")), True, "Error: no such job"
            content = [{"type": "text", "text": "\n".join(r.choice(self.sentences) for _ in range(r.randint(1, 12)))}]
            if r.random() < 0.1:
                content.append({"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                            "data": self.b58(r.randint(200, 6000))}})
            return name, inp, content, False, content
        if name == "Task":
            name = r.choice(["TaskCreate", "TaskUpdate"])
            if name == "TaskCreate":
                inp = {"subject": r.choice(self.sentences)[:50], "description": r.choice(self.sentences), "activeForm": "Working"}
                return name, inp, "Task #%d created successfully: %s" % (r.randint(1, 40), inp["subject"]), False, {"task": {"id": "1", "subject": inp["subject"]}}
            inp = {"taskId": str(r.randint(1, 40)), "status": r.choice(["in_progress", "completed"])}
            return name, inp, "Updated task #%s status" % inp["taskId"], False, {"success": True, "taskId": inp["taskId"], "updatedFields": ["status"]}
        if name == "ToolSearch":
            inp = {"query": "select:" + ",".join(MCP_TOOLS[:5])}
            refs = [{"type": "tool_reference", "tool_name": t} for t in MCP_TOOLS[:5]]
            return name, inp, refs, False, {"matches": MCP_TOOLS[:5], "query": inp["query"], "total_deferred_tools": 19}
        inp = {"url": "https://docs.rs/" + r.choice(IDENTS), "prompt": r.choice(self.sentences)}
        if r.random() < 0.3:
            return name, inp, "<tool_use_error>Unable to verify if domain is safe to fetch.</tool_use_error>", True, "Error: Unable to verify"
        return name, inp, self.markdown(6), False, {"bytes": r.randint(1000, 90000), "code": 200, "codeText": "OK", "result": "ok"}

    # ---- bookkeeping --------------------------------------------------------------------

    def api_request_shape(self):
        r = self.rng
        tools = []
        for name in TOOLS_ALL:
            props = {}
            for k in r.sample(IDENTS, r.randint(1, 7)):
                p = {"description": r.choice(self.sentences), "type": r.choice(["string", "integer", "boolean"])}
                if r.random() < 0.2:
                    p["enum"] = r.sample(WORDS, 4)
                props[k] = p
            tools.append({"name": name, "description": self.tool_descriptions[name],
                          "input_schema": {"$schema": "https://json-schema.org/draft/2020-12/schema",
                                           "type": "object", "properties": props,
                                           "required": list(props)[:1], "additionalProperties": False}})
        shape = {"system": [{"type": "text", "text": "You are a Claude agent, built on Anthropic's Claude Agent SDK."}]
                 + [{"type": "text", "text": s} for s in self.system_prompt[:3]], "tools": tools,
                 "messages_prefix": [{"role": "user", "content": [{"type": "text", "text": r.choice(self.sentences)}]}]}
        return {"type": "api-request-shape", "sessionId": self.session, "shapeHash": self.hexid(64),
                "timestamp": self.tick(1, 40), "version": VERSION, "shape": shape}

    def api_request(self):
        r = self.rng
        blob_hash = self.hexid(64)
        text = self.markdown(r.randint(1, 3))
        blob = {"type": "api-request-blob", "sessionId": self.session, "hash": blob_hash,
                "message": {"role": "user", "content": [{"type": "text", "text": text}]}}
        req = {"type": "api-request", "sessionId": self.session, "id": self.uuid(), "timestamp": self.tick(1, 30),
               "version": VERSION, "querySource": "sdk", "shapeHash": self.hexid(64),
               "params": {"model": MODEL, "betas": ["claude-code-20250219", "interleaved-thinking-2025-05-14",
                                                    "context-management-2025-06-27", "per-turn-control-2026-07-01"],
                          "max_tokens": 128000, "thinking": {"type": "adaptive", "display": "updates"},
                          "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]},
                          "output_config": {"effort": "medium"}},
               "thread": {"type": "none"}, "echoWireToolInputs": False, "keep": r.randint(0, 400),
               "tail": [blob_hash, self.hexid(64)],
               "cacheControl": [{"path": ["system", 0], "value": {"type": "ephemeral"}},
                                {"path": ["messages", r.randint(1, 300), "content", 0], "value": {"type": "ephemeral"}}],
               "requestDigest": self.hexid(64)}
        return [blob, req]

    def session_start(self):
        r = self.rng
        out = []
        env = {"type": "environment", "snapshot": {"workingDirectory": self.cwd, "isWorktree": False, "isGitRepo": True,
                                                   "additionalWorkingDirectories": [], "platform": "linux",
                                                   "shell": "bash", "osVersion": "Linux 6.18.44"}}
        out.append(self.attachment(env, "# Environment\n" + "\n".join(r.choice(self.sentences) for _ in range(8))))
        out.append(self.attachment({"type": "model", "identity": {"modelId": MODEL, "marketingName": "Opus 5.5",
                                                                  "knowledgeCutoff": "June 2026"},
                                    "text": "You are powered by the model named Opus 5.5."}, "You are powered by Opus 5.5."))
        out.append(self.attachment({"type": "deferred_tools_delta", "addedNames": MCP_TOOLS, "addedLines": MCP_TOOLS,
                                    "removedNames": [], "wireHiddenNames": [], "readdedNames": [],
                                    "pendingMcpServers": [], "needsAuthMcpServers": [], "failedMcpServers": []},
                                   "The following deferred tools are now available via ToolSearch:\n" + "\n".join(MCP_TOOLS)))
        skills = "\n".join("- %s: %s" % (r.choice(IDENTS), " ".join(r.choice(self.sentences) for _ in range(5))) for _ in range(13))
        out.append(self.attachment({"type": "skill_listing", "content": skills, "skillCount": 13, "isInitial": True,
                                    "names": r.sample(IDENTS, 13), "digests": [self.hexid(16) for _ in range(13)]},
                                   "The following skills are available for use with the Skill tool:\n\n" + skills))
        out.append(self.attachment({"type": "date", "date": self.t.strftime("%Y-%m-%d")}, "Today's date is " + self.t.strftime("%Y-%m-%d") + "."))
        out.append(self.attachment({"type": "prompt_snapshot", "systemPrompt": self.system_prompt, "reminderFold": False,
                                    "echoWireToolInputs": False, "contextRendering": "announced"}))
        out.append({"type": "atis-latch", "atis": "", "sessionId": self.session})
        out.append(self.api_request_shape())
        return out

    def turn(self):
        """One user prompt and the assistant's work on it, with the bookkeeping around it."""
        r = self.rng
        out = []
        prompt = r.choice(self.sentences) if r.random() < 0.7 else self.markdown(r.randint(1, 4))
        out.append({"type": "queue-operation", "operation": "enqueue", "timestamp": self.tick(), "sessionId": self.session, "content": prompt})
        out.append({"type": "queue-operation", "operation": "dequeue", "timestamp": self.tick(1, 20), "sessionId": self.session})
        out.append(self.user_prompt(prompt))
        if r.random() < 0.2:
            out.append(self.attachment({"type": "date", "date": self.t.strftime("%Y-%m-%d")}, "Today's date is " + self.t.strftime("%Y-%m-%d") + "."))
        if r.random() < 0.05:
            out.append(self.attachment({"type": "silent_turn_reminder", "text": r.choice(self.sentences)}, r.choice(self.sentences)))
        sidechain = self.hexid(17) if r.random() < 0.08 else None
        used = set()
        steps = r.choice([1, 2, 3, 4, 6, 8, 12])
        if self.small:
            steps = r.choice([8, 12, 20, 30])
        for step in range(steps):
            if not self.small or r.random() < 0.3:
                out.extend(self.api_request())
            if r.random() < 0.03:
                out.append(self.chained({"type": "system", "subtype": "api_error", "level": "error",
                                         "error": {"message": '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
                                                   "status": 529, "requestId": "req_011" + self.b58(24), "formatted": "529 Overloaded",
                                                   "connection": None, "isNetworkDown": False, "rateLimits": None, "noResponse": None},
                                         "retryInMs": r.randint(200, 9000), "retryAttempt": r.randint(1, 5), "maxRetries": 10,
                                         "source": "request_retry"}))
            if r.random() < 0.35:
                thinking = "\n".join(r.choice(self.sentences) for _ in range(r.randint(1, 12) if not self.small else 1))
                out.append(self.assistant([{"type": "thinking", "thinking": thinking, "signature": self.b58(r.randint(80, 400))}], "tool_use", sidechain))
            if r.random() < (0.45 if not self.small else 0.15) or step == steps - 1:
                out.append(self.assistant([{"type": "text", "text": self.markdown(r.randint(1, 6) if not self.small else 1)}], "end_turn" if step == steps - 1 else "tool_use", sidechain))
            if step == steps - 1:
                break
            calls = [self.tool_call() for _ in range(r.choice([1, 1, 1, 2, 3] if not self.small else [2, 3, 4, 6]))]
            ids = []
            for name, inp, _, _, _ in calls:
                tid = self.new_tool_id(name)
                ids.append(tid)
                used.add(name)
                out.append(self.assistant([{"type": "tool_use", "id": tid, "name": name, "input": inp}], "tool_use", sidechain))
            for tid, (name, inp, content, is_error, tur) in zip(ids, calls):
                out.append(self.tool_result_line(tid, content, is_error, tur, sidechain))
        out.append({"type": "last-prompt", "lastPrompt": prompt[:200], "leafUuid": self.parent, "sessionId": self.session})
        if used:
            out.append({"type": "tools-used", "tools": sorted(used), "sessionId": self.session})
        out.append({"type": "cost-state", "sessionId": self.session, "totalCostUSD": round(r.random() * 40, 4),
                    "totalAPIDuration": r.randint(0, 10**7), "totalAPIDurationWithoutRetries": r.randint(0, 10**7),
                    "totalToolDuration": r.randint(0, 10**6), "totalLinesAdded": r.randint(0, 9000),
                    "totalLinesRemoved": r.randint(0, 9000), "totalDuration": r.randint(0, 10**8),
                    "startTime": 1796004904739, "modelUsage": {MODEL: {"inputTokens": r.randint(0, 10**6), "outputTokens": r.randint(0, 10**6),
                                                                       "cacheReadInputTokens": r.randint(0, 10**8), "costUSD": round(r.random() * 40, 4)}},
                    "hasUnknownModelCost": False})
        if r.random() < 0.1:
            out.append({"type": "mode", "mode": "normal", "sessionId": self.session})
        if r.random() < 0.01:
            out.extend(self.compact())
        return out

    def compact(self):
        r = self.rng
        before = self.parent
        self.parent = None
        line = self.chained({"logicalParentUuid": before, "type": "system", "subtype": "compact_boundary",
                             "content": "Conversation compacted", "isMeta": False, "level": "info",
                             "compactMetadata": {"trigger": r.choice(["manual", "auto"]), "preTokens": r.randint(1000, 180000),
                                                 "durationMs": r.randint(100, 90000), "postTokens": r.randint(1000, 9000),
                                                 "preservedSegment": {"headUuid": before, "anchorUuid": self.uuid(), "tailUuid": before},
                                                 "cumulativeDroppedTokens": 0}})
        summary = self.user_prompt("This session is being continued from a previous conversation.\n\n" + self.markdown(12),
                                   {"isCompactSummary": True, "isVisibleInTranscriptOnly": True})
        return [line, summary] + self.session_start()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--mix", choices=["session", "tools", "files", "huge"], default="session")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.out is None:
        name = "big.transcript.jsonl" if args.mix == "session" else args.mix + ".transcript.jsonl"
        args.out = os.path.join(here, "..", "bench-data", name)
    g = Gen(args.seed, args.mix)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    tmp = args.out + ".part"
    n = 0
    size = 0
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        pending = g.session_start()
        while n < args.lines:
            if not pending:
                pending = g.turn()
            for obj in pending:
                if n >= args.lines:
                    break
                s = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
                f.write(s)
                size += len(s.encode("utf-8"))
                n += 1
            pending = []
    os.replace(tmp, args.out)
    print(f"{args.out}: {n} lines, {size / 1e6:.1f} MB", file=sys.stderr)


if __name__ == "__main__":
    main()
