#!/usr/bin/env bash
# Prints the page's bundle sizes (dist/, built by trunk), each file gzipped (-9):
#   page:   the wasm + JS every visit loads (app-*.js, app-*_bg.wasm); must be within the
#           budget (default 500 KB);
#   worker: the classifier's wasm + JS (worker_loader.js, worker.js, worker_bg.wasm), loaded
#           when a log is opened offline; held to WORKER_BUDGET_KB (default 520 KB: the 500 KB
#           of four agents' formats, and the 2026-12-07 room for OpenCode, Qwen Code and
#           Copilot CLI, measured in docs/BENCHMARKS.md, "Bundle sizes");
#   md:     the markdown worker (mdworker_loader.js, mdworker.js, mdworker_bg.wasm), loaded
#           when the first markdown body is shown; the same.
#   cmp:    the compare worker (cmpworker_loader.js, cmpworker.js, cmpworker_bg.wasm), loaded
#           when two logs are compared offline (issue 48); held to CMP_BUDGET_KB (default
#           500 KB: the classifier and the alignment, without the one-file export).
# Usage: scripts/bundle-size.sh [DIST_DIR] [BUDGET_KB]   (env: WORKER_BUDGET_KB=520,
#        CMP_BUDGET_KB=500)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="${1:-$ROOT/dist}"
BUDGET_KB="${2:-500}"
WORKER_BUDGET_KB="${WORKER_BUDGET_KB:-520}"
CMP_BUDGET_KB="${CMP_BUDGET_KB:-500}"
shopt -s nullglob
page=0
worker=0
md=0
cmp=0
for f in "$DIST"/*.wasm "$DIST"/*.js; do
    raw=$(stat -c %s "$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    case "$(basename "$f")" in
        worker*) worker=$((worker + gz)); part=worker ;;
        mdworker*) md=$((md + gz)); part=md ;;
        cmpworker*) cmp=$((cmp + gz)); part=cmp ;;
        *) page=$((page + gz)); part=page ;;
    esac
    printf '  %-6s %-36s %8d bytes  %8d gzipped\n' "$part" "$(basename "$f")" "$raw" "$gz"
done
printf 'page bundle:   %7d bytes gzipped (budget %d KB)\n' "$page" "$BUDGET_KB"
printf 'worker bundle: %7d bytes gzipped (budget %d KB; loaded when a log is opened offline)\n' "$worker" "$WORKER_BUDGET_KB"
printf 'md bundle:     %7d bytes gzipped (the markdown worker, loaded for the first markdown body)\n' "$md"
printf 'cmp bundle:    %7d bytes gzipped (budget %d KB; the compare worker, loaded to compare two logs offline)\n' "$cmp" "$CMP_BUDGET_KB"
if [ "$page" -eq 0 ]; then
    echo "bundle-size: nothing in $DIST; run trunk build --release first" >&2
    exit 1
fi
if [ "$page" -gt $((BUDGET_KB * 1000)) ] || [ "$worker" -gt $((WORKER_BUDGET_KB * 1000)) ] \
    || [ "$md" -gt $((BUDGET_KB * 1000)) ] || [ "$cmp" -gt $((CMP_BUDGET_KB * 1000)) ]; then
    echo "bundle-size: over budget" >&2
    exit 1
fi
