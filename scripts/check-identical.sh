#!/usr/bin/env bash
# Byte identity of a refactor (issue 47.1): `hiveterm classify` and `hiveterm summary --json` of
# every log the repository and the shared corpora hold (*.jsonl, *.json, *.jsonl.zst under
# fixtures/, classifier/tests/hostile/, ../shared/corpus-agents/, ../shared/corpus-more/),
# recorded once before a change and compared after it. Exit 1 on any difference, naming it.
#
# Usage: scripts/check-identical.sh record DIR    (the outputs into DIR, made anew)
#        scripts/check-identical.sh compare DIR   (the outputs again, against DIR's)
#   env: HIVETERM (default $CARGO_TARGET_DIR/release/hiveterm, else target/release/hiveterm),
#        SHARED (default ../shared beside the repository)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MODE="${1:?record or compare}"
DIR="${2:?a folder for the outputs}"
HIVETERM="${HIVETERM:-${CARGO_TARGET_DIR:-$ROOT/target}/release/hiveterm}"
SHARED="${SHARED:-$ROOT/../shared}"
[ -x "$HIVETERM" ] || { echo "no $HIVETERM: build it (cargo build --release -p hiveterm)" >&2; exit 1; }

logs() {
    for d in fixtures classifier/tests/hostile "$SHARED/corpus-agents" "$SHARED/corpus-more"; do
        [ -d "$d" ] || { echo "missing $d (set SHARED)" >&2; exit 1; }
        find "$d" -type f \( -name '*.jsonl' -o -name '*.json' -o -name '*.jsonl.zst' \)
    done | LC_ALL=C sort
}

out="$DIR"
[ "$MODE" = record ] && { rm -rf "$DIR"; mkdir -p "$DIR"; }
[ "$MODE" = compare ] && { out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT; }
n=0
while IFS= read -r log; do
    key="$(printf '%s' "${log#"$SHARED"/}" | tr '/' '%')"
    # Exit status kept with the output: a log the CLI refuses is compared as such.
    { "$HIVETERM" classify "$log" 2>&1; echo "exit $?"; } >"$out/$key.classify" || true
    { "$HIVETERM" summary --json "$log" 2>&1; echo "exit $?"; } >"$out/$key.summary" || true
    n=$((n + 1))
done < <(logs)
if [ "$MODE" = record ]; then
    echo "recorded $n logs into $DIR" >&2
    exit 0
fi
if diff -rq "$DIR" "$out" >&2; then
    echo "byte-identical: classify and summary --json of $n logs" >&2
else
    echo "DIFFERENT (above); e.g. diff $DIR/<name> against a fresh run" >&2
    exit 1
fi
