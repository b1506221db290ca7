#!/usr/bin/env python3
"""The store benchmark of issue 51: the database's size per raw byte, table by table and index
by index, and search's first page on widened shapes and queries, on SQLite and PostgreSQL.

The logs (made once, seeded, into bench-data/store/ unless there): 200 sessions, about 164 MB,
of mixed shapes, each a slice (cut at line ends, of uneven sizes: long and short sessions) of a
big generated log of its shape, and the agents' real runs whole:
  Claude Code: the session mix (45 MB, 40 sessions), many small tool calls (20 MB, 20), every
  edit a new file (20 MB, 20), few huge bodies (20 MB, 10)      gen-big-transcript.py --mix
  Codex rollouts (20 MB, 25), Gemini recordings (20 MB, 25)    gen-codex-log.py, gen-gemini-log.py
  OpenCode, Qwen Code, Copilot CLI (3 MB of each of five kinds, 20)      gen-more-logs.py
  real runs: the biggest distinct files of fixtures/ (to 200 sessions: about 40) and ../shared/{fixtures,corpus-agents,corpus-more}/out
Each is POSTed (`POST /api/sessions/{id}/events`, pieces of at most 4 MB) to a fresh
`hiveterm serve` on a fresh database.

The queries (179, scripts/bench-store-queries.json, committed: the same list before and after
a change of the store; of the 25 words of the oldest rows wanted, 14 were found): 3–4 characters, common words, paths with slashes, ids, punctuation,
words found only in the oldest sessions, and filters their matches rarely pass (a level, a
tool, an agent, a project, `since`). `--make-queries` made the list from the SQLite database of
a run (`--keep`): words and pieces of its rows' texts, seeded.

For each backend: every query asked RUNS times (default 3, after one pass of warm-up); p50 and
p99 of the first page's answer time (`GET /api/search?q=…`, as a client sees it) over all of
them, the slowest queries; then the database's size per table and index, per raw byte of the
logs (SQLite: `dbstat`, the file with its WAL; PostgreSQL: `pg_total_relation_size` per table,
`pg_relation_size` per index, `pg_database_size`).
Targets (issue 51): database ≤ 1.5× the raw bytes, with the search index; p99 ≤ 50 ms.

Usage: scripts/bench-store.py [--backend sqlite|postgres|both] [--runs 3] [--keep] [--again]
                              [--make] [--make-queries]
Needs the release binary (cargo build --release -p hiveterm; HIVETERM_BIN=… another one) and,
for postgres, the server on 127.0.0.1:5432 (a database `hiveterm_store_bench` is made and dropped).
Not run in CI: the times depend on the machine and its load (say the load with them); sizes
do not.
"""

import argparse
import glob
import json
import os
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
HIVETERM = os.environ.get("HIVETERM_BIN", os.path.join(TARGET, "release", "hiveterm"))
DATA = os.path.join(ROOT, "bench-data", "store")
QUERIES = os.path.join(ROOT, "scripts", "bench-store-queries.json")
TOKEN = "bench-store-token-0123456789abcdef"
PG_DB = "hiveterm_store_bench"
PG_URL = f"postgres://postgres@127.0.0.1:5432/{PG_DB}"
SHARED = [os.path.join(ROOT, "..", "shared"), "/work/shared"]
GEN = os.path.join(ROOT, "scripts")
PIECE = 4 << 20

# (name, generator command given OUT, sessions)
SHAPES = [
    ("session", ["gen-big-transcript.py", "--mix", "session", "--lines", "28500", "--seed", "51"], 40),
    ("tools", ["gen-big-transcript.py", "--mix", "tools", "--lines", "13000", "--seed", "52"], 20),
    ("files", ["gen-big-transcript.py", "--mix", "files", "--lines", "12000", "--seed", "53"], 20),
    ("huge", ["gen-big-transcript.py", "--mix", "huge", "--lines", "2400", "--seed", "54"], 10),
    ("codex", ["gen-codex-log.py", "--mb", "20", "--seed", "55"], 25),
    ("gemini", ["gen-gemini-log.py", "OUT", "20"], 25),
]
MORE = ["opencode.stream.jsonl", "qwen.stream.jsonl", "qwen.session.jsonl",
        "copilot.stream.jsonl", "copilot.events.jsonl"]
SESSIONS = 200


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def uneven_slices(path, n, rng):
    """Cuts file `path` into `n` pieces at line ends, of sizes drawn unevenly (long and short
    sessions); yields their bytes."""
    size = os.path.getsize(path)
    weights = [rng.lognormvariate(0, 0.9) for _ in range(n)]
    total = sum(weights)
    with open(path, "rb") as f:
        for i, w in enumerate(weights):
            buf = f.read(max(1, int(size * w / total))) if i < n - 1 else f.read()
            if not buf:
                return
            yield buf + (f.readline() if i < n - 1 else b"")


def real_runs():
    files = glob.glob(os.path.join(ROOT, "fixtures", "*", "*.jsonl"))
    for shared in SHARED:
        if os.path.isdir(shared):
            for sub in ("fixtures", "corpus-agents/out", "corpus-more/out"):
                files += glob.glob(os.path.join(shared, sub, "**", "*.jsonl"), recursive=True)
            break
    return sorted(set(os.path.realpath(f) for f in files))


def make_logs(root):
    """The sessions' files; returns [(session id, path)]."""
    stamp = os.path.join(root, ".made")
    if os.path.exists(stamp):
        return json.load(open(stamp))
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "logs"))
    tmp = os.path.join(root, ".big")
    os.makedirs(tmp)
    rng = random.Random(51)
    made = []

    def cut(shape, big, n):
        for i, data in enumerate(uneven_slices(big, n, rng)):
            path = os.path.join(root, "logs", f"{shape}-{i:03d}.jsonl")
            with open(path, "wb") as f:
                f.write(data)
            made.append((f"{shape}-{i:03d}", path))
        os.remove(big)

    for shape, cmd, n in SHAPES:
        big = os.path.join(tmp, shape + ".jsonl")
        args = [big if a == "OUT" else a for a in cmd[1:]]
        if "OUT" not in cmd:
            args += ["--out", big]
        log(f"generating {shape}")
        subprocess.run([sys.executable, os.path.join(GEN, cmd[0])] + args, check=True,
                       stdout=subprocess.DEVNULL)
        cut(shape, big, n)
    log("generating the newer agents' logs")
    subprocess.run([sys.executable, os.path.join(GEN, "gen-more-logs.py"), "--mb", "3", "--out",
                    tmp] + sum((["--kind", k] for k in MORE), []), check=True,
                   stdout=subprocess.DEVNULL)
    for k in MORE:
        cut(k.replace(".jsonl", "").replace(".", "_"), os.path.join(tmp, k), 4)
    runs, seen = [], set()
    for path in sorted(real_runs(), key=os.path.getsize, reverse=True):
        data = open(path, "rb").read()
        if data not in seen:
            seen.add(data)
            runs.append(path)
    for i, path in enumerate(runs[:SESSIONS - len(made)]):
        dest = os.path.join(root, "logs", f"real-{i:03d}.jsonl")
        shutil.copyfile(path, dest)
        made.append((f"real-{i:03d}", dest))
    shutil.rmtree(tmp)
    json.dump(made, open(stamp, "w"))
    return made


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def request(base, path, params=None, body=None, timeout=120):
    url = base + path
    if params:
        url += "?" + urllib.parse.urlencode(params)
    req = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET",
                                 headers={"Authorization": f"Bearer {TOKEN}",
                                          "Content-Type": "application/x-ndjson"})
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=timeout) as r:
        data = r.read()
    return time.perf_counter() - t, data


def post_log(base, session, path):
    """POSTs the file's lines in pieces of at most PIECE bytes (a longer line alone)."""
    piece = []
    size = 0
    with open(path, "rb") as f:
        for line in f:
            if size + len(line) > PIECE and piece:
                request(base, f"/api/sessions/{session}/events", body=b"".join(piece))
                piece, size = [], 0
            piece.append(line)
            size += len(line)
    if piece:
        request(base, f"/api/sessions/{session}/events", body=b"".join(piece))


def psql(sql, db="postgres"):
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-q", "-v",
                    "ON_ERROR_STOP=1", "-c", sql], check=True, stdout=subprocess.DEVNULL)


def psql_rows(sql, db=PG_DB):
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", db, "-At", "-F",
                          "\t", "-c", sql], check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def sqlite_sizes(db):
    """(database bytes, [(table, index or '', bytes)])."""
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    total = sum(os.path.getsize(p) for p in (db, db + "-wal") if os.path.exists(p))
    rows = con.execute(
        "SELECT m.tbl_name, CASE WHEN m.type = 'index' THEN m.name ELSE '' END, SUM(d.pgsize)"
        " FROM dbstat d JOIN sqlite_schema m ON m.name = d.name"
        " GROUP BY d.name ORDER BY 3 DESC").fetchall()
    # FTS5's shadow tables are tables of their own: named after their FTS table.
    parts = [(t, i, b) for t, i, b in rows]
    free = con.execute("PRAGMA freelist_count").fetchone()[0] * con.execute(
        "PRAGMA page_size").fetchone()[0]
    parts.append(("(free pages)", "", free))
    con.close()
    return total, parts


def pg_sizes():
    total = int(psql_rows("SELECT pg_database_size(current_database())")[0][0])
    parts = []
    for name, heap, toast in psql_rows(
            "SELECT c.relname, pg_relation_size(c.oid),"
            " COALESCE(pg_total_relation_size(c.reltoastrelid), 0)"
            " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind = 'r' AND n.nspname = 'public'"):
        parts.append((name, "", int(heap) + int(toast)))
        for idx, size in psql_rows(
                "SELECT i.relname, pg_relation_size(i.oid) FROM pg_index x"
                f" JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = '{name}'::regclass"):
            parts.append((name, idx, int(size)))
    parts.sort(key=lambda p: -p[2])
    return total, parts


# ---- the queries ------------------------------------------------------------------------

WORD = re.compile(r"[A-Za-z][A-Za-z_]{3,14}")
PATH = re.compile(r"(?:[\w.-]+/){1,4}[\w.-]+")
ID = re.compile(r"\b(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}|toolu_[0-9A-Za-z]{8,}|call_[0-9A-Za-z]{8,}|[0-9a-f]{12,})")
PUNCT = ["=>", "();", "&&", "::", "!=", "}}", "#[", "->", "||", "$ ", "...", "?.", "// ", "{}",
         "[]", "\"\"", "==", "%s", "|>", "**", "<!--", "\\n", "@@", "' '", "`$", ";;", "#!",
         "~/", "./", ":="]


def make_queries(db, seed=51):
    """200 queries from the rows of the SQLite database `db` (a run's, `--keep`)."""
    rng = random.Random(seed)
    con = sqlite3.connect(db)
    n = con.execute("SELECT MAX(id) FROM search_rows").fetchone()[0]

    def texts(k, where="1"):
        out = []
        for _ in range(k * 20):
            i = rng.randint(1, n)
            row = con.execute(f"SELECT summary, body FROM search_rows WHERE id >= ? AND {where}"
                              " LIMIT 1", (i,)).fetchone()
            if row:
                out.append(row[0] + "\n" + row[1][:4000])
            if len(out) >= k:
                break
        return out

    qs = []
    sample = texts(600)
    # 3–4 characters: pieces of words.
    for t in rng.sample(sample, 60):
        ws = WORD.findall(t)
        if ws:
            w = rng.choice(ws)
            k = rng.choice([3, 4])
            s = rng.randint(0, max(0, len(w) - k))
            qs.append(("short", {"q": w[s:s + k].lower()}))
        if len([q for q in qs if q[0] == "short"]) >= 30:
            break
    # Common words.
    counts = {}
    for t in sample:
        for w in set(x.lower() for x in WORD.findall(t)):
            counts[w] = counts.get(w, 0) + 1
    common = sorted(counts, key=lambda w: -counts[w])[:60]
    for w in rng.sample(common, 25):
        qs.append(("common", {"q": w}))
    # Paths with slashes.
    paths = sorted(set(p for t in sample for p in PATH.findall(t) if len(p) >= 6))
    for p in rng.sample(paths, min(30, len(paths))):
        qs.append(("path", {"q": p}))
    # Ids (some stored, a few never).
    ids = sorted(set(i for t in sample for i in ID.findall(t)))
    for i in rng.sample(ids, min(22, len(ids))):
        qs.append(("id", {"q": i}))
    for _ in range(3):
        qs.append(("id", {"q": "%032x" % rng.getrandbits(128)}))
    # Punctuation.
    for p in PUNCT[:25]:
        qs.append(("punct", {"q": p if len(p) >= 3 else p + rng.choice([" ", "a", "("])}))
    # Words of the oldest rows only.
    ts = [r[0] for r in con.execute("SELECT ts FROM search_rows ORDER BY ts LIMIT 1 OFFSET ?",
                                    (n // 10,))]
    old_cut = ts[0]
    old = texts(400, f"ts < {old_cut!r}")
    cands = sorted(set(w for t in old for w in WORD.findall(t) if len(w) >= 6))
    rng.shuffle(cands)
    found = 0
    for w in cands:
        newer = con.execute(
            "SELECT 1 FROM search_rows WHERE ts >= ? AND (instr(lower(summary), ?) > 0"
            " OR instr(lower(body), ?) > 0) LIMIT 1", (old_cut, w.lower(), w.lower())).fetchone()
        if not newer:
            qs.append(("old", {"q": w}))
            found += 1
            if found >= 25:
                break
    # Filters their matches rarely pass.
    agents = [r[0] for r in con.execute(
        "SELECT agent FROM sessions WHERE agent IS NOT NULL GROUP BY agent ORDER BY SUM(last_seq)")]
    projects = [r[0] for r in con.execute(
        "SELECT project FROM sessions WHERE project IS NOT NULL GROUP BY project"
        " ORDER BY SUM(last_seq) LIMIT 5")]
    newest = con.execute("SELECT MAX(ts) FROM search_rows").fetchone()[0]
    for i, w in enumerate(rng.sample(common, 30)):
        kind = i % 6
        if kind == 0:
            f = {"level": "error"}
        elif kind == 1:
            f = {"tool": rng.choice(["Bash", "Read", "Write", "WebFetch", "Glob"])}
        elif kind == 2 and agents:
            f = {"agent": agents[i % min(3, len(agents))]}
        elif kind == 3 and projects:
            f = {"project": rng.choice(projects)}
        elif kind == 4:
            f = {"since": str(int(newest - 600))}
        else:
            f = {"level": "warn", "tool": "Bash"}
        qs.append(("filter", dict(f, q=w)))
    con.close()
    return [{"kind": k, "params": p} for k, p in qs[:200]]


# ---- a run ------------------------------------------------------------------------------

def bench(backend, logs, queries, runs, keep, again):
    work = os.path.join(DATA, f"db-{backend}")
    if not again:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
    if backend == "sqlite":
        db = os.path.join(work, "store.db")
    else:
        if not again:
            psql(f"DROP DATABASE IF EXISTS {PG_DB}")
            psql(f"CREATE DATABASE {PG_DB}")
        db = PG_URL
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    errlog = open(os.path.join(work, "serve.log"), "a")
    server = subprocess.Popen([HIVETERM, "serve", "--addr", f"127.0.0.1:{port}", "--db", db,
                               "--token", TOKEN], stdout=errlog, stderr=errlog)
    result = {"backend": backend}
    try:
        while True:
            try:
                request(base, "/api/sessions", {"limit": 1})
                break
            except OSError:
                if server.poll() is not None:
                    sys.exit(f"hiveterm serve exited; see {work}/serve.log")
                time.sleep(0.05)
        if not again:
            t0 = time.perf_counter()
            for session, path in logs:
                post_log(base, session, path)
            result["import_s"] = time.perf_counter() - t0
            log(f"{backend}: stored {len(logs)} sessions in {result['import_s']:.1f} s")
        load = os.getloadavg()[0]
        per = []
        for q in queries:
            request(base, "/api/search", q["params"])
        for q in queries:
            ts = []
            for _ in range(runs):
                t, body = request(base, "/api/search", q["params"])
                ts.append(t)
            per.append((q, ts, len(json.loads(body)["hits"])))
        result["load"] = (load, os.getloadavg()[0])
        result["per"] = per
    finally:
        server.terminate()
        server.wait()
        errlog.close()
    result["sizes"] = sqlite_sizes(db) if backend == "sqlite" else pg_sizes()
    if not keep:
        if backend == "postgres":
            psql(f"DROP DATABASE IF EXISTS {PG_DB}")
        shutil.rmtree(work, ignore_errors=True)
    return result


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def report(r, raw):
    total, parts = r["sizes"]
    b = r["backend"]
    times = [t for _, ts, _ in r["per"] for t in ts] or [0.0]
    p50, p99 = pct(times, 0.5) * 1000, pct(times, 0.99) * 1000
    print(f"{b}: search first page p50 {p50:.1f} ms, p99 {p99:.1f} ms "
          f"({len(r['per'])} queries × {len(r['per'][0][1]) if r['per'] else 0}; load {r['load'][0]:.1f}→"
          f"{r['load'][1]:.1f}); database {total / 1e6:.1f} MB = {total / raw:.2f}× the raw "
          f"{raw / 1e6:.1f} MB" + (f"; stored in {r['import_s']:.1f} s" if "import_s" in r else ""))
    kinds = {}
    for q, ts, _ in r["per"]:
        kinds.setdefault(q["kind"], []).extend(ts)
    for k, ts in kinds.items():
        print(f"    {k:7} p50 {pct(ts, 0.5) * 1000:6.1f} ms  p99 {pct(ts, 0.99) * 1000:6.1f} ms")
    print("  slowest queries (median of runs):")
    for q, ts, hits in sorted(r["per"], key=lambda x: -statistics.median(x[1]))[:10]:
        print(f"    {statistics.median(ts) * 1000:7.1f} ms  {hits:3} hits  {q['kind']:7} "
              f"{json.dumps(q['params'])}")
    print("  size per raw byte (table · index):")
    for table, index, size in parts:
        if size >= raw * 0.005:
            print(f"    {size / raw:5.3f}×  {size / 1e6:8.1f} MB  {table}{' · ' + index if index else ''}")
    return p99, total / raw


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backend", default="both", choices=["sqlite", "postgres", "both"])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", action="store_true", help="keep the databases")
    ap.add_argument("--again", action="store_true",
                    help="search the databases an earlier --keep run kept (no import)")
    ap.add_argument("--make", action="store_true", help="only make the logs")
    ap.add_argument("--make-queries", action="store_true",
                    help="make scripts/bench-store-queries.json from a kept SQLite database")
    args = ap.parse_args()
    logs = make_logs(DATA)
    raw = sum(os.path.getsize(p) for _, p in logs)
    if args.make:
        print(f"{len(logs)} sessions, {raw / 1e6:.1f} MB")
        return
    if args.make_queries:
        qs = make_queries(os.path.join(DATA, "db-sqlite", "store.db"))
        with open(QUERIES, "w") as f:
            f.write("[\n" + ",\n".join(json.dumps(q) for q in qs) + "\n]\n")
        print(f"{len(qs)} queries into {QUERIES}")
        return
    if not os.path.exists(HIVETERM):
        sys.exit(f"{HIVETERM} missing: cargo build --release -p hiveterm")
    queries = json.load(open(QUERIES)) if os.path.exists(QUERIES) else []
    log(f"{len(logs)} sessions, {raw / 1e6:.1f} MB; {len(queries)} queries; "
        f"load average {os.getloadavg()[0]:.2f}")
    backends = ["sqlite", "postgres"] if args.backend == "both" else [args.backend]
    failed = False
    for b in backends:
        r = bench(b, logs, queries, args.runs, args.keep or args.again, args.again)
        p99, ratio = report(r, raw)
        failed |= p99 > 50 or ratio > 1.5
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
