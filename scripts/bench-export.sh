#!/usr/bin/env bash
# The one-file export benchmark (issue 11, "Small and fast"); doubles as a check of its targets.
#
# On the 100,000-line benchmark transcript (scripts/gen-big-transcript.py, written once to
# bench-data/big.transcript.jsonl): times `hiveterm export` RUNS times (median), prints the
# file's size, then opens it from file:// in headless Chromium (e2e/bench-export.mjs): COLD_RUNS
# times each in a browser of its own (new profile, nothing warm: what a reader opening the file
# once sees), then RUNS times in one browser: first rows on screen and fully loaded, from
# navigation start, with where the time went (the file parsed, the boot script's marks). For the record it also prints
# what embedding the raw log instead would weigh (deflated, base64), and, when they are
# installed (`npm i -g claude-replay`, `pip install claude-code-log`, or CLAUDE_REPLAY /
# CLAUDE_CODE_LOG naming them), the size and time of claude-replay's and claude-code-log's
# single-file output for the same transcript (one run each: they are slow). It ends with a
# table for the README (machine, load average, date).
# Exits 1 if a target is missed: file <= 13.4 MB (claude-replay's single file for a 146 MB
# transcript) and no larger than claude-replay's for this log when it ran, export < 3 s,
# first rows < 1 s (the medians of the cold runs and of the warm ones), fully loaded < 5 s.
# Not run in CI.
#
# Usage: scripts/bench-export.sh [LOG]     env: RUNS=3, COLD_RUNS=RUNS, PEERS=0 (skip the peers)
# Needs the release hiveterm carrying the page (trunk build --release, then
# cargo build --release -p hiveterm) and e2e/node_modules (scripts/setup.sh).
# The peers, for measuring only (never part of the project), e.g. out of the way:
#   npm i --prefix /tmp/peers claude-replay        → CLAUDE_REPLAY=/tmp/peers/node_modules/.bin/claude-replay
#   python3 -m venv /tmp/ccl && /tmp/ccl/bin/pip install claude-code-log
#                                                  → CLAUDE_CODE_LOG=/tmp/ccl/bin/claude-code-log
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET_DIR/release/hiveterm"
RUNS="${RUNS:-3}"
FILE="${1:-$ROOT/bench-data/big.transcript.jsonl}"
[ -x "$BIN" ] || { echo "bench-export: build the page, then: cargo build --release -p hiveterm" >&2; exit 2; }
if [ ! -f "$FILE" ]; then
    echo "==> generating $FILE (once)"
    python3 scripts/gen-big-transcript.py --out "$FILE"
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

in_bytes=$(stat -L -c %s "$FILE")
lines=$(wc -l < "$FILE")
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "log: $FILE, $lines lines, $(mb "$in_bytes"); load average $load_start"
echo "==> hiveterm export, $RUNS runs"
: > "$out/times"
for i in $(seq 1 "$RUNS"); do
    /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$BIN" export "$FILE" -o "$out/big.html" 2> "$out/err" || { cat "$out/err" >&2; exit 1; }
    read -r wall user sys rss < "$out/time"
    echo "  run $i: $wall s wall, $user s user + $sys s sys, peak RSS $((rss / 1024)) MB — $(tail -1 "$out/err")"
    echo "$wall $user $sys $rss" >> "$out/times"
done
export_s=$(awk '{ print $1 }' "$out/times" | median)
export_cpu=$(awk '{ print $2 + $3 }' "$out/times" | median)
export_rss=$(awk '{ print int($4 / 1024) }' "$out/times" | median)
size=$(stat -c %s "$out/big.html")
echo "file: $(mb "$size") ($size bytes); median export $export_s s wall, $export_cpu s CPU"
# Where the bytes go: each block of the file.
python3 - "$out/big.html" <<'PY'
import re, sys
html = open(sys.argv[1], "rb").read()
for m in re.finditer(rb'<(script|style)([^>]*)>', html):
    end = html.index(b"</" + m.group(1), m.end())
    name = re.search(rb'id="([^"]+)"', m.group(2))
    print(f"  {(name.group(1) if name else m.group(1)).decode():24} {(end - m.end()) / 1e6:6.2f} MB")
PY
raw_deflated=$(gzip -6 -c "$FILE" | wc -c)
echo "for the record, the raw log instead: gzip -6 $(mb "$raw_deflated"), base64 $(mb $((raw_deflated * 4 / 3)))"

COLD_RUNS="${COLD_RUNS:-$RUNS}"
echo "==> opened from file:// in headless Chromium, $COLD_RUNS cold runs (a new browser each), $RUNS warm"
node e2e/bench-export.mjs "$out/big.html" "$RUNS" "$COLD_RUNS" | tee "$out/page"
page=$(tail -1 "$out/page")
get() { node -e 'const v = process.argv[2].split(".").reduce((o, k) => o?.[k], JSON.parse(process.argv[1])); console.log(v ?? "")' "$page" "$1"; }
first=$(get first)
done_ms=$(get done)
cold_first=$(get cold.first)
cold_done=$(get cold.done)
cold_worst=$(get cold.worst)
requests=$(get requests)

# One peer run: its output's size, wall time and peak RSS, or "—".
peer() { # name, output file, command...
    local name="$1" file="$2"; shift 2
    if /usr/bin/time -f "%e %M" -o "$out/time" "$@" > "$out/peer.log" 2>&1 && [ -s "$file" ]; then
        read -r pw prss < "$out/time"
        echo "  $name: $(mb "$(stat -c %s "$file")") in $pw s, peak RSS $((prss / 1024)) MB"
        echo "$(stat -c %s "$file") $pw $((prss / 1024))" > "$out/$name.fig"
    else
        echo "  $name failed: $(tail -3 "$out/peer.log")"
    fi
}
replay="${CLAUDE_REPLAY:-$(command -v claude-replay || true)}"
ccl="${CLAUDE_CODE_LOG:-$(command -v claude-code-log || true)}"
replay_v="" ccl_v=""
if [ "${PEERS:-1}" = 0 ]; then
    echo "==> peers skipped (PEERS=0)"
else
    if [ -n "$replay" ]; then
        replay_v=$("$replay" --version 2>/dev/null | tail -1 || true)
        echo "==> claude-replay $replay_v"
        peer claude-replay "$out/replay.html" "$replay" "$FILE" -o "$out/replay.html" --title big
    else
        echo "==> claude-replay not installed (npm i -g claude-replay, or CLAUDE_REPLAY=…): not compared"
    fi
    if [ -n "$ccl" ]; then
        ccl_v=$("$ccl" --version 2>/dev/null | awk '{ print $NF }' || true)
        echo "==> claude-code-log $ccl_v"
        # A directory of its own: it keeps a cache beside its input.
        mkdir -p "$out/ccl" && ln -s "$FILE" "$out/ccl/big.jsonl"
        peer claude-code-log "$out/ccl.html" "$ccl" convert "$out/ccl/big.jsonl" -o "$out/ccl.html"
    else
        echo "==> claude-code-log not installed (pip install claude-code-log, or CLAUDE_CODE_LOG=…): not compared"
    fi
fi
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

fail=0
check() { if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; then echo "  ok   $3"; else echo "  MISS $3"; fail=1; fi; }
echo "==> targets"
check "$size" 13400000 "file $(mb "$size") <= 13.4 MB"
if [ -f "$out/claude-replay.fig" ]; then
    read -r rsize _ _ < "$out/claude-replay.fig"
    check "$size" "$rsize" "file $(mb "$size") <= claude-replay's $(mb "$rsize") for this log"
fi
check "$export_s" 3 "export $export_s s < 3 s"
check "$first" 1000 "first rows $first ms < 1000 ms (warm)"
check "$done_ms" 5000 "fully loaded $done_ms ms < 5000 ms (warm)"
if [ -n "$cold_first" ]; then
    check "$cold_first" 1000 "first rows $cold_first ms < 1000 ms (cold; worst $cold_worst ms)"
    check "$cold_done" 5000 "fully loaded $cold_done ms < 5000 ms (cold)"
fi
check "$requests" 0 "network requests: $requests"

# The README's table.
fig() { # name → "size | time | RSS" of a peer, or dashes
    if [ -f "$out/$1.fig" ]; then
        read -r fs fw fr < "$out/$1.fig"
        echo "$(mb "$fs") | $fw s | $fr MB"
    else
        echo "— | — | —"
    fi
}
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo
echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($cpu), load average $load_start → $load_end;"
echo "$(basename "$FILE"): $(printf "%'d" "$lines") lines, $(mb "$in_bytes"); hiveterm $("$BIN" --version | awk '{ print $NF }') at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), medians of $RUNS (page: warm, then cold: $COLD_RUNS new browsers):"
echo
echo "| one file from the same transcript | size | written in | peak RSS | first rows (file://) | fully loaded |"
echo "|---|---:|---:|---:|---:|---:|"
cold_fig=""
[ -n "$cold_first" ] && cold_fig="; cold **$cold_first ms** (worst $cold_worst)"
cold_done_fig=""
[ -n "$cold_done" ] && cold_done_fig="; cold $cold_done ms"
echo "| **hiveterm export** | **$(mb "$size")** | **$export_s s** ($export_cpu s CPU) | $export_rss MB | **$first ms**$cold_fig | **$done_ms ms**$cold_done_fig |"
echo "| claude-replay ${replay_v:-(not run)} | $(fig claude-replay) | — | — |"
echo "| claude-code-log ${ccl_v:-(not run)} | $(fig claude-code-log) | — | — |"
echo "| target | ≤ 13.4 MB and ≤ claude-replay's | < 3 s | | < 1,000 ms | < 5,000 ms |"
exit "$fail"
