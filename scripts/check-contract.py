#!/usr/bin/env python3
"""One contract between the server and its page (issue 52): every answer of the server, every
SSE frame, share and note is a type of the `contract` crate, written by the server with serde
and read by the page with serde. This fails when

  - `json!(` builds JSON in the server's code (`server/src/`, test code left out) outside the
    files of ALLOWED_JSON, each allowed for a reason: what it builds is not an answer (a log
    line the server writes itself, a request it sends, the MCP protocol's own shapes);
  - `.get("…")` (or `.pointer("…")`) reads JSON by hand in the page's code (`app/src/`, test
    code left out), unless the line says why with a `// contract-check: <reason>` comment
    (JSON that is not a server answer: an agent's own object the server passes through).

Test code is left out: inline `#[cfg(test)]` modules and files that are test modules
(`check-file-size.py`'s reading). Comments and strings are out before matching
(`rust_source.strip`), so a doc line naming `json!` is not code.

Usage: scripts/check-contract.py [ROOT]   (`--self-test` checks it on synthetic files first).
"""
import importlib.util
import io
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from rust_source import rust_files, strip  # noqa: E402

_spec = importlib.util.spec_from_file_location("check_file_size", os.path.join(HERE, "check-file-size.py"))
_size = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_size)

# Server files where `json!` may build JSON, and why (paths relative to server/src/).
ALLOWED_JSON = {
    "ingest/lines.rs": "the harness lines `run`/`--stdin` write into the log itself (events, not answers)",
    "ingest/run.rs": "the harness lines `hiveterm run` writes into the log (turn start/end, notes)",
    "ingest/opencode.rs": "OpenCode's store read back as the log lines its `export` writes (events)",
    "forward/outbox.rs": "the hyperhive `note` line `--to URL` posts in place of an over-long line",
    "mcp/tools.rs": "the MCP tools' input JSON Schemas (the protocol's, not the HTTP API's)",
    "mcp/answer.rs": "MCP tool results: the contract's answers as JSON values, cut to a size "
                     "with MCP's own cursors, and session_rows' own object",
}

JSON_MACRO = re.compile(r"\bjson!\s*\(")
HAND_READ = re.compile(r'\.(get|pointer)\(\s*""')
MARK = "contract-check:"


def test_lines(text):
    """Line indexes (0-based) inside inline #[cfg(test)] modules."""
    lines = text.split("\n")
    code = strip(text, keep_strings=True).split("\n")
    out = set()
    i = 0
    while i < len(lines):
        if _size.CFG_TEST.match(code[i]):
            j = i + 1
            while j < len(lines) and (code[j].lstrip().startswith("#[") or not code[j].strip()):
                j += 1
            m = _size.MOD_OPEN.match(code[j]) if j < len(lines) else None
            if m:
                k = j + 1
                while k < len(lines) and code[k].rstrip() != m.group(1) + "}":
                    k += 1
                out.update(range(i, k + 1))
                i = k + 1
                continue
        i += 1
    return out


def scan(src_dir, pattern, allowed_files=None, marked_ok=False):
    """(path, line number, line) of every match of `pattern` in non-test code under
    `src_dir`, but in `allowed_files` (relative paths) or on a line carrying MARK."""
    hits = []
    skip = _size.test_only_files(src_dir)
    for path, text in rust_files(src_dir):
        path = os.path.normpath(path)
        rel = os.path.relpath(path, src_dir)
        if path in skip or (allowed_files and rel in allowed_files):
            continue
        tests = test_lines(text)
        raw = text.split("\n")
        for i, line in enumerate(strip(text).split("\n")):
            if i in tests or not pattern.search(line):
                continue
            if marked_ok and MARK in raw[i] and raw[i].split(MARK, 1)[1].strip():
                continue
            hits.append((path, i + 1, raw[i].strip()))
    return hits


def check(root, out=sys.stderr):
    server = os.path.join(root, "server", "src")
    app = os.path.join(root, "app", "src")
    bad = False
    used = {os.path.relpath(p, server) for p, _, _ in scan(server, JSON_MACRO)}
    for rel in ALLOWED_JSON:
        if rel not in used:
            print(f"check-contract: ALLOWED_JSON names {rel}, which builds nothing with json! "
                  "(or is gone): take it out", file=out)
            bad = True
    for path, n, line in scan(server, JSON_MACRO, ALLOWED_JSON):
        print(f"{path}:{n}: json! in the server: answer with a contract type ({line})", file=out)
        bad = True
    for path, n, line in scan(app, HAND_READ, marked_ok=True):
        print(f"{path}:{n}: JSON read by hand in the page: deserialize a contract type ({line})",
              file=out)
        bad = True
    return not bad


def self_test():
    quiet = io.StringIO()
    with tempfile.TemporaryDirectory() as d:
        def w(rel, text):
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)
        for rel in ALLOWED_JSON:
            w("server/src/" + rel, "fn f() { json!({}); }\n")
        w("server/src/lib.rs", "//! json!( in a doc\nfn ok() { let s = \"json!(\"; }\n"
          "#[cfg(test)]\nmod tests {\n    fn t() { serde_json::json!({}); }\n}\n"
          "#[cfg(test)]\nmod more;\n")
        w("server/src/more.rs", "fn t() { json!(1); }\n")
        w("app/src/lib.rs", "fn f(v: &Value) { v.get(\"name\"); } // contract-check: an agent's object\n"
          "fn g(m: &Map) { m.get(&k); }\n")
        assert check(d, quiet), "clean tree"
        w("server/src/api.rs", "fn a() -> Value {\n    serde_json::json!({\"x\": 1})\n}\n")
        assert not check(d, quiet), "json! in an answer"
        os.remove(os.path.join(d, "server/src/api.rs"))
        w("app/src/wire.rs", "fn b(v: &Value) { v.get( \"title\" ); }\n")
        assert not check(d, quiet), ".get(\"…\") in the page"
        w("app/src/wire.rs", "fn b(v: &Value) { v.get(\"title\"); } // contract-check:\n")
        assert not check(d, quiet), "a mark without a reason"
        w("app/src/wire.rs", "fn b(v: &Value) { v.pointer(\"/turn\"); }\n")
        assert not check(d, quiet), ".pointer(\"…\") in the page"
        os.remove(os.path.join(d, "app/src/wire.rs"))
        os.remove(os.path.join(d, "server/src/mcp/tools.rs"))
        assert not check(d, quiet), "an allowed file that is gone"
        w("server/src/mcp/tools.rs", "#[cfg(test)]\nmod tests {\n    fn t() { json!(1); }\n}\n")
        assert not check(d, quiet), "an allowed file with json! in its tests only"
    print("check-contract: self-test ok", file=sys.stderr)


def main(argv):
    if argv[1:2] == ["--self-test"]:
        self_test()
        return 0
    root = argv[1] if len(argv) > 1 else os.path.join(HERE, "..")
    if not check(root):
        print("check-contract: the server answers and the page reads through contract/ (issue 52)",
              file=sys.stderr)
        return 1
    print("check-contract: ok (server answers without json!, page reads without .get(\"…\"))")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
