#!/usr/bin/env python3
"""Issue 46.2 / 45.8: what a log that changed 66,038 files costs the summary.

Writes a Claude Code transcript of 66,038 `Write` calls, each to a new file
(deterministic, 16.6 MB), then with the given `hiveterm`:

1. `hiveterm summary` of it: the text report's bytes (target <= 20,000) and `--json`'s bytes
   and files listed (the whole list), each with the command's peak RSS;
2. the log POSTed to a server on a fresh SQLite database: its checkpoints (how many, their
   bytes: ctx + badges + summary columns), and the summary's `files_changed_more`;
3. a redacted share of the session made and read (state, summary, the newest history page) on
   a freshly started server: how much the server grew (VmRSS after against fresh, and the
   peak).

  scripts/bench-summary-bound.py [--bin target/debug/hiveterm] [--calls 66038]

Prints one line per figure; exits 1 if the text report is over 20,000 bytes.
"""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

attacks = import_module("bench-attacks")
Server, restart, make_share, rss_mb, peak_rss_mb = (
    attacks.Server, attacks.restart, attacks.make_share, attacks.rss_mb, attacks.peak_rss_mb)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_log(path, calls):
    """A transcript: one prompt, then `calls` assistant lines, each a Write to a new file
    (about 260 bytes a call, as the issue's 17 MB log)."""
    t0 = 1_796_000_000

    def ts(i):
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t0 + i // 10)) + f".{i % 10}00Z"

    with open(path, "w") as f:
        f.write(json.dumps({"type": "user", "timestamp": ts(0), "version": "2.1.332",
                            "message": {"role": "user", "content": "Write the files."}}) + "\n")
        for i in range(calls):
            p = f"/home/dev/work/big/src/module_{i // 100:04d}/file_{i:06d}.rs"
            f.write(json.dumps({"type": "assistant", "timestamp": ts(i + 1),
                                "message": {"id": f"msg_{i}", "role": "assistant", "model": "claude-opus-5-5",
                                            "content": [{"type": "tool_use", "id": f"toolu_{i:08d}", "name": "Write",
                                                         "input": {"file_path": p, "content": f"// {i}\n"}}]}}) + "\n")


def run_peak(cmd):
    """Runs `cmd`; its stdout and peak RSS in MB (GNU time's maximum resident set)."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, check=True)
    return out.stdout, int(out.stderr.decode().strip().splitlines()[-1]) / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/debug/hiveterm"))
    ap.add_argument("--calls", type=int, default=66_038)
    a = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "writes.transcript.jsonl")
        write_log(log, a.calls)
        size = os.path.getsize(log) / 1e6
        print(f"log: {a.calls:,} Write calls to new files, {size:.1f} MB")

        text, peak = run_peak([a.bin, "summary", log])
        print(f"summary text: {len(text):,} bytes (target <= 20,000), peak RSS {peak:.0f} MB")
        ok &= len(text) <= 20_000
        js, peak = run_peak([a.bin, "summary", "--json", log])
        listed = len(json.loads(js)["files_changed"])
        print(f"summary --json: {len(js):,} bytes, {listed:,} files listed, peak RSS {peak:.0f} MB")

        server = Server(a.bin, tmp)
        with open(log, "rb") as f:
            data = f.read()
        start = 0
        while start < len(data):
            end = data.rfind(b"\n", start, start + 8_000_000) + 1 or len(data)
            status, body = server.request("POST", "/api/sessions/big/events", data[start:end])
            assert status == 200, (status, body[:200])
            start = end
        status, body = server.request("GET", "/api/sessions/big/summary")
        s = json.loads(body)
        db = sqlite3.connect(server.db)
        n, total = db.execute("SELECT COUNT(*), SUM(LENGTH(ctx) + LENGTH(badges) + LENGTH(summary)) "
                              "FROM checkpoints WHERE session = 'big'").fetchone()
        db.close()
        print(f"checkpoints: {n} of {total / 1e6:.1f} MB ({total / n / 1e3:.1f} KB each); the server's "
              f"summary lists {len(s['files_changed'])} files, files_changed_more {s.get('files_changed_more', 0):,}")

        server = restart(server, a.bin, tmp)
        fresh = rss_mb(server.proc.pid)
        url = make_share(server, "big", {"redact": True})
        for path in ["state", "summary", "events/history?limit=200"]:
            status, _ = server.request("GET", f"{url}/api/{path}")
            assert status == 200, (path, status)
        held = rss_mb(server.proc.pid) - fresh
        peak = peak_rss_mb(server.proc.pid) - fresh
        server.stop()
        print(f"redacted share: made and read (state, summary, newest history page): the server holds "
              f"{held:.0f} MB more than fresh ({fresh:.0f} MB), peak {peak:.0f} MB more")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
