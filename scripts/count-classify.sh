#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of the classify benchmark's modes on the first LINES
# lines of each benchmark log: the same figures on an idle machine or a busy one, so the ratios
# the targets name (issue 10: the summary fold adds < 5 % to classify, `hiveterm summary` ≤ 1.2×
# `hiveterm classify`; issue 12: `hiveterm classify` ≤ 1.0× the Value floor) can be checked
# whatever else the machine is doing. Instructions are not seconds (cache misses and branch
# mispredictions are not counted): scripts/bench-classify.sh times the same modes on an idle machine.
#
# Usage: scripts/count-classify.sh [FILE...]   (default: the two logs of bench-classify.sh)
#   env: LINES=20000
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LINES="${LINES:-20000}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
THROUGHPUT="$TARGET_DIR/release/examples/throughput"
HIVETERM="$TARGET_DIR/release/hiveterm"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

cargo build --release --example throughput -p classifier
cargo build --release -p hiveterm
if [ "$#" -eq 0 ]; then
    set -- "$ROOT/bench-data/big.transcript.jsonl" "$ROOT/bench-data/tools.transcript.jsonl"
fi
cut="$(mktemp)"
trap 'rm -f "$cut"' EXIT

count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

for file in "$@"; do
    if [ ! -f "$file" ]; then
        mix=session
        [[ "$(basename "$file")" == tools.* ]] && mix=tools
        python3 "$ROOT/scripts/gen-big-transcript.py" --mix "$mix" --out "$file"
    fi
    head -n "$LINES" "$file" >"$cut"
    floor="$(count "$THROUGHPUT" floor "$cut")"
    classify="$(count "$THROUGHPUT" classify "$cut")"
    summary="$(count "$THROUGHPUT" summary "$cut")"
    e2e="$(count "$HIVETERM" classify "$cut")"
    e2e_summary="$(count "$HIVETERM" summary "$cut")"
    echo "==> $(basename "$file"), first $LINES lines ($(wc -c <"$cut") bytes): instructions"
    printf '  %-22s %15s\n' "floor (parse only)" "$floor" classify "$classify" "classify + summary" "$summary" \
        "hiveterm classify" "$e2e" "hiveterm summary" "$e2e_summary"
    echo "  classify + summary / classify:        $(ratio "$summary" "$classify")   target < 1.05"
    echo "  hiveterm summary / hiveterm classify: $(ratio "$e2e_summary" "$e2e")   target <= 1.2"
    echo "  hiveterm classify / floor:            $(ratio "$e2e" "$floor")   target <= 1.0"
done
