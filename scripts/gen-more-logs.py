#!/usr/bin/env python3
"""Writes large logs of the three newer agents' formats for the classify benchmark (issue 47:
"each new format at or under the parse floor in CPU on a generated 100 MB log").

Deterministic (seeded, Python 3 stdlib only): the same arguments give the same bytes. Every
line is a real line the real CLI wrote (fixtures/opencode-1.18.33, qwen-0.24.4,
copilot-1.0.102): the log is a run of whole runs (or session files) of that kind drawn at
random from the fixtures, one after another, as a log of many runs is. Each copy's ids are
made its own (every UUID-like or `ses_`/`msg_`/`prt_`/`call_` id gets a suffix of the copy's
number) so that no two copies share a session, message or call.

Kinds (one file each, into OUT_DIR):
  opencode.stream.jsonl   OpenCode 1.18.33 `opencode run --format json` stdout
  qwen.stream.jsonl       Qwen Code 0.24.4 `--output-format stream-json`
  qwen.session.jsonl      Qwen Code session files (~/.qwen/projects/<p>/chats/<id>.jsonl)
  copilot.stream.jsonl    Copilot CLI 1.0.102 `-p … --output-format json`
  copilot.events.jsonl    Copilot CLI session-state events.jsonl

Usage: scripts/gen-more-logs.py [--mb N] [--seed S] [--out DIR] [--kind K]...
Default: 100 MB of each kind into bench-data/.
"""

import argparse
import glob
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "fixtures")
KINDS = {
    "opencode.stream.jsonl": ("opencode-1.18.33", "*.stream.jsonl"),
    "qwen.stream.jsonl": ("qwen-0.24.4", "*.stream.jsonl"),
    "qwen.session.jsonl": ("qwen-0.24.4", "*.session.jsonl"),
    "copilot.stream.jsonl": ("copilot-1.0.102", "*.stream.jsonl"),
    "copilot.events.jsonl": ("copilot-1.0.102", "*.events.jsonl"),
}
# Ids a copy makes its own: UUIDs and OpenCode's prefixed ids.
IDS = re.compile(
    rb"\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8})[0-9a-f]{4}\b"
    rb"|\b((?:ses|msg|prt|call|toolu)_[0-9A-Za-z]{6,})"
)


def copy_of(lines, n):
    tag = b"%04x" % (n % 0x10000)

    def sub(m):
        if m.group(1):
            return m.group(1) + tag
        return m.group(2) + b"x" + b"%d" % n

    return [IDS.sub(sub, line) for line in lines]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "bench-data"))
    ap.add_argument("--kind", action="append", choices=sorted(KINDS))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for kind in args.kind or sorted(KINDS):
        folder, pattern = KINDS[kind]
        runs = []
        for path in sorted(glob.glob(os.path.join(FIX, folder, pattern))):
            with open(path, "rb") as f:
                lines = [l if l.endswith(b"\n") else l + b"\n" for l in f if l.strip()]
            if lines:
                runs.append(lines)
        rng = random.Random(args.seed)
        target = int(args.mb * 1_000_000)
        out = os.path.join(args.out, kind)
        size, n = 0, 0
        with open(out, "wb") as f:
            while size < target:
                for line in copy_of(rng.choice(runs), n):
                    f.write(line)
                    size += len(line)
                n += 1
        print(f"{out}: {size / 1e6:.1f} MB, {n} runs of {len(runs)} real ones")


if __name__ == "__main__":
    main()
