#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of the classify benchmark's modes on the first LINES
# lines of each benchmark log: the same figures on an idle machine or a busy one, so the ratios
# the targets name (issue 10: the summary fold adds < 5 % to classify, `hiveterm summary` ≤ 1.2×
# `hiveterm classify`; issues 12, 20, 24: `hiveterm classify` ≤ 1.0× the floor,
# ../shared/bench/jsonl-baseline, on every shape of log) can be checked
# whatever else the machine is doing. Instructions are not seconds (cache misses and branch
# mispredictions are not counted): scripts/bench-classify.sh times the same modes on an idle machine.
#
# Usage: scripts/count-classify.sh [FILE...]   (default: the six logs of bench-classify.sh,
#   those not generated yet skipped: run scripts/bench-classify.sh once to make them)
#   env: LINES=20000
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
LINES="${LINES:-20000}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
THROUGHPUT="$TARGET_DIR/release/examples/throughput"
HIVETERM="$TARGET_DIR/release/hiveterm"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }

BASELINE_SRC="$ROOT/../shared/bench/jsonl-baseline"
BASELINE="$TARGET_DIR/jsonl-baseline/release/jsonl-baseline"
# The floor as it is, then ours profile-guided (scripts/pgo-env.sh).
cargo build --release --manifest-path "$BASELINE_SRC/Cargo.toml" --target-dir "$TARGET_DIR/jsonl-baseline"
source "$ROOT/scripts/pgo-env.sh"
cargo build --release --example throughput -p classifier
cargo build --release -p hiveterm
if [ "$#" -eq 0 ]; then
    D="$ROOT/bench-data"
    set -- "$D/big.transcript.jsonl" "$D/tools.transcript.jsonl" "$D/files.transcript.jsonl" \
        "$D/huge.transcript.jsonl" "$D/big.codex.jsonl" "$D/big.gemini.jsonl"
fi
cut="$(mktemp)"
trap 'rm -f "$cut"' EXIT

count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

for file in "$@"; do
    if [ ! -f "$file" ]; then
        echo "==> $(basename "$file"): not generated yet (scripts/bench-classify.sh makes it), skipped"
        continue
    fi
    head -n "$LINES" "$file" >"$cut"
    baseline="$(count "$BASELINE" "$cut")"
    floor="$(count "$THROUGHPUT" floor "$cut")"
    classify="$(count "$THROUGHPUT" classify "$cut")"
    summary="$(count "$THROUGHPUT" summary "$cut")"
    e2e="$(count "$HIVETERM" classify "$cut")"
    e2e_summary="$(count "$HIVETERM" summary "$cut")"
    echo "==> $(basename "$file"), first $LINES lines ($(wc -c <"$cut") bytes): instructions"
    printf '  %-22s %15s\n' "jsonl-baseline" "$baseline" "in-process floor" "$floor" classify "$classify" "classify + summary" "$summary" \
        "hiveterm classify" "$e2e" "hiveterm summary" "$e2e_summary"
    echo "  classify + summary / classify:        $(ratio "$summary" "$classify")   target < 1.05"
    echo "  hiveterm summary / hiveterm classify: $(ratio "$e2e_summary" "$e2e")   target <= 1.2"
    echo "  hiveterm classify / jsonl-baseline:   $(ratio "$e2e" "$baseline")   target <= 1.0"
done
