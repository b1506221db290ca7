#!/usr/bin/env python3
"""A scripted model behind the Anthropic Messages API, for the real Claude Code CLI (stdlib
only, 127.0.0.1 only). `scripts/mcp-live-check.sh` points Claude Code at it with
ANTHROPIC_BASE_URL.

    mock-anthropic.py --script TURNS.json --match TEXT --port PORT --log REQUESTS.jsonl

TURNS.json is a list of the main conversation's turns, each
{"tool_use": {"name": "mcp__hiveterm__search", "input": {...}}} or {"text": "..."}. A request
is of the main conversation when a user message of it holds TEXT (the prompt); its turn is the
number of assistant messages already in its `messages` (stateless: a retry lands on the same
turn).
Any other request (a title, a topic, a quota probe) is answered "ok". `stream: true` is
answered with the API's server-sent events (message_start, content_block_start/delta/stop,
message_delta, message_stop), otherwise with one JSON message. Every request is logged, one
JSON line each: {"path", "main", "turn", "tools", "body"}.
"""
import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "claude-sonnet-4-5"
LOCK = threading.Lock()


def text_of(content):
    """The text of a message's content (a string or blocks; tool results' text too)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(text_of(b.get("text", b.get("content")))
                         for b in content if isinstance(b, dict))
    return ""


def blocks_of(turn, n):
    """The content blocks of a turn (`n` makes the tool_use id)."""
    if "tool_use" in turn:
        call = turn["tool_use"]
        return [{"type": "tool_use", "id": "toolu_mock%02d" % n, "name": call["name"],
                 "input": call.get("input", {})}], "tool_use"
    return [{"type": "text", "text": turn.get("text", "ok")}], "end_turn"


def events(blocks, stop, msg_id):
    usage = {"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0,
             "cache_read_input_tokens": 0}
    yield "message_start", {"type": "message_start", "message": {
        "id": msg_id, "type": "message", "role": "assistant", "model": MODEL, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": dict(usage, output_tokens=1)}}
    for i, b in enumerate(blocks):
        if b["type"] == "tool_use":
            start = dict(b, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": b["text"]}
        yield "content_block_start", {"type": "content_block_start", "index": i,
                                      "content_block": start}
        yield "content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": i}
    yield "message_delta", {"type": "message_delta",
                            "delta": {"stop_reason": stop, "stop_sequence": None},
                            "usage": {"output_tokens": usage["output_tokens"]}}
    yield "message_stop", {"type": "message_stop"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    script = []
    match = ""
    log_path = None
    count = 0

    def log_message(self, fmt, *args):
        sys.stderr.write("[mock-anthropic] %s\n" % (fmt % args))

    def send(self, status, ctype, data):
        self.send_response(status)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", "req_mock")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send(404, "application/json", b'{"type":"error","error":{"type":"not_found_error",'
                                           b'"message":"not here"}}')

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0]
        if path.endswith("/count_tokens"):
            return self.send(200, "application/json", b'{"input_tokens": 100}')
        if not path.endswith("/messages"):
            return self.do_GET()
        tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
        main = any(m.get("role") == "user" and self.match in text_of(m.get("content"))
                   for m in body.get("messages", []))
        turn = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        with LOCK:
            Handler.count += 1
            n = Handler.count
            with open(self.log_path, "a") as f:
                f.write(json.dumps({"path": self.path, "main": main, "turn": turn,
                                    "tools": tools, "body": body}) + "\n")
        if main and turn < len(self.script):
            blocks, stop = blocks_of(self.script[turn], n)
        else:
            blocks, stop = [{"type": "text", "text": "ok"}], "end_turn"
        msg_id = "msg_mock%04d" % n
        if body.get("stream"):
            data = "".join("event: %s\ndata: %s\n\n" % (name, json.dumps(ev))
                           for name, ev in events(blocks, stop, msg_id))
            return self.send(200, "text/event-stream", data.encode())
        message = {"id": msg_id, "type": "message", "role": "assistant", "model": MODEL,
                   "content": blocks, "stop_reason": stop, "stop_sequence": None,
                   "usage": {"input_tokens": 100, "output_tokens": 20}}
        self.send(200, "application/json", json.dumps(message).encode())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--match", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--log", required=True)
    a = ap.parse_args()
    Handler.script = json.load(open(a.script))
    Handler.log_path = a.log
    Handler.match = a.match
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    sys.stderr.write("[mock-anthropic] listening on 127.0.0.1:%d\n" % a.port)
    srv.serve_forever()


if __name__ == "__main__":
    main()
