#!/usr/bin/env python3
"""Writes a Gemini CLI stream-json log of long answers (JSONL) for the speed figures.

usage: gen-gemini-answers.py OUT [MB] [--one-paragraph]   (default 154 MB)

Each run is what `gemini -o stream-json` prints for one prompt answered at length: `init`, the
user's `message`, the answer as assistant `message` deltas of 24 bytes (`"delta":true`), and
`result` with its stats; runs repeat until the next would pass MB, so the log ends after a
whole run. The answer is about 8 KB of markdown: paragraphs of about 400 bytes between blank
lines, or with --one-paragraph a single paragraph with no blank line (a long code block or
paragraph: the shape where the growing row, written whole at each delta, is longest).
Seeded: the same arguments write the same bytes.
"""
import json
import random
import sys

WORDS = (
    "the agent reads a file then edits it and runs the tests again before it answers "
    "with a table of what changed and why each `step` was needed"
).split()
ANSWER_BYTES = 8000
PARAGRAPH_BYTES = 400
DELTA_BYTES = 24


def line(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def answer(rng, one_paragraph):
    text = ""
    while len(text) < ANSWER_BYTES:
        para = ""
        while len(para) < PARAGRAPH_BYTES:
            para += rng.choice(WORDS) + " "
        text += para.rstrip() + (" " if one_paragraph else "\n\n")
    return text[:ANSWER_BYTES]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    one_paragraph = "--one-paragraph" in sys.argv[1:]
    out = args[0]
    target = int(float(args[1]) * 1e6) if len(args) > 1 else 154_000_000
    rng = random.Random(7)
    written, runs = 0, 0
    with open(out, "w", encoding="utf-8") as f:
        while True:
            n = runs

            def ts(k):
                return "2026-12-02T%02d:%02d:%02d.%03dZ" % (10 + n // 3600 % 10, n // 60 % 60, n % 60, k % 1000)

            text = answer(rng, one_paragraph)
            lines = [
                line({"type": "init", "timestamp": ts(0), "session_id": "s%d" % n, "model": "gemini-2.5-pro"}),
                line({"type": "message", "timestamp": ts(1), "role": "user", "content": "[%d] Summarise the project in detail." % n}),
            ]
            for i in range(0, len(text), DELTA_BYTES):
                lines.append(line({
                    "type": "message", "timestamp": ts(2 + i // DELTA_BYTES), "role": "assistant",
                    "content": text[i:i + DELTA_BYTES], "delta": True,
                }))
            lines.append(line({
                "type": "result", "timestamp": ts(999), "status": "success",
                "stats": {"total_tokens": 9000, "input_tokens": 1000, "output_tokens": 8000, "duration_ms": 4000, "tool_calls": 0},
            }))
            block = "\n".join(lines) + "\n"
            if written + len(block.encode("utf-8")) > target:
                break
            f.write(block)
            written += len(block.encode("utf-8"))
            runs += 1
    shape = "one paragraph" if one_paragraph else "paragraphs"
    print(f"wrote {written} bytes, {runs} answers ({shape}), to {out}")


if __name__ == "__main__":
    main()
