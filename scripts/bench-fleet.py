#!/usr/bin/env python3
"""The fleet benchmark of issue 22 ("How fast"): `hiveterm serve --watch` of a folder of 1,000
agent logs (1 GB), then search over what it stored, on SQLite and on PostgreSQL.

The folder (made once, seeded, into bench-data/fleet/ unless it is there): the three agents'
folders as they are on a machine, each log a slice (cut at line ends) of a big generated log of
its agent, so 1,000 logs of about 1 MB each:
  claude/projects/-work-p<k>/<uuid>.jsonl              500 MB  gen-big-transcript.py (session mix)
  codex/sessions/2026/11/<dd>/rollout-<time>-<uuid>.jsonl  250 MB  gen-codex-log.py
  gemini/tmp/p<k>/chats/session-<time>-<id>.jsonl      250 MB  gen-gemini-log.py
(`--mb N` scales the whole, `--files N` the count.)

For each backend (`--backend sqlite|postgres|both`, default both), on a fresh database:
  1. import: `hiveterm serve --watch claude/projects --watch codex/sessions --watch gemini/tmp`
     started, and timed until every log's every line is stored (the sum of the index's
     `last_seq` equals the folder's non-blank lines). While it imports, the start page (`GET /`)
     and the index's first page (`GET /api/sessions?limit=100`) are asked for every 0.5 s:
     their slowest answer is what a user opening the page waits for (first paint).
  2. search: `GET /api/search?q=…` for a fixed list of queries (rare ids and paths, commands,
     common words, with and without filters), each asked RUNS times (default 20) after one
     warm-up: p50 and p99 of the first page's answer time, over all queries.
  3. size: the database's size, and the search index's part of it.
Target (issue 22): import < 60 s; search p99 <= 100 ms on both backends.

Usage: scripts/bench-fleet.py [--backend sqlite|postgres|both] [--mb 1000] [--files 1000]
                              [--runs 20] [--keep] [--again] [--make]
Needs the release binary (cargo build --release -p hiveterm) and, for postgres, the server on
127.0.0.1:5432 (database `postgres`; a database `hiveterm_bench` is made and dropped).
Not run in CI: the figures depend on the machine and its load (say the load with them).
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
HIVETERM = os.path.join(TARGET, "release", "hiveterm")
DATA = os.path.join(ROOT, "bench-data")
TOKEN = "bench-fleet-token-0123456789abcdef"
PG_URL = "postgres://postgres@127.0.0.1:5432/hiveterm_bench"

# (query, extra params): rare (an id, a path), medium (commands, error names), common words.
QUERIES = [
    ("rm -rf", {}),
    ("ENOENT", {}),
    ("cargo test", {}),
    ("src/", {}),
    ("the", {}),
    ("error", {}),
    ("function", {}),
    ("Reconnecting", {}),
    ("apply_patch", {}),
    ("thinking", {}),
    ("error", {"level": "error"}),
    ("the", {"agent": "codex"}),
    ("src/", {"tool": "Bash"}),
    ("zzqqxyzzy", {}),
]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def slices(big, n, size):
    """Cuts file `big` into `n` pieces of about `size` bytes at line ends; yields their bytes."""
    with open(big, "rb") as f:
        for i in range(n):
            buf = f.read(size)
            if not buf:
                return
            rest = f.readline()
            yield buf + rest


def make_fleet(root, mb, files):
    """The folder of logs; returns its number of non-blank lines."""
    stamp = os.path.join(root, ".made")
    want = f"{mb} {files}"
    if os.path.exists(stamp) and open(stamp).read() == want:
        return int(open(os.path.join(root, ".lines")).read())
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    rng = random.Random(22)
    tmp = os.path.join(root, ".big")
    os.makedirs(tmp)
    shares = [("claude", 0.5), ("codex", 0.25), ("gemini", 0.25)]
    for agent, share in shares:
        agent_mb = mb * share
        n = int(files * share)
        big = os.path.join(tmp, agent + ".jsonl")
        log(f"generating {agent_mb:.0f} MB of {agent} logs")
        if agent == "claude":
            # About 1,580 bytes a line in the session mix.
            lines = int(agent_mb * 1e6 / 1580)
            cmd = [sys.executable, os.path.join(ROOT, "scripts", "gen-big-transcript.py"),
                   "--lines", str(lines), "--out", big]
        elif agent == "codex":
            cmd = [sys.executable, os.path.join(ROOT, "scripts", "gen-codex-log.py"),
                   "--mb", str(agent_mb), "--out", big]
        else:
            cmd = [sys.executable, os.path.join(ROOT, "scripts", "gen-gemini-log.py"), big,
                   str(agent_mb)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        size = os.path.getsize(big) // n + 1
        for i, data in enumerate(slices(big, n, size)):
            u = uuid.UUID(int=rng.getrandbits(128))
            day = 1 + i % 28
            if agent == "claude":
                path = os.path.join(root, "claude", "projects", f"-work-p{i % 20}", f"{u}.jsonl")
            elif agent == "codex":
                path = os.path.join(root, "codex", "sessions", "2026", "11", f"{day:02d}",
                                    f"rollout-2026-11-{day:02d}T10-{i % 60:02d}-00-{u}.jsonl")
            else:
                path = os.path.join(root, "gemini", "tmp", f"p{i % 20}", "chats",
                                    f"session-2026-11-{day:02d}T10-{i % 60:02d}-{str(u)[:8]}.jsonl")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
        os.remove(big)
    shutil.rmtree(tmp)
    lines = 0
    for d, _, names in os.walk(root):
        for name in names:
            if name.endswith(".jsonl"):
                with open(os.path.join(d, name), "rb") as f:
                    lines += sum(1 for l in f if l.strip())
    open(os.path.join(root, ".lines"), "w").write(str(lines))
    open(stamp, "w").write(want)
    return lines


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def get(base, path, params=None, timeout=60):
    url = base + path
    if params:
        url += "?" + urllib.parse.urlencode(params)
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=timeout) as r:
        body = r.read()
    return time.perf_counter() - t, body


def stored_lines(base):
    """The sum of every session's last_seq, and the number of sessions."""
    total, count, cursor = 0, 0, None
    while True:
        params = {"limit": 1000}
        if cursor:
            params["cursor"] = cursor
        _, body = get(base, "/api/sessions", params)
        page = json.loads(body)
        for s in page["sessions"]:
            total += s["last_seq"]
            count += 1
        cursor = page.get("next")
        if not cursor:
            return total, count


def psql(sql, db="postgres"):
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-v",
                    "ON_ERROR_STOP=1", "-c", sql], check=True, stdout=subprocess.DEVNULL)


def psql_value(sql, db):
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-At", "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return out.strip()


def sqlite_sizes(db):
    """(database bytes, search index bytes): the file (with its WAL) and search_* pages."""
    total = sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p))
    import sqlite3
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        search = con.execute(
            "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'search%'").fetchone()[0]
        con.close()
    except sqlite3.Error:
        search = None
    return total, search


def pg_sizes():
    db = "hiveterm_bench"
    total = int(psql_value("SELECT pg_database_size(current_database())", db))
    search = int(psql_value("SELECT pg_total_relation_size('search_rows')", db))
    return total, search


def bench(backend, fleet, lines, runs, keep, again=False):
    work = os.path.join(DATA, f"fleet-{backend}")
    if not again:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    if backend == "sqlite":
        db = os.path.join(work, "fleet.db")
    else:
        if not again:
            psql("DROP DATABASE IF EXISTS hiveterm_bench")
            psql("CREATE DATABASE hiveterm_bench")
        db = PG_URL
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [HIVETERM, "serve", "--addr", f"127.0.0.1:{port}", "--db", db, "--token", TOKEN,
           "--watch", os.path.join(fleet, "claude", "projects"),
           "--watch", os.path.join(fleet, "codex", "sessions"),
           "--watch", os.path.join(fleet, "gemini", "tmp")]
    errlog = open(os.path.join(work, "serve.log"), "w")
    t0 = time.perf_counter()
    server = subprocess.Popen(cmd, stdout=errlog, stderr=errlog)
    try:
        while True:
            try:
                get(base, "/api/sessions", {"limit": 1})
                break
            except OSError:
                if server.poll() is not None:
                    sys.exit(f"hiveterm serve exited; see {work}/serve.log")
                time.sleep(0.05)
        listening = time.perf_counter() - t0
        paint = []
        done = None
        while True:
            page_t, _ = get(base, "/")
            index_t, _ = get(base, "/api/sessions", {"limit": 100})
            paint.append(page_t + index_t)
            stored, count = stored_lines(base)
            if stored >= lines:
                done = time.perf_counter() - t0
                break
            if time.perf_counter() - t0 > 1800:
                sys.exit(f"{backend}: not imported after 30 min ({stored} of {lines} lines)")
            time.sleep(0.5)
        log(f"{backend}: imported {count} sessions, {stored} lines in {done:.1f} s "
            f"(listening after {listening:.2f} s)")
        times = []
        per_query = []
        for q, extra in QUERIES:
            params = dict(extra, q=q)
            get(base, "/api/search", params)
            qt = []
            for _ in range(runs):
                t, body = get(base, "/api/search", params)
                qt.append(t)
            hits = len(json.loads(body)["hits"])
            times.extend(qt)
            per_query.append((q, extra, statistics.median(qt), max(qt), hits))
        times.sort()
        p50 = times[len(times) // 2]
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        sizes = sqlite_sizes(db) if backend == "sqlite" else pg_sizes()
    finally:
        server.terminate()
        server.wait()
        errlog.close()
    if backend == "postgres" and not keep:
        psql("DROP DATABASE IF EXISTS hiveterm_bench")
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "backend": backend,
        "import_s": done,
        "first_paint_max_s": max(paint),
        "first_paint_median_s": statistics.median(paint),
        "search_p50_ms": p50 * 1000,
        "search_p99_ms": p99 * 1000,
        "queries": per_query,
        "db_bytes": sizes[0],
        "search_bytes": sizes[1],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="both", choices=["sqlite", "postgres", "both"])
    ap.add_argument("--mb", type=float, default=1000)
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--keep", action="store_true", help="keep the databases")
    ap.add_argument("--make", action="store_true", help="only make the folder of logs")
    ap.add_argument("--again", action="store_true",
                    help="search the databases an earlier --keep run kept (no import)")
    args = ap.parse_args()
    if args.make:
        print(make_fleet(os.path.join(DATA, "fleet"), args.mb, args.files), "lines")
        return
    if not os.path.exists(HIVETERM):
        sys.exit(f"{HIVETERM} missing: cargo build --release -p hiveterm")
    fleet = os.path.join(DATA, "fleet")
    lines = make_fleet(fleet, args.mb, args.files)
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(fleet)
               for n in ns if n.endswith(".jsonl"))
    log(f"fleet: {args.files} logs, {size / 1e6:.0f} MB, {lines} lines; "
        f"load average {os.getloadavg()[0]:.2f}")
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    failed = False
    for b in backends:
        r = bench(b, fleet, lines, args.runs, args.keep or args.again, args.again)
        search = "?" if r["search_bytes"] is None else f"{r['search_bytes'] / 1e6:.0f} MB"
        imported = "kept database, not imported" if args.again else f"{r['import_s']:.1f} s"
        print(f"{b}: import {imported}; first paint while importing: median "
              f"{r['first_paint_median_s'] * 1000:.0f} ms, slowest "
              f"{r['first_paint_max_s'] * 1000:.0f} ms; search first page p50 "
              f"{r['search_p50_ms']:.1f} ms, p99 {r['search_p99_ms']:.1f} ms; database "
              f"{r['db_bytes'] / 1e6:.0f} MB, of it the search index {search} "
              f"(logs {size / 1e6:.0f} MB)")
        for q, extra, med, worst, hits in r["queries"]:
            print(f"    {q!r:16} {json.dumps(extra):22} median {med * 1000:7.1f} ms  "
                  f"slowest {worst * 1000:7.1f} ms  {hits} hits")
        failed |= (not args.again and r["import_s"] > 60) or r["search_p99_ms"] > 100
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
