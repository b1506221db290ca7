#!/usr/bin/env bash
# The big-log benchmark of the page (issue 4, "Big logs"); doubles as a check of its targets.
#
# Runs e2e/tests/big.test.mjs RUNS times (default 3): a generated Claude Code transcript
# (e2e/gen-big-log.mjs, seeded, written once to $TMPDIR; 100,000 lines, 154 MB by default,
# BIG_LINES=700000 for about 1 GB) is opened through the page's file input in headless
# Chromium, served from dist/ by a plain static server. Each run records: first rows on screen
# after the drop (timed in the page from the file input's change event to the frame that
# paints them; Playwright's setInputFiles call, which comes before that event, is printed
# beside), fully classified (from the same event) (every row reachable), scroll frame times over 300 frames,
# rows in the DOM, the resident memory of the renderer that runs the page and its workers
# (where it is: wasm memories, other anonymous pages, file-backed pages; and every renderer of
# the browser for comparison), the last row after G, a body opened there
# (read again from the file), a search's first hits. Prints every run and the medians, and
# exits 1 if a median misses a target (issue 12):
#   154 MB: first rows <= 300 ms, every row reachable <= 1500 ms, the page's renderer < 350 MB;
#   1 GB (BIG_LINES >= 500000): first rows <= 1000 ms, reachable <= 10000 ms, RSS < 1536 MB;
#   and fewer than 1000 rows in the DOM (the list is virtualised).
# Not run in CI: the figures depend on the machine and its load (CI runs the same test once and
# prints them without enforcing).
#
# No DevTools session is attached while the log is read (one made classifying ~1.5x slower);
# BIG_MAIN_THREAD=1 adds the main thread's script/style/layout time from Chromium's Performance
# domain, at that cost.
#
# Any log instead of the generated one: --log FILE (any agent's, any shape; judged as 1 GB when
# over 500 MB; BIG_SEARCH=TEXT sets what the search looks for, "e" by default), e.g. the
# shapes of scripts/bench-classify.sh: `python3 scripts/gen-big-transcript.py --mix files
# --lines 700000 --out bench-data/files-1g.transcript.jsonl` (1 GB, every edit a new file).
#
# Usage: scripts/bench-page.sh [--no-build] [--log FILE]
#   env: RUNS=3 BIG_LINES=100000 BIG_MAIN_THREAD=0 BIG_SEARCH=
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/e2e/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export TZ=UTC
RUNS="${RUNS:-3}"

build=1
while [ "$#" -gt 0 ]; do
    case "$1" in
        --no-build) build=0; shift ;;
        --log) [ -f "${2:-}" ] || { echo "no such log: ${2:-}" >&2; exit 2; }
               BIG_LOG="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; export BIG_LOG; shift 2 ;;
        *) echo "usage: scripts/bench-page.sh [--no-build] [--log FILE]" >&2; exit 2 ;;
    esac
done

"$ROOT/scripts/setup.sh" >/dev/null
if [ "$build" = 1 ]; then
    echo "==> trunk build --release"
    trunk build --release
fi
"$ROOT/scripts/bundle-size.sh"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for i in $(seq 1 "$RUNS"); do
    echo "==> run $i of $RUNS"
    node --test --test-reporter=dot e2e/tests/big.test.mjs >/dev/null
    cp e2e/screenshots/big-figures.json "$out/run-$i.json"
done

node - "$out" <<'EOF'
const fs = require("fs");
const dir = process.argv[2];
const runs = fs.readdirSync(dir).sort().map((f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8")));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log(`big log: ${runs[0].log ?? "generated"}, ${runs[0].lines} lines, ${(runs[0].bytes / 1e6).toFixed(1)} MB, ${runs[0].rows}`);
for (const [i, r] of runs.entries()) {
  console.log(`  run ${i + 1}: first rows ${r.firstPage.frame} ms after the drop (Playwright's call: ${r.firstWall} ms), classified ${r.firstPage.done} ms (Playwright's call: ${r.doneWall} ms), scroll p50/p95 ${r.scroll.p50.toFixed(1)}/${r.scroll.p95.toFixed(1)} ms, ${r.scroll.rendered} rows in the DOM, the page's renderer RSS ${r.rss.toFixed(0)} MB (every renderer ${r.rssAll.toFixed(0)} MB), last row seq ${r.lastSeq}, a body read in ${r.bodyMs.toFixed(0)} ms, search first hits ${r.searchMs} ms`);
  for (const [k, m] of Object.entries(r.stages)) {
    const wasm = m.wasm.filter((w) => w >= 0.5).map((w) => w.toFixed(0)).join(" + ");
    console.log(`    ${k.padEnd(10)} the page's renderer ${m.rss.toFixed(0)} MB = wasm memories [${wasm}] + other anonymous ${m.anon.toFixed(0)} + file-backed ${m.file.toFixed(0)}${m.shm === undefined ? "" : ` (shared memory ${m.shm.toFixed(0)}, fonts ${m.fonts.toFixed(0)})`}; every renderer ${m.all.toFixed(0)} MB`);
  }
  if (r.wasmSizes && Object.keys(r.wasmSizes).length) console.log(`    wasm memories (MB, as grown): ${Object.entries(r.wasmSizes).map(([k, v]) => `${k} ${v.map((x) => x.toFixed(1)).join("+") || "-"}`).join(", ")}`);
  const h = r.heaps.searched;
  console.log(`    JS heaps used at the end: ${Object.entries(h).map(([k, v]) => `${k} ${v.toFixed(1)} MB`).join(", ")}`);
}
// Timed from the drop as the page sees it (the file input's change event); Playwright's
// setInputFiles call adds its own time before that event (printed beside).
const m = {
  first: median(runs.map((r) => r.firstPage.frame)),
  done: median(runs.map((r) => r.firstPage.done)),
  firstCall: median(runs.map((r) => r.firstWall)),
  doneCall: median(runs.map((r) => r.doneWall)),
  p50: median(runs.map((r) => r.scroll.p50)),
  p95: median(runs.map((r) => r.scroll.p95)),
  dom: median(runs.map((r) => r.scroll.rendered)),
  rss: median(runs.map((r) => r.rss)),
  rssAll: median(runs.map((r) => r.rssAll)),
};
if (runs[0].phases) {
  const done = median(runs.map((r) => r.firstPage.done));
  console.log(`where the time went (medians over the runs; % of the median drop → fully classified, ${done} ms):`);
  for (const [i, p] of runs[0].phases.entries()) {
    const ms = median(runs.map((r) => r.phases[i].ms));
    console.log(`  ${ms.toFixed(0).padStart(6)} ms ${(100 * ms / done).toFixed(1).padStart(5)} %  ${p.name}`);
  }
  const mm = (k) => median(runs.map((r) => r.main[k]));
  const mainThread = mm("task") > 0 ? `; main thread busy ${mm("task").toFixed(0)} ms (script ${mm("script").toFixed(0)}, style ${mm("style").toFixed(0)}, layout ${mm("layout").toFixed(0)}; BIG_MAIN_THREAD=1)` : "";
  console.log(`  worker busy ${median(runs.map((r) => r.workerMs)).toFixed(0)} ms${mainThread}`);
}
console.log(`median: first rows ${m.first} ms, classified ${m.done} ms after the drop (from Playwright's call: ${m.firstCall} ms, ${m.doneCall} ms), scroll p50/p95 ${m.p50.toFixed(1)}/${m.p95.toFixed(1)} ms, ${m.dom} rows in the DOM, the page's renderer RSS ${m.rss.toFixed(0)} MB (every renderer ${m.rssAll.toFixed(0)} MB)`);
const gb = runs[0].log && runs[0].log !== "generated" ? runs[0].bytes >= 500e6 : runs[0].lines >= 500000;
const [tFirst, tDone, tRss] = gb ? [1000, 10000, 1536] : [300, 1500, 350];
const checks = [
  [`first rows <= ${tFirst} ms`, m.first <= tFirst],
  [`every row reachable (classified) <= ${tDone} ms`, m.done <= tDone],
  [`the page's renderer RSS < ${tRss} MB`, m.rss < tRss],
  [`virtualised (< 1000 rows in the DOM)`, m.dom < 1000],
];
for (const [what, ok] of checks) console.log(`  ${ok ? "met   " : "MISSED"} ${what}`);
const pass = checks.every(([, ok]) => ok);
console.log(pass ? "PASS" : "FAIL");
process.exit(pass ? 0 : 1);
EOF
