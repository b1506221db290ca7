#!/usr/bin/env python3
"""Writes the hostile logs: lines that are not JSON, not UTF-8, too deep, too long, of the
wrong shape. The small ones are committed next to this script (regenerate on purpose with
`python3 classifier/tests/hostile/gen.py classifier/tests/hostile --small`); the big ones
(50 MB lines, a line over the 64 MiB limit) are written only on demand:

    cargo build --release -p hiveterm
    python3 classifier/tests/hostile/gen.py target/hostile
    python3 checks/conformance.py target/release/hiveterm target/hostile --hostile

usage: gen.py DIR [--small]
"""
import json
import os
import sys

MB = 1024 * 1024


def j(v):
    return json.dumps(v, separators=(",", ":")).encode()


def assistant(content):
    return j({"type": "assistant", "message": {"role": "assistant", "content": content}})


def user(content):
    return j({"type": "user", "message": {"role": "user", "content": content}})


TOOL_USE = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}

SMALL = {
    "syntax": [
        b"{",
        b"}",
        b'{"type":"assistant"',
        b'{"type":"assistant",}',
        b"not json at all",
        b"[1,2,,3]",
        b"{'single':'quotes'}",
        b'{"a":1}{"b":2}',
        b'{"a":1} trailing',
        b'{"n":NaN}',
        b'{"n":Infinity}',
        b'{"n":1e400}',
        b'{"n":-}',
        b'"unterminated',
        b"\x0c{}",
        b"null",
        b"42",
        b'"a string"',
        b"[]",
        b"{}",
    ],
    "encoding": [
        b'{"type":"assistant","message":{"content":"\xff\xfe"}}',
        b"\xff\xfe\xfd",
        b'{"text":"\xc3"}',
        b'{"text":"\xed\xa0\x80"}',  # a surrogate encoded as UTF-8 (CESU): invalid
        b'{"text":"\\ud800"}',  # lone leading surrogate escape
        b'{"text":"\\udc00 trailing"}',
        b'{"type":"assistant","message":{"content":[{"type":"text","text":"\\ud83d"}]}}',
        b"\xef\xbb\xbf" + assistant([{"type": "text", "text": "after a BOM"}]),
        b"\xef\xbb\xbf",
        b"\xef\xbb\xbf\xef\xbb\xbf{}",
        b"\x00",
        b'{"type":"assistant"\x00}',
        b'{"text":"nul \x00 raw"}',
        j({"type": "assistant", "message": {"content": [{"type": "text", "text": "nul \u0000 escaped \u001b[31m red"}]}}),
        b"\x1b[31m{}\x1b[0m",
        b'{"type":"assistant"}\r',
        b'{"type":"assistant"}\r\r',
        b"\r{}",
        "\u2028{}".encode(),
        j({"type": "assistant", "message": {"content": [{"type": "text", "text": "line\u2028sep\u0085nel"}]}}),
    ],
    "deep": [
        b"[" * 10000,
        b"{\"a\":" * 5000,
        b"[" * 127 + b"]" * 127,
        b"[" * 128 + b"]" * 128,
        b"[" * 129 + b"]" * 129,
        j({"type": "assistant", "message": {"content": json.loads("[" * 100 + "]" * 100)}}),
        b'{"type":"assistant","message":{"content":[{"type":"text","text":"x","extra":' + b"[" * 120 + b"]" * 120 + b"}]}}",
        b'{"kind":"stream","value":' + b"[" * 125 + b"]" * 125 + b"}",
        assistant([{"type": "tool_use", "id": "t", "name": "Bash", "input": json.loads("[" * 110 + "]" * 110)}]),
    ],
    "shapes": [
        j({"type": "no_such_type"}),
        j({"type": 5}),
        j({"type": None}),
        j({"type": ["assistant"]}),
        j({"kind": "no_such_kind"}),
        j({"kind": 7}),
        j({"kind": "turn_start", "from": 5, "body": []}),
        j({"kind": "turn_end", "ok": "yes"}),
        j({"kind": "note", "text": None}),
        j({"kind": "stream", "value": None}),
        j({"kind": "stream", "value": "text"}),
        j({"kind": "stream", "value": {"type": "assistant", "message": None}}),
        j({"type": "assistant"}),
        j({"type": "assistant", "message": None}),
        j({"type": "assistant", "message": "text"}),
        j({"type": "assistant", "message": {"content": "a plain string"}}),
        j({"type": "assistant", "message": {"content": ["a", 1, None, True]}}),
        j({"type": "assistant", "message": {"content": None}}),
        j({"type": "assistant", "message": {"content": 42}}),
        j({"type": "assistant", "message": {"content": [{"type": "text", "text": 5}]}}),
        j({"type": "assistant", "message": {"content": [{"type": "thinking", "thinking": ["x"]}]}}),
        j({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": "a", "name": "Bash", "input": "ls -la"}]}}),
        j({"type": "assistant", "message": {"content": [{"type": "tool_use", "id": 5, "name": None, "input": None}]}}),
        j({"type": "assistant", "message": {"content": [{"type": "tool_use"}]}}),
        j({"type": "assistant", "message": {"content": [{"type": "no_such_block"}]}}),
        j({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "never_called", "content": "early"}]}}),
        j({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": 42}]}}),
        j({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": None, "content": None, "is_error": "yes"}]}}),
        j({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "image"}, 5, None]}]}}),
        assistant([TOOL_USE]),
        j({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": {"weird": True}}]}}),
        j({"type": "user", "message": {"content": 3.5}}),
        j({"type": "system", "subtype": 5}),
        j({"type": "system", "subtype": "api_retry", "attempt": "x", "max_retries": None}),
        j({"type": "system", "subtype": "compact_boundary", "compact_metadata": "x"}),
        j({"type": "system", "subtype": "no_such_subtype"}),
        j({"type": "result", "subtype": "success", "result": 5}),
        j({"type": "stream_event", "event": "x"}),
        j({"type": "summary", "summary": None}),
        j({"type": "assistant", "message": {"content": [{"type": "text", "text": "<script>alert(1)</script> ![p](https://t.example/p.gif)"}]}}),
    ],
    "blank": [
        b"",
        b"   ",
        b"\t",
        b"\r",
        j({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "x", "content": "after blanks"}]}}),
        b" \t \r",
    ],
}


def big(out):
    """The 50 MB cases; each file is written in pieces, never held whole."""
    text = b"x" * (50 * MB)
    with open(os.path.join(out, "big_text.jsonl"), "wb") as f:
        f.write(b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"')
        f.write(text)
        f.write(b'"}]}}\n')
        f.write(assistant([{"type": "text", "text": "the line after"}]) + b"\n")
    with open(os.path.join(out, "big_tool_result.jsonl"), "wb") as f:
        f.write(assistant([TOOL_USE]) + b"\n")
        f.write(b'{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"')
        f.write(b"line\\n" * (50 * MB // 6))
        f.write(b'"}]}}\n')
    with open(os.path.join(out, "big_garbage.jsonl"), "wb") as f:
        chunk = bytes((i * 131 + 7) % 256 for i in range(MB)).replace(b"\n", b" ")
        for _ in range(50):
            f.write(chunk)
        f.write(b"\n{}\n")
    with open(os.path.join(out, "over_limit.jsonl"), "wb") as f:
        f.write(assistant([{"type": "text", "text": "before"}]) + b"\n")
        f.write(b'{"type":"assistant","message":{"content":[{"type":"text","text":"')
        for _ in range(65):
            f.write(b"y" * MB)
        f.write(b'"}]}}\n')
        f.write(assistant([{"type": "text", "text": "after"}]) + b"\n")
    with open(os.path.join(out, "many_lines.jsonl"), "wb") as f:
        for i in range(100000):
            f.write(b"{" if i % 2 else b"[" * 200)
            f.write(b"\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, lines in SMALL.items():
        with open(os.path.join(out, name + ".jsonl"), "wb") as f:
            f.write(b"\n".join(lines))  # no newline after the last line: a truncated tail
    with open(os.path.join(out, "crlf.jsonl"), "wb") as f:
        for line in SMALL["shapes"][:10]:
            f.write(line + b"\r\n")
    if "--small" not in sys.argv:
        big(out)


if __name__ == "__main__":
    main()
