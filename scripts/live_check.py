#!/usr/bin/env python3
"""The checks of scripts/live-agents.sh (issues 20 and 47), after a generator ran the real CLIs.

  live_check.py rows  HIVETERM DB RAW PORT
      Serves DB (the generator's wrapped.db: one session `<agent>-<run>` per run made under
      `hiveterm run`) and checks every session against what its CLI printed, RAW/<agent>/<run>.*:
      - its stored events are the printed lines, byte for byte, between the harness lines `run`
        adds (its turn_start and turn_end, `stderr:` notes) (GET …/events/raw);
      - its live rows (GET …/events/history, all pages) are exactly `hiveterm classify` of the
        stored events (seq for seq);
      - each printed line's live rows are its rows in `hiveterm classify` of the printed lines
        alone, but for the turn rows: under a harness its turn rows are the only ones, and the
        agent's prompt is a `prompt ← user` row (docs/ROWS.md); no `!` (unrecognised) row.
      A run that printed one JSON document (Qwen's `-o json`, Gemini's `-o json`) is checked for
      the second point only.

  live_check.py store HIVETERM WORK PORT AGENT [SCENARIO ...]
      For each scenario's kept home, WORK/home/AGENT/SCENARIO (corpus-more's runner.py), starts
      `HOME=<it> hiveterm serve --agents` on an empty database and checks GET /api/sessions: one
      session per session of the CLI's store there (OpenCode's opencode.db `session` rows, Qwen
      Code's ~/.qwen/projects/*/chats/*.jsonl, Copilot CLI's ~/.copilot/session-state/*/), its
      `agent` naming the CLI, its title the first prompt of the run that started it (the
      scenario's runs and the session ids the runner logged, WORK/logs/AGENT/), and no `!` row in
      its history.

Exit status 1 when a check failed or nothing was checked.
"""
import contextlib
import glob
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

HARNESS = re.compile(rb'^\{"kind":"(turn_start|turn_end|note)"')
# The agent's own turn rows (classifier/src/kind.rs: `turn ok · 1.4s`, `turn fail · 2.5s — why`).
TURN = [("◆", re.compile(r"^TURN( ← .*)?$")), ("✅", re.compile(r"^turn ok( · .*)?$")),
        ("❌", re.compile(r"^turn fail( [·—] .*)?$"))]


class Api:
    def __init__(self, base):
        self.base = base

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return r.read()

    def sessions(self):
        out, cursor = [], None
        while True:
            q = "/api/sessions?limit=1000" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else "")
            page = json.loads(self.get(q))
            out += page["sessions"]
            cursor = page.get("next")
            if not cursor:
                return out

    def history(self, sid):
        """{seq: msgs} of every envelope with rows, all pages."""
        live, before = {}, None
        while True:
            q = f"/api/sessions/{urllib.parse.quote(sid)}/events/history?limit=1000"
            page = json.loads(self.get(q + (f"&before={before}" if before else "")))
            for env in page["envelopes"]:
                live[env["seq"]] = env["msgs"]
            before = page.get("next_before")
            if before is None:
                return live


@contextlib.contextmanager
def serve(hiveterm, port, args, log, env=None):
    """`hiveterm serve ARGS` on 127.0.0.1:PORT, stopped (our own child, by handle) on leaving."""
    with open(log, "ab") as lf:
        p = subprocess.Popen([hiveterm, "serve", "--addr", f"127.0.0.1:{port}", *args],
                             stdout=lf, stderr=lf, stdin=subprocess.DEVNULL, env=env)
    api = Api(f"http://127.0.0.1:{port}")
    try:
        for _ in range(100):
            try:
                api.get("/api/sessions?limit=1")
                break
            except (urllib.error.URLError, ConnectionError):
                if p.poll() is not None:
                    raise SystemExit(f"hiveterm serve exited {p.returncode}: see {log}")
                time.sleep(0.2)
        yield api
    finally:
        p.terminate()
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def classify(hiveterm, data):
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        f.write(data)
        f.flush()
        out = subprocess.run([hiveterm, "classify", f.name], capture_output=True, check=True).stdout
    return {e["seq"]: e["msgs"] for e in map(json.loads, out.splitlines())}


def is_turn(m):
    return any(m.get("icon") == i and p.match(m["summary"]) for i, p in TURN)


def unknown_rows(envelopes):
    return sum(1 for msgs in envelopes.values() for m in msgs if m.get("icon") == "!")


def check_run(hiveterm, api, s, raw):
    """The problems of one `<agent>-<run>` session; None when it has no printed output here."""
    agent, _, run = s["title"].partition("-")
    stream = f"{raw}/{agent}/{run}.stream.jsonl"
    if not os.path.exists(stream) and not os.path.exists(f"{raw}/{agent}/{run}.stdout.json"):
        return None, f"no {stream} (not this run's)"
    stored_raw = api.get(f"/api/sessions/{urllib.parse.quote(s['id'])}/events/raw")
    live = api.history(s["id"])
    problems = []
    of_stored = {k: v for k, v in classify(hiveterm, stored_raw).items() if v}
    if live != of_stored:
        diff = sorted(k for k in live.keys() | of_stored.keys() if live.get(k) != of_stored.get(k))
        problems.append(f"live rows differ from classify of the stored events at seqs {diff[:5]}")
    if not os.path.exists(stream):
        return problems, f"{len(live)} events with rows, live == classify (one JSON document)"
    printed = open(stream, "rb").read()
    lines = [ln for ln in printed.split(b"\n") if ln.strip()]
    stored = [ln for ln in stored_raw.split(b"\n") if ln]
    cli = [(seq, ln) for seq, ln in enumerate(stored, 1) if not HARNESS.match(ln)]
    if [ln for _, ln in cli] != lines:
        problems.append(f"stored {len(cli)} CLI lines, the CLI printed {len(lines)}")
    alone = classify(hiveterm, printed)
    for n, (seq, _) in enumerate(cli, 1):
        want = [m for m in alone.get(n, []) if not is_turn(m)]
        got = [m for m in live.get(seq, []) if not m["summary"].startswith("prompt ←")]
        if want != got:
            problems.append(f"line {n} (seq {seq}): live {got} != classify {want}")
            break
    if unknown_rows(alone):
        problems.append(f"{unknown_rows(alone)} unrecognised (!) rows")
    return problems, f"{len(lines)} lines, {len(live)} events with rows, live == classify"


def rows(hiveterm, db, raw, port):
    checked = failed = 0
    with serve(hiveterm, port, ["--db", db], os.path.join(os.path.dirname(db), "live-serve.log")) as api:
        for s in api.sessions():
            problems, said = check_run(hiveterm, api, s, raw)
            if problems is None:
                print(f"skip {s['title']}: {said}")
                continue
            checked += 1
            failed += bool(problems)
            print(f"FAIL {s['title']}: " + "; ".join(problems) if problems else f"ok   {s['title']}: {said}")
    print(f"{checked} sessions checked, {failed} failed")
    return checked, failed


def stored_sessions(agent, home):
    """The session ids the CLI's own store under HOME holds."""
    if agent == "opencode":
        db = home + "/.local/share/opencode/opencode.db"
        if not os.path.exists(db):
            return []
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as c:
            return [r[0] for r in c.execute("select id from session order by time_created")]
    if agent == "qwen":
        return [os.path.basename(p)[:-6] for p in sorted(glob.glob(home + "/.qwen/projects/*/chats/*.jsonl"))]
    return [os.path.basename(os.path.dirname(p))
            for p in sorted(glob.glob(home + "/.copilot/session-state/*/events.jsonl"))]


def first_prompts(logs, scenario):
    """{session id: the prompt of the first run that reported it} (runner.py's logs)."""
    sc = json.load(open(f"{logs}/{scenario}.scenario.expanded.json"))
    prompts = {}
    for r in sc.get("runs", [{}]):
        try:
            sid = json.load(open(f"{logs}/{r.get('out', scenario)}.cmd.json")).get("session_id")
        except FileNotFoundError:
            continue
        if sid:
            prompts.setdefault(sid, r.get("prompt", ""))
    return prompts


def as_title(prompt):
    """A prompt as GET /api/sessions titles it: one line, at most 100 characters (then `…`)."""
    one = " ".join(prompt.split())
    return one if len(one) <= 100 else one[:100] + "…"


def settled(api, want, limit=90):
    """The sessions once at least `want` are there and the index stopped changing for 5 s."""
    end, last, since = time.time() + limit, None, time.time()
    while True:
        got = api.sessions()
        key = sorted((s["id"], s["last_seq"], s["title"], s["agent"]) for s in got)
        if key != last:
            last, since = key, time.time()
        elif len(got) >= want and time.time() - since >= 5 or time.time() > end:
            return got
        time.sleep(0.5)


def store(hiveterm, work, port, agent, scenarios):
    checked = failed = 0
    logs = f"{work}/logs/{agent}"
    for home in sorted(glob.glob(f"{work}/home/{agent}/*")):
        scenario = os.path.basename(home)
        if scenarios and scenario not in scenarios:
            continue
        ids, prompts = stored_sessions(agent, home), first_prompts(logs, scenario)
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, HOME=home)
            with serve(hiveterm, port, ["--agents", "--db", tmp + "/agents.db"],
                       f"{work}/live-agents-serve.log", env) as api:
                sessions = settled(api, len(ids))
                histories = {s["id"]: api.history(s["id"]) for s in sessions}
        problems = []
        if len(sessions) != len(ids):
            problems.append(f"{len(sessions)} sessions served, the store holds {len(ids)}")
        for sid in ids:
            mine = [s for s in sessions if sid in s["id"]]
            if len(mine) != 1:
                problems.append(f"{sid}: {len(mine)} sessions")
                continue
            s = mine[0]
            if s["agent"] != agent:
                problems.append(f"{s['id']}: agent {s['agent']!r}")
            want = prompts.get(sid)
            if want is None:
                problems.append(f"{s['id']}: no run reported it (title {s['title']!r})")
            elif s["title"] != as_title(want):
                problems.append(f"{s['id']}: title {s['title']!r}, first prompt {want!r}")
            hist = histories[s["id"]]
            if not hist:
                problems.append(f"{s['id']}: no rows")
            if unknown_rows(hist):
                problems.append(f"{s['id']}: {unknown_rows(hist)} unrecognised (!) rows")
        checked += 1
        failed += bool(problems)
        rows_n = sum(len(h) for h in histories.values())
        print(f"FAIL {agent}/{scenario}: " + "; ".join(problems) if problems else
              f"ok   {agent}/{scenario}: {len(ids)} stored sessions served, {rows_n} events with rows, no !")
    return checked, failed


def main(argv):
    if argv[:1] == ["rows"] and len(argv) == 5:
        checked, failed = rows(argv[1], argv[2], argv[3], int(argv[4]))
    elif argv[:1] == ["store"] and len(argv) >= 5:
        checked, failed = store(argv[1], argv[2], int(argv[3]), argv[4], set(argv[5:]))
        print(f"{argv[4]}: {checked} stores checked, {failed} failed")
    else:
        raise SystemExit(__doc__)
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
