#!/usr/bin/env python3
"""Issue 9's figures: the release `hiveterm` under each flood, server and attacker on this
machine. Prints one line per figure and exits 1 if a target is missed.

  cargo build --release -p hiveterm && scripts/bench-attacks.py [--bin target/release/hiveterm]

1. A 16 MiB POST of 8 million one-byte lines (refused before storing), then a 16 MB POST of
   999,000 lines (stored in turns), each while another session POSTs one line every 100 ms:
   that session's slowest answer (target < 2 s) and the server's peak RSS (< 512 MB).
2. 1,100 half-open connections (a request head never finished) against a server started with
   `ulimit -Sn 1024`, and again with the hard limit at 1,024 too: how long an ordinary request
   takes from the start of the attack (target < 30 s).
3. 100 events of 3.5 MB, then four concurrent `limit=100` history pages: each page's size
   (target <= 32 MB) and the server's peak RSS (< 600 MB).
4. `serve --follow /dev/zero`: refused at start, or its CPU and RSS in its first 6 s
   (target <= 1.5 s, <= 150 MB).
"""

import argparse
import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MB = 1024 * 1024


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, binary, tmp, prefix=None, args=()):
        self.db = os.path.join(tmp, f"bench-{time.time_ns()}.db")
        cmd = [binary, "serve", "--addr", "127.0.0.1:0", "--db", self.db, *args]
        if prefix:
            cmd = ["sh", "-c", prefix + ' && exec "$0" "$@"', *cmd]
        env = dict(os.environ, HIVETERM_LOG="warn")
        env.pop("HIVETERM_TOKEN", None)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
        for line in self.proc.stdout:
            if line.startswith("listening on http://"):
                host, port = line.split("//")[1].split("/")[0].rsplit(":", 1)
                self.addr = (host, int(port))
                break
        else:
            raise SystemExit("the server did not start")

    def request(self, method, path, body=None, timeout=600):
        c = http.client.HTTPConnection(*self.addr, timeout=timeout)
        headers = {"Content-Type": "application/x-ndjson"} if body is not None else {}
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def note(text):
    return json.dumps({"kind": "note", "text": text}) + "\n"


def other_session_latencies(server, stop, out):
    i = 0
    while not stop.is_set():
        t = time.monotonic()
        status, _ = server.request("POST", "/api/sessions/other/events", note(f"small {i}").encode())
        out.append((time.monotonic() - t, status))
        i += 1
        time.sleep(0.1)


def figure_big_post(binary, tmp, results):
    for name, body in [
        ("8,000,000 one-byte lines (16 MiB)", b"x\n" * (8 * 1024 * 1024)),
        ("999,000 lines of 16 bytes (16 MB)", b'{"n":123456789}\n' * 999_000),
    ]:
        server = Server(binary, tmp)
        server.request("POST", "/api/sessions/other/events", note("start").encode())
        stop, lat = threading.Event(), []
        t = threading.Thread(target=other_session_latencies, args=(server, stop, lat))
        t.start()
        time.sleep(0.5)
        start = time.monotonic()
        status, answer = server.request("POST", "/api/sessions/big/events", body)
        took = time.monotonic() - start
        time.sleep(0.5)
        stop.set()
        t.join()
        rss = peak_rss_mb(server.proc.pid)
        server.stop()
        during = [d for d, _ in lat]
        slowest = max(during)
        failed = sum(1 for _, s in lat if s != 200)
        count = json.loads(answer).get("count") if status == 200 else None
        print(
            f"big POST, {name}: answered {status} in {took:.1f} s (stored {count}); "
            f"another session's {len(lat)} POSTs: slowest {slowest * 1000:.0f} ms, {failed} failed; "
            f"server peak RSS {rss:.0f} MB"
        )
        results.append(("big POST " + name + ": other session slowest < 2 s", slowest < 2 and failed == 0))
        results.append(("big POST " + name + ": RSS < 512 MB", rss < 512))


def figure_slow_clients(binary, tmp, results):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    for label, prefix in [("ulimit -Sn 1024", "ulimit -Sn 1024"), ("ulimit -n 1024 (hard too)", "ulimit -n 1024")]:
        server = Server(binary, tmp, prefix=prefix)
        start = time.monotonic()
        held = []
        for _ in range(1100):
            try:
                s = socket.create_connection(server.addr, timeout=10)
                s.sendall(b"GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held.append(s)
            except OSError:
                pass
        opened = time.monotonic() - start
        status = None
        try:
            status, _ = server.request("GET", "/api/sessions", timeout=60)
        except OSError:
            pass
        answered = time.monotonic() - start
        server.stop()
        for s in held:
            s.close()
        print(
            f"slow clients, server under {label}: {len(held)} half-open connections opened in "
            f"{opened:.1f} s; an ordinary request answered {status} {answered:.1f} s after the attack began"
        )
        results.append((f"slow clients ({label}): answered < 30 s", status == 200 and answered < 30))
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def figure_history(binary, tmp, results):
    server = Server(binary, tmp)
    event = note("y" * (3_500_000 - 40)).encode()
    for _ in range(10):
        status, _ = server.request("POST", "/api/sessions/huge/events", event * 10)
        assert status == 200, status
    base_rss = peak_rss_mb(server.proc.pid)
    sizes = [0] * 4

    def page(i):
        _, data = server.request("GET", "/api/sessions/huge/events/history?limit=100")
        sizes[i] = len(data) / MB

    threads = [threading.Thread(target=page, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rss = peak_rss_mb(server.proc.pid)
    server.stop()
    print(
        f"history: 100 events of 3.5 MB; four concurrent limit=100 pages of "
        f"{', '.join(f'{s:.1f}' for s in sizes)} MB; server peak RSS {rss:.0f} MB "
        f"({base_rss:.0f} MB after storing them)"
    )
    results.append(("history pages <= 32 MB", max(sizes) <= 32))
    results.append(("history RSS < 600 MB", rss < 600))


def figure_follow_dev_zero(binary, tmp, results):
    db = os.path.join(tmp, "zero.db")
    start = time.monotonic()
    proc = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", "--db", db, "--follow", "/dev/zero"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        _, err = proc.communicate(timeout=6)
        took = time.monotonic() - start
        print(f"--follow /dev/zero: refused in {took:.2f} s (exit {proc.returncode}): {err.strip()}")
        results.append(("--follow /dev/zero refused", proc.returncode != 0))
    except subprocess.TimeoutExpired:
        cpu, rss = cpu_seconds(proc.pid), peak_rss_mb(proc.pid)
        proc.kill()
        print(f"--follow /dev/zero: still running after 6 s, {cpu:.2f} s CPU, peak RSS {rss:.0f} MB")
        results.append(("--follow /dev/zero bounded", cpu <= 1.5 and rss <= 150))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/hiveterm"))
    args = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        figure_follow_dev_zero(args.bin, tmp, results)
        figure_slow_clients(args.bin, tmp, results)
        figure_big_post(args.bin, tmp, results)
        figure_history(args.bin, tmp, results)
    missed = [name for name, ok in results if not ok]
    for name in missed:
        print(f"MISSED: {name}")
    print("all targets met" if not missed else f"{len(missed)} target(s) missed")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
