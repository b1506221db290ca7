#!/usr/bin/env python3
"""Issue 46 items 1 and 9's figures: how `serve --watch` reads hostile logs dropped into its
folder. Prints one line per figure; exits 1 if a target is missed.

  cargo build --release -p hiveterm && scripts/bench-hostile-ingest.py [--bin target/release/hiveterm]

1. A zstd bomb: `--bomb-mb` (1,024) MB of note lines compressed by `zstd` to about 88 KB,
   dropped into the watched folder. Until all its lines are stored (or `--seconds`): the
   server's peak resident memory (VmHWM, target < 512 MB) and the slowest `GET /api/sessions`
   asked every 200 ms (target < 2 s). With `--kill-after S` the server is killed (SIGKILL) S
   seconds in and started again on the same database: it must go on where it stopped (the
   lines stored in the end are the file's, each once) and its peak is measured again.
2. An unterminated last line: a `--line-mb` (300) MB line without its newline, then 1 KB
   more every 250 ms for 20 s: the server's CPU and the bytes it read in those 20 s
   (targets < 2 s, < 64 MB; reading the line again at every look took 17 s and 24 GB).

  --only N[,N…]   runs only those figures
  --db SPEC       the database (a fresh SQLite file by default; a PostgreSQL URL, whose schema
                  must be empty)
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MB = 1024 * 1024


def proc_figure(pid, file, key):
    with open(f"/proc/{pid}/{file}") as f:
        for line in f:
            if line.startswith(key):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """`hiveterm serve --watch DIR` on a free port."""

    def __init__(self, bin_, db, folder):
        cmd = [bin_, "serve", "--db", db, "--addr", "127.0.0.1:0", "--watch", folder]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)
        self.addr = None
        for line in self.proc.stdout:
            if line.startswith("listening on http://"):
                self.addr = line.strip().removeprefix("listening on http://").rstrip("/")
                break
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()
        if self.addr is None:
            raise SystemExit("the server did not start")

    def sessions(self):
        """The index's sessions, and how long the answer took."""
        start = time.monotonic()
        with urllib.request.urlopen(f"http://{self.addr}/api/sessions?limit=100",
                                    timeout=30) as r:
            body = json.load(r)
        return body["sessions"], time.monotonic() - start

    def peak_mb(self):
        return proc_figure(self.proc.pid, "status", "VmHWM:") / 1024

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()


def make_bomb(path, mb):
    """`mb` MB of note lines, compressed by `zstd -19`; answers the number of lines."""
    line = json.dumps({"kind": "note", "ts": 1764468000, "text": "x" * 180}) + "\n"
    per_chunk = MB // len(line)
    chunk = (line * per_chunk).encode()
    lines = per_chunk * mb
    with open(path, "wb") as out:
        z = subprocess.Popen(["zstd", "-19", "-q", "-c"], stdin=subprocess.PIPE, stdout=out)
        for _ in range(mb):
            z.stdin.write(chunk)
        z.stdin.close()
        if z.wait() != 0:
            raise SystemExit("zstd failed")
    return lines


def bomb(args, tmp, db):
    folder = os.path.join(tmp, "bomb")
    os.makedirs(folder)
    made = os.path.join(tmp, "rollout-bomb.jsonl.zst")
    lines = make_bomb(made, args.bomb_mb)
    size = os.path.getsize(made)
    server = Server(args.bin, db, folder)
    worst, peaks, restarted = 0.0, [], False
    started = time.monotonic()
    os.rename(made, os.path.join(folder, "rollout-bomb.jsonl.zst"))
    stored = 0
    try:
        while time.monotonic() - started < args.seconds:
            sessions, took = server.sessions()
            worst = max(worst, took)
            stored = sum(s.get("last_seq") or 0 for s in sessions)
            if stored >= lines:
                break
            if args.kill_after and not restarted and time.monotonic() - started > args.kill_after:
                peaks.append(server.peak_mb())
                server.kill()
                server = Server(args.bin, db, folder)
                restarted = True
            time.sleep(0.2)
        done = time.monotonic() - started
        time.sleep(1)
        sessions, took = server.sessions()
        worst = max(worst, took)
        stored = sum(s.get("last_seq") or 0 for s in sessions)
        peaks.append(server.peak_mb())
        cpu = cpu_seconds(server.proc.pid)
    finally:
        server.kill()
    ok = max(peaks) < 512 and worst < 2 and stored == lines
    print(f"bomb: {size / 1024:.0f} KB of zstd, {args.bomb_mb} MB of {lines:,} lines; "
          f"{stored:,} stored in {done:.0f} s"
          f"{' (killed at %d s and started again)' % args.kill_after if restarted else ''}")
    print(f"bomb: peak RSS {' then '.join(f'{p:.0f}' for p in peaks)} MB (target < 512), "
          f"slowest /api/sessions {worst * 1000:.0f} ms (target < 2000), "
          f"CPU {cpu:.1f} s (the last server) {'ok' if ok else 'MISSED'}")
    return ok


def long_line(args, tmp, db):
    folder = os.path.join(tmp, "long")
    os.makedirs(folder)
    path = os.path.join(folder, "long.jsonl")
    with open(path, "wb") as f:
        f.write(b'{"kind":"note","ts":1764468000,"text":"first"}\n{"kind":"note","text":"')
        block = b"x" * MB
        for _ in range(args.line_mb):
            f.write(block)
    server = Server(args.bin, db, folder)
    try:
        # Start-up reads it once: until a second passes with under 0.1 s of CPU.
        while True:
            sessions, _ = server.sessions()
            if sum(s.get("last_seq") or 0 for s in sessions) >= 1:
                break
            time.sleep(0.1)
        settle = time.monotonic()
        while time.monotonic() - settle < 120:
            before = cpu_seconds(server.proc.pid)
            time.sleep(1)
            if cpu_seconds(server.proc.pid) - before < 0.1:
                break
        cpu0 = cpu_seconds(server.proc.pid)
        read0 = proc_figure(server.proc.pid, "io", "rchar:")
        start = time.monotonic()
        with open(path, "ab") as f:
            while time.monotonic() - start < 20:
                f.write(b"x" * 1024)
                f.flush()
                time.sleep(0.25)
        cpu = cpu_seconds(server.proc.pid) - cpu0
        read = (proc_figure(server.proc.pid, "io", "rchar:") - read0) / MB
    finally:
        server.kill()
    ok = cpu < 2 and read < 64
    print(f"unterminated {args.line_mb} MB line growing 1 KB every 250 ms for 20 s: "
          f"CPU {cpu:.2f} s (target < 2), read {read:.1f} MB (target < 64) "
          f"{'ok' if ok else 'MISSED'}")
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/hiveterm"))
    ap.add_argument("--bomb-mb", type=int, default=1024)
    ap.add_argument("--line-mb", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=900)
    ap.add_argument("--kill-after", type=float)
    ap.add_argument("--only")
    ap.add_argument("--db")
    args = ap.parse_args()
    only = {int(n) for n in args.only.split(",")} if args.only else {1, 2}
    ok = True
    for n, figure in ((1, bomb), (2, long_line)):
        if n not in only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            db = args.db or os.path.join(tmp, "bench.db")
            ok &= figure(args, tmp, db)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
