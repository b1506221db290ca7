#!/usr/bin/env bash
# Where the page's main thread spends its time while a log is opened offline: builds the page
# into $TMPDIR/hiveterm-dist-names with its wasm function names kept (the page's wasm not run
# through wasm-opt, which would drop them; index.html is put back as it was), then runs
# e2e/profile-page.mjs on LOG: a CPU profile from the drop to every row classified, self time
# by function. Not a benchmark (the profiler slows the page down); it says where to look.
# Found this way (2026-12-05): the shown list built again at every chunk's summary, 8 of the
# 11.8 s a 1 GB Gemini recording took to open.
# Usage: scripts/profile-page.sh LOG
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
[ "$#" -eq 1 ] || { echo "usage: scripts/profile-page.sh LOG" >&2; exit 2; }
export PATH="$ROOT/e2e/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
DIST="${TMPDIR:-/tmp}/hiveterm-dist-names"
cp index.html "$DIST.index.html"
trap 'cp "$DIST.index.html" index.html; rm -f "$DIST.index.html"' EXIT
sed -i 's|data-bin="app" data-cargo-profile="page" data-wasm-opt="z" data-wasm-opt-params="--converge" data-type="main" />|data-bin="app" data-cargo-profile="page" data-wasm-opt="0" data-type="main" data-keep-debug />|' index.html
grep -q 'data-keep-debug' index.html || { echo "profile-page: index.html's app link is not as expected" >&2; exit 1; }
trunk build --release --dist "$DIST"
node e2e/profile-page.mjs "$1" "$DIST"
