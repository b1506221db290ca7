#!/usr/bin/env bash
# The redaction benchmark (`hiveterm redact`; issue 25 asked that redacting what a reader sees,
# across lines, keep its speed). On the 158 MB benchmark transcript (scripts/gen-big-transcript.py,
# written once to bench-data/big.transcript.jsonl) it runs, RUNS times each, alternating:
#   redact   = `hiveterm redact FILE > /dev/null`
#   classify = `hiveterm classify FILE > /dev/null` (for scale: the same machine, the same load)
# and reports the medians of CPU time (user+system) and wall time, MB/s of redaction, peak
# RSS, the ratio redact/classify, and the load average. With BASELINE=/path/to/hiveterm it also
# times that binary's `redact` (an older build) and prints the ratio new/old.
# Checks: peak RSS < MAX_RSS_MB (64), and with a BASELINE, no more than MAX_SLOWER (1.10) x its
# CPU; exits 1 when one is missed. The ratio to classify is printed for scale (a load-robust
# figure to compare across machines). Not run in CI: the figures depend on the machine and
# its load.
#
# Usage: scripts/bench-redact.sh [FILE]   env: RUNS=5 MAX_RSS_MB=64 BASELINE= MAX_SLOWER=1.10
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET_DIR/release/hiveterm"
RUNS="${RUNS:-5}"
MAX_RSS_MB="${MAX_RSS_MB:-64}"
MAX_SLOWER="${MAX_SLOWER:-1.10}"
BASELINE="${BASELINE:-}"
FILE="${1:-$ROOT/bench-data/big.transcript.jsonl}"
[ -x "$BIN" ] || { echo "bench-redact: cargo build --release -p hiveterm first" >&2; exit 2; }
if [ ! -f "$FILE" ]; then
    echo "==> generating $FILE (once)"
    python3 scripts/gen-big-transcript.py --out "$FILE"
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
bytes=$(stat -L -c %s "$FILE")
echo "log: $FILE, $(wc -l < "$FILE") lines, $(awk -v b="$bytes" 'BEGIN { printf "%.1f MB", b / 1e6 }'); load $(cut -d' ' -f1-3 /proc/loadavg)"
modes="redact classify"
[ -n "$BASELINE" ] && modes="$modes baseline"
for i in $(seq 1 "$RUNS"); do
    for mode in $modes; do
        case "$mode" in
            redact) cmd=("$BIN" redact "$FILE") ;;
            classify) cmd=("$BIN" classify "$FILE") ;;
            baseline) cmd=("$BASELINE" redact "$FILE") ;;
        esac
        /usr/bin/time -f "%e %U %S %M" -o "$out/time" "${cmd[@]}" > /dev/null
        read -r wall user sys rss < "$out/time"
        echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss" >> "$out/$mode"
    done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
cpu() { awk '{ print $2 }' "$out/$1" | median; }
wall() { awk '{ print $1 }' "$out/$1" | median; }
rss() { awk '{ print int($3 / 1024) }' "$out/$1" | median; }
for mode in $modes; do
    printf "%-9s CPU %6.2f s  wall %6.2f s  %6.1f MB/s (CPU)  peak RSS %4d MB\n" "$mode" \
        "$(cpu "$mode")" "$(wall "$mode")" "$(awk -v b="$bytes" -v c="$(cpu "$mode")" 'BEGIN { print b / 1e6 / c }')" "$(rss "$mode")"
done
ratio=$(awk -v a="$(cpu redact)" -v b="$(cpu classify)" 'BEGIN { printf "%.3f", a / b }')
echo "redact / classify (CPU): ${ratio}x; load at the end $load_end; medians of $RUNS"
fail=0
[ "$(rss redact)" -lt "$MAX_RSS_MB" ] || { echo "MISSED: peak RSS $(rss redact) MB"; fail=1; }
if [ -n "$BASELINE" ]; then
    slower=$(awk -v a="$(cpu redact)" -v b="$(cpu baseline)" 'BEGIN { printf "%.3f", a / b }')
    echo "redact / baseline redact (CPU): ${slower}x (target <= ${MAX_SLOWER}x)"
    awk -v r="$slower" -v m="$MAX_SLOWER" 'BEGIN { exit !(r <= m) }' || { echo "MISSED: ${slower}x the baseline"; fail=1; }
fi
exit $fail
