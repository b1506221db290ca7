#!/usr/bin/env python3
"""Writes a large, realistic OpenAI Codex CLI rollout file for the classify benchmark.

Deterministic (seeded, Python 3 stdlib only): the same arguments give the same bytes. Every
line is a real line of the Codex CLI 0.171.0 rollouts in fixtures/codex-0.171.0/
(`*.session.jsonl`), varied: the log is a run of long sessions, each opening as a real one
does (`session_meta`, the developer instructions, `<environment_context>`, `world_state`),
then many turns, each a real turn (`task_started` … `task_complete` / `turn_aborted`: the
prompt, reasoning, messages, `exec_command` calls and outputs, `apply_patch` and code-mode
`exec` calls, their `item_completed` mirrors, `token_usage_record` and `token_count`) drawn at
random from the fixtures. Ids (turn, call, message, item) are fresh per copied turn, times
move forward, `ordinal` counts lines per session, and the running token totals
(`thread_token_usage`, `total_token_usage`) keep growing over the session as Codex's do.

Usage: scripts/gen-codex-log.py [--mb N] [--seed S] [--out PATH]
Default: 100 MB to bench-data/big.codex.jsonl.
"""

import argparse
import glob
import json
import os
import random
import re
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "codex-0.171.0")
TURNS_PER_SESSION = 200
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
CALL = re.compile(r"\b(call_|msg_|rs_|fc_|ctc_|resp_)([0-9A-Za-z]{16,})")
USAGE_KEYS = [
    "input_tokens",
    "cached_input_tokens",
    "cache_write_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "total_tokens",
]


def load():
    """The opening lines of a session and the turns of every fixture rollout."""
    heads, turns = [], []
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*.session.jsonl"))):
        lines = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
        head, turn, in_turn = [], [], False
        for v in lines:
            p = v.get("payload", {})
            if v["type"] == "event_msg" and p.get("type") == "task_started":
                in_turn, turn = True, [v]
                continue
            if not in_turn:
                head.append(v)
                continue
            turn.append(v)
            if v["type"] == "event_msg" and p.get("type") in ("task_complete", "turn_aborted"):
                turns.append(turn)
                in_turn = False
        if head and head[0]["type"] == "session_meta":
            heads.append(head)
    return heads, turns


def session_opening(turn):
    """Whether a turn line is a session's opening (instructions, environment, world state)."""
    p = turn.get("payload", {})
    if turn["type"] in ("world_state", "session_meta"):
        return True
    if turn["type"] == "response_item" and p.get("type") in ("message", "additional_tools"):
        if p.get("role") == "developer":
            return True
        text = "".join(c.get("text", "") for c in p.get("content") or [] if isinstance(c, dict))
        return text.startswith("<environment_context>")
    return False


class Writer:
    def __init__(self, out, rng):
        self.out, self.rng = out, rng
        self.size = 0
        self.clock = 1796220000.0

    def ts(self):
        self.clock += self.rng.uniform(0.01, 1.5)
        t = self.clock
        ms = int((t - int(t)) * 1000)
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(int(t))) + ".%03dZ" % ms

    def session(self, head, turns, threads):
        ordinal = 0
        totals = dict.fromkeys(USAGE_KEYS, 0)
        sid = str(uuid.UUID(int=self.rng.getrandbits(128)))
        for i, turn in enumerate([None] + turns):
            lines = head if turn is None else [v for v in turn if i == 1 or not session_opening(v)]
            # Every fixture's thread id is this session's.
            ids = dict.fromkeys(threads, sid)

            def fresh(m):
                key = m.group(0)
                if key not in ids:
                    if UUID.fullmatch(key):
                        ids[key] = str(uuid.UUID(int=self.rng.getrandbits(128)))
                    else:
                        ids[key] = m.group(1) + "%032x" % self.rng.getrandbits(128)
                return ids[key]

            for v in lines:
                v = json.loads(json.dumps(v))
                v["timestamp"] = self.ts()
                v["ordinal"] = ordinal
                ordinal += 1
                p = v.get("payload", {})
                if v["type"] == "token_usage_record":
                    for k in USAGE_KEYS:
                        totals[k] += (p.get("usage") or {}).get(k, 0)
                    p["thread_token_usage"] = dict(totals)
                if v["type"] == "event_msg" and p.get("type") == "token_count" and p.get("info"):
                    p["info"]["total_token_usage"] = dict(totals)
                text = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
                text = UUID.sub(fresh, text)
                text = CALL.sub(fresh, text)
                self.out.write(text + "\n")
                self.size += len(text.encode("utf-8")) + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "bench-data", "big.codex.jsonl"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    heads, turns = load()
    threads = [h[0]["payload"].get("id", "") for h in heads]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as out:
        w = Writer(out, rng)
        while w.size < args.mb * 1e6:
            head = rng.choice(heads)
            w.session(head, [rng.choice(turns) for _ in range(TURNS_PER_SESSION)], threads)
    print(f"{args.out}: {w.size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
