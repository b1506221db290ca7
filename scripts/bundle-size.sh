#!/usr/bin/env bash
# Prints the page's bundle size: the wasm and JS the page loads (dist/, built by trunk),
# each gzipped (-9), and fails when the total is over the budget (default 500 KB).
# Usage: scripts/bundle-size.sh [DIST_DIR] [BUDGET_KB]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="${1:-$ROOT/dist}"
BUDGET_KB="${2:-500}"
total=0
shopt -s nullglob
for f in "$DIST"/*.wasm "$DIST"/*.js; do
    raw=$(stat -c %s "$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    total=$((total + gz))
    printf '  %-40s %8d bytes  %8d gzipped\n' "$(basename "$f")" "$raw" "$gz"
done
printf 'bundle: %d bytes gzipped (%.1f KB; budget %d KB)\n' "$total" "$(echo "$total/1000" | bc -l)" "$BUDGET_KB"
if [ "$total" -eq 0 ]; then
    echo "bundle-size: nothing in $DIST; run trunk build --release first" >&2
    exit 1
fi
if [ "$total" -gt $((BUDGET_KB * 1000)) ]; then
    echo "bundle-size: over budget" >&2
    exit 1
fi
