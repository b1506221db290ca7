#!/usr/bin/env python3
"""Writes a big, realistic Gemini CLI chat recording (JSONL) for the speed figure.

usage: gen-gemini-log.py OUT [MB]   (default 100 MB)

It repeats the real recordings of fixtures/gemini-0.61.0/*.session.jsonl (Gemini CLI 0.61.0),
varying what differs from session to session: every message id, tool-call id and session id
gets a fresh one per copy (so a rewritten message still rewrites its own first write, and no
copy's message is taken for another's), timestamps move on, prompts and answers get a copy
number. Metadata, `$set` updates, thoughts, tool calls with results and diffs, and functionResponse
messages keep their real shapes and proportions.
"""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = sorted(glob.glob(os.path.join(HERE, "..", "fixtures", "gemini-0.61.0", "*.session.jsonl")))
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
CALL = re.compile(r"(__[a-z_]+_)(\d{13})(_\d+)")
STAMP = re.compile(r"2026-12-02T14:(\d\d):(\d\d)\.(\d\d\d)Z")


def main():
    out = sys.argv[1]
    target = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 100_000_000
    lines = []
    for path in SRC:
        with open(path, encoding="utf-8") as f:
            lines.extend(l.rstrip("\n") for l in f if l.strip())
    written, copy = 0, 0
    with open(out, "w", encoding="utf-8") as f:
        while written < target:
            copy += 1
            ids = {}

            def fresh(m):
                u = m.group(0)
                if u not in ids:
                    ids[u] = "%08x-%s" % (copy, u[9:])
                return ids[u]

            hour = 10 + (copy // 3600) % 10
            for line in lines:
                line = UUID.sub(fresh, line)
                line = CALL.sub(lambda m: "%s%013d%s" % (m.group(1), int(m.group(2)) + copy, m.group(3)), line)
                line = STAMP.sub(lambda m: "2026-12-%02dT%02d:%s:%s.%sZ" % (3 + copy // 86400 % 20, hour, m.group(1), m.group(2), m.group(3)), line)
                line = line.replace('"text":"', '"text":"[%d] ' % copy, 1) if '"type":"user"' in line and '"functionResponse"' not in line and "session_context" not in line else line
                f.write(line)
                f.write("\n")
                written += len(line.encode("utf-8")) + 1
    print(f"wrote {written} bytes, {copy} copies of {len(lines)} real lines, to {out}")


if __name__ == "__main__":
    main()
