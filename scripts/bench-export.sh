#!/usr/bin/env bash
# The one-file export benchmark (issue 11, "Small and fast"); doubles as a check of its targets.
#
# On the 100,000-line benchmark transcript (scripts/gen-big-transcript.py, written once to
# bench-data/big.transcript.jsonl): times `hiveterm export` RUNS times (median), prints the
# file's size, then opens it from file:// in headless Chromium RUNS times (e2e/bench-export.mjs):
# first rows on screen and fully loaded, from navigation start. For the record it also prints
# what embedding the raw log instead would weigh (deflated, base64), and, when they are
# installed (`npm i -g claude-replay`, `pip install claude-code-log`, or CLAUDE_REPLAY /
# CLAUDE_CODE_LOG naming them), the size and time of claude-replay's and claude-code-log's
# single-file output for the same transcript.
# Exits 1 if a target is missed: file <= 13.4 MB (claude-replay's single file for a 146 MB
# transcript), export < 3 s, first rows < 1 s, fully loaded < 5 s. Not run in CI.
#
# Usage: scripts/bench-export.sh [LOG]     env: RUNS=3
# Needs the release hiveterm carrying the page (trunk build --release, then
# cargo build --release -p hiveterm) and e2e/node_modules (scripts/setup.sh).
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

in_bytes=$(stat -c %s "$FILE")
echo "log: $FILE, $(wc -l < "$FILE") lines, $(mb "$in_bytes")"
echo "==> hiveterm export, $RUNS runs"
: > "$out/times"
for i in $(seq 1 "$RUNS"); do
    /usr/bin/time -f "%e %U %M" -o "$out/time" "$BIN" export "$FILE" -o "$out/big.html" 2> "$out/err" || { cat "$out/err" >&2; exit 1; }
    read -r wall user rss < "$out/time"
    echo "  run $i: $wall s wall, $user s user, peak RSS $((rss / 1024)) MB — $(tail -1 "$out/err")"
    echo "$wall" >> "$out/times"
done
export_s=$(median < "$out/times")
size=$(stat -c %s "$out/big.html")
raw_deflated=$(gzip -6 -c "$FILE" | wc -c)
echo "file: $(mb "$size") ($size bytes); median export $export_s s"
echo "for the record, the raw log instead: gzip -6 $(mb "$raw_deflated"), base64 $(mb $((raw_deflated * 4 / 3)))"

echo "==> opened from file:// in headless Chromium, $RUNS runs"
node e2e/bench-export.mjs "$out/big.html" "$RUNS" | tee "$out/page"
page=$(tail -1 "$out/page")
first=$(node -e 'console.log(JSON.parse(process.argv[1]).first)' "$page")
done_ms=$(node -e 'console.log(JSON.parse(process.argv[1]).done)' "$page")
requests=$(node -e 'console.log(JSON.parse(process.argv[1]).requests)' "$page")

replay="${CLAUDE_REPLAY:-$(command -v claude-replay || true)}"
if [ -n "$replay" ]; then
    echo "==> claude-replay ($("$replay" --version 2>/dev/null || echo installed))"
    /usr/bin/time -f "%e" -o "$out/time" "$replay" "$FILE" -o "$out/replay.html" --title big > /dev/null 2>&1
    echo "  $(mb "$(stat -c %s "$out/replay.html")") in $(cat "$out/time") s"
else
    echo "==> claude-replay not installed (npm i -g claude-replay): not compared"
fi
ccl="${CLAUDE_CODE_LOG:-$(command -v claude-code-log || true)}"
if [ -n "$ccl" ]; then
    echo "==> claude-code-log"
    mkdir -p "$out/ccl" && ln -s "$FILE" "$out/ccl/big.jsonl"
    /usr/bin/time -f "%e" -o "$out/time" "$ccl" convert "$out/ccl/big.jsonl" -o "$out/ccl.html" > /dev/null 2>&1 || true
    if [ -f "$out/ccl.html" ]; then
        echo "  $(mb "$(stat -c %s "$out/ccl.html")") in $(cat "$out/time") s"
    else
        echo "  failed after $(cat "$out/time") s"
    fi
else
    echo "==> claude-code-log not installed (pip install claude-code-log): not compared"
fi

fail=0
check() { if awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; then echo "  ok   $3"; else echo "  MISS $3"; fail=1; fi; }
echo "==> targets"
check "$size" 13400000 "file $(mb "$size") <= 13.4 MB"
check "$export_s" 3 "export $export_s s < 3 s"
check "$first" 1000 "first rows $first ms < 1000 ms"
check "$done_ms" 5000 "fully loaded $done_ms ms < 5000 ms"
check "$requests" 0 "network requests: $requests"
exit "$fail"
