#!/usr/bin/env bash
# The classify benchmark of issues 2, 10, 12, 20 and 24 ("How fast"); doubles as a check of their
# targets, on logs of several shapes.
#
# The floor is ../shared/bench/jsonl-baseline, built as it is (serde_json with default features,
# LTO, one codegen unit): read the file line by line and parse every line into a
# serde_json::Value. Logs (generated once, seeded, into bench-data/ unless given with --log):
#   big.transcript.jsonl    Claude Code, a long working session (158 MB: big tool outputs, file
#                           contents, markdown, the big bookkeeping lines)   gen-big-transcript.py
#   tools.transcript.jsonl  Claude Code, many small tool calls, few big bodies (--mix tools)
#   files.transcript.jsonl  Claude Code, every edit a new file, more subagents (--mix files)
#   huge.transcript.jsonl   Claude Code, few lines with huge bodies (--mix huge, 20,000 lines)
#   big.codex.jsonl         Codex CLI rollouts (gen-codex-log.py, 101 MB)
#   big.gemini.jsonl        Gemini CLI chat recordings (gen-gemini-log.py, 100 MB)
# On each, RUNS times (default 5), alternating:
#   baseline = the floor above (the figure the targets name)
#   floor    = the repo's in-process parse floor (classifier/examples/throughput.rs: 256 KiB
#              chunks + LineReader + serde_json::Value with the workspace's features)
#   classify = the same reading through classifier::LogClassifier (rows dropped at once)
#   summary  = classify with the summary fold on (LogClassifier::with_summary; issue 10)
# then the real commands end to end: `hiveterm classify FILE > /dev/null` (read, classify, write
# every envelope as JSON) and `hiveterm summary FILE`. It reports the medians of wall and CPU
# time, MB/s, peak RSS and the ratios.
#
# Checks (CPU time: user+system of the process; on a busy machine wall time also counts waiting
# for a core, which says nothing about the code — on an idle machine the two agree):
#   - `hiveterm classify` end to end <= MAX_E2E_RATIO (1.0) x jsonl-baseline  (issues 12, 20, 24)
#   - in-process classify <= MAX_RATIO (1.5) x the in-process floor, peak RSS < MAX_RSS_MB (64)
#   - the summary fold adds < 5% to classify; `hiveterm summary` <= 1.2x `hiveterm classify`
#     (issues 10, 24)
# and exits 1 if any is missed. Not run in CI: it is a benchmark and the figures depend on the
# machine and its load.
#
# Usage: scripts/bench-classify.sh [--log FILE]... [FILE...]   (default: the six logs above)
#   env: RUNS=5 MAX_RATIO=1.5 MAX_E2E_RATIO=1.0 MAX_RSS_MB=64
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

RUNS="${RUNS:-5}"
MAX_RATIO="${MAX_RATIO:-1.5}"
MAX_E2E_RATIO="${MAX_E2E_RATIO:-1.0}"
MAX_RSS_MB="${MAX_RSS_MB:-64}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
THROUGHPUT="$TARGET_DIR/release/examples/throughput"
HIVETERM="$TARGET_DIR/release/hiveterm"
BASELINE_SRC="$ROOT/../shared/bench/jsonl-baseline"
BASELINE="$TARGET_DIR/jsonl-baseline/release/jsonl-baseline"

logs=()
while [ "$#" -gt 0 ]; do
    case "$1" in
        --log) logs+=("$2"); shift 2 ;;
        --log=*) logs+=("${1#--log=}"); shift ;;
        -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
        *) logs+=("$1"); shift ;;
    esac
done

echo "==> building (release): the floor as it is, then ours profile-guided (scripts/pgo-env.sh)"
[ -f "$BASELINE_SRC/Cargo.toml" ] || { echo "the floor is missing: $BASELINE_SRC" >&2; exit 1; }
cargo build --release --manifest-path "$BASELINE_SRC/Cargo.toml" --target-dir "$TARGET_DIR/jsonl-baseline"
source "$ROOT/scripts/pgo-env.sh"
cargo build --release --example throughput -p classifier
cargo build --release -p hiveterm

D="$ROOT/bench-data"
if [ "${#logs[@]}" -eq 0 ]; then
    logs=("$D/big.transcript.jsonl" "$D/tools.transcript.jsonl" "$D/files.transcript.jsonl"
          "$D/huge.transcript.jsonl" "$D/big.codex.jsonl" "$D/big.gemini.jsonl")
fi
for file in "${logs[@]}"; do
    [ -f "$file" ] && continue
    case "$file" in
        "$D/big.transcript.jsonl") python3 scripts/gen-big-transcript.py --out "$file" ;;
        "$D/tools.transcript.jsonl") python3 scripts/gen-big-transcript.py --mix tools --out "$file" ;;
        "$D/files.transcript.jsonl") python3 scripts/gen-big-transcript.py --mix files --out "$file" ;;
        "$D/huge.transcript.jsonl") python3 scripts/gen-big-transcript.py --mix huge --lines 20000 --out "$file" ;;
        "$D/big.codex.jsonl") python3 scripts/gen-codex-log.py --out "$file" ;;
        "$D/big.gemini.jsonl") python3 scripts/gen-gemini-log.py "$file" 100 ;;
        *) echo "no such log: $file" >&2; exit 1 ;;
    esac
done
set -- "${logs[@]}"

echo "==> machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')"

stats="$(mktemp)"
trap 'rm -f "$stats"' EXIT

# One timed run of a command, its output thrown away: prints "WALL CPU PEAK_RSS_KB" (CPU and
# RSS from GNU time, /usr/bin/time, when installed; "unknown" otherwise).
timed() {
    local t0 t1 u s m
    t0=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%U %S %M' -o "$stats" "$@" >/dev/null
        read -r u s m <"$stats"
    else
        "$@" >/dev/null
        u=unknown s=unknown m=unknown
    fi
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" -v u="$u" -v s="$s" -v m="$m" 'BEGIN {
        printf "%.4f %s %s\n", b - a, (u ~ /^[0-9.]+$/) ? sprintf("%.2f", u + s) : "unknown", m }'
}

# One run of the in-process benchmark: prints "WALL CPU PEAK_RSS_KB" from its RESULT line.
throughput() {
    local out res
    out="$("$THROUGHPUT" "$1" "$2")"
    res="$(echo "$out" | grep '^RESULT')"
    echo "$(field secs <<<"$res") $(field cpu_secs <<<"$res") $(field peak_rss_kb <<<"$res")"
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
maxof() { printf '%s\n' "$@" | sort -g | tail -n1; }
over() { [[ "$1" =~ ^[0-9.]+$ && "$2" =~ ^[0-9.]+$ ]] && awk -v a="$1" -v b="$2" -v max="$3" 'BEGIN { exit !(b > 0 && a / b > max) }'; }

fail=0
MODES=(baseline floor classify summary e2e e2e_summary)
LABELS=("jsonl-baseline (floor)" "in-process floor" "classify" "classify + summary" "hiveterm classify" "hiveterm summary")
for FILE in "$@"; do
    echo
    echo "==> file: $FILE ($(wc -c <"$FILE") bytes)"
    echo "==> load before: $(uptime | sed 's/.*load average/load average/')"
    cat "$FILE" >/dev/null # warm the page cache: the first run does not pay for the disk
    declare -A wall=() cpu=() rss=()
    for i in $(seq 1 "$RUNS"); do
        for mode in "${MODES[@]}"; do
            case "$mode" in
                baseline) r="$(timed "$BASELINE" "$FILE")" ;;
                e2e) r="$(timed "$HIVETERM" classify "$FILE")" ;;
                e2e_summary) r="$(timed "$HIVETERM" summary "$FILE")" ;;
                *) r="$(throughput "$mode" "$FILE")" ;;
            esac
            read -r w c m <<<"$r"
            echo "  run $i $mode: $w s wall, $c s CPU, peak RSS $m KB"
            wall[$mode]+="$w " cpu[$mode]+="$c " rss[$mode]+="$m "
        done
    done
    echo "==> load after: $(uptime | sed 's/.*load average/load average/')"
    bytes="$(wc -c <"$FILE")"
    declare -A W=() C=() R=()
    printf 'median of %d runs          wall       CPU   MB/s(CPU)  peak RSS\n' "$RUNS"
    for k in "${!MODES[@]}"; do
        mode="${MODES[$k]}"
        # shellcheck disable=SC2086
        W[$mode]="$(median ${wall[$mode]})" C[$mode]="$(median ${cpu[$mode]})" R[$mode]="$(maxof ${rss[$mode]})"
        awk -v l="${LABELS[$k]}" -v w="${W[$mode]}" -v c="${C[$mode]}" -v r="${R[$mode]}" -v b="$bytes" 'BEGIN {
            printf "%-22s %7.3f s %7.3f s  %8s  %s\n", l, w, c,
                (c + 0 > 0) ? sprintf("%.1f", b / 1e6 / c) : "?",
                (r ~ /^[0-9]+$/) ? sprintf("%.1f MB", r / 1024) : "unknown" }'
    done
    ratio() { awk -v a="${C[$1]}" -v b="${C[$2]}" -v x="${W[$1]}" -v y="${W[$2]}" 'BEGIN {
        printf "%.3fx CPU (%.3fx wall)", (b + 0 > 0) ? a / b : 0, (y + 0 > 0) ? x / y : 0 }'; }
    echo "ratio hiveterm classify / jsonl-baseline: $(ratio e2e baseline)   target <= ${MAX_E2E_RATIO}x"
    echo "ratio classify / in-process floor:        $(ratio classify floor)   target <= ${MAX_RATIO}x"
    echo "ratio classify+summary / classify: $(ratio summary classify)   target < 1.05x"
    echo "ratio hiveterm summary / hiveterm classify: $(ratio e2e_summary e2e)   target <= 1.2x"
    if over "${C[e2e]}" "${C[baseline]}" "$MAX_E2E_RATIO"; then
        echo "FAIL: hiveterm classify takes more than ${MAX_E2E_RATIO}x jsonl-baseline (CPU)"
        fail=1
    fi
    if over "${C[classify]}" "${C[floor]}" "$MAX_RATIO"; then
        echo "FAIL: classify takes more than ${MAX_RATIO}x the floor (CPU)"
        fail=1
    fi
    if ! [[ "${R[classify]}" =~ ^[0-9]+$ ]]; then
        echo "FAIL: peak RSS unknown (no /proc/self/status)"
        fail=1
    elif awk -v r="${R[classify]}" -v max="$MAX_RSS_MB" 'BEGIN { exit !(r / 1024 >= max) }'; then
        echo "FAIL: classify peaks at ${MAX_RSS_MB} MB or more"
        fail=1
    fi
    if over "${C[summary]}" "${C[classify]}" 1.0499; then
        echo "FAIL: the summary fold adds 5% or more to classify (CPU)"
        fail=1
    fi
    if over "${C[e2e_summary]}" "${C[e2e]}" 1.2; then
        echo "FAIL: hiveterm summary takes more than 1.2x hiveterm classify (CPU)"
        fail=1
    fi
    unset wall cpu rss W C R
done
[ "$fail" = 0 ] && echo "OK: every target met"
exit "$fail"
