#!/usr/bin/env bash
# The page's tests: builds it with trunk (release), checks the bundle budget, runs the <Row>
# shape tests compiled to wasm in headless Chromium (wasm-bindgen-test), then the end-to-end
# tests (node --test e2e/tests: fixtures dropped offline, hostile log, big-log figures, live
# view against a running `hiveterm serve` when the binary has it).
#
# Usage: scripts/test-page.sh [--no-build] [--no-e2e]
#   BIG_LINES=N  size of the generated big log (default 100000; the figures are printed)
# Needs (scripts/setup.sh installs them): trunk 0.21.14, wasm-bindgen-cli 0.2.130, the
# wasm32 target, e2e/node_modules (binaryen 132, playwright-core), /usr/bin/chromium and
# /usr/bin/chromedriver.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/e2e/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# Turn times are local; the tests expect UTC.
export TZ=UTC

build=1
e2e=1
for arg in "$@"; do
    case "$arg" in
        --no-build) build=0 ;;
        --no-e2e) e2e=0 ;;
        *) echo "usage: scripts/test-page.sh [--no-build] [--no-e2e]" >&2; exit 2 ;;
    esac
done

if [ ! -d e2e/node_modules/playwright-core ]; then
    (cd e2e && npm ci --no-audit --no-fund)
fi

if [ "$build" = 1 ]; then
    echo "==> trunk build --release"
    trunk build --release
fi
echo "==> bundle size"
scripts/bundle-size.sh

echo "==> <Row> shapes (wasm-bindgen-test, headless Chromium)"
"$ROOT/scripts/wasm-test.sh" -p app --test row_shapes

if [ "$e2e" = 1 ]; then
    echo "==> end-to-end (node --test e2e/tests)"
    node --test --test-concurrency=1 e2e/tests/
fi
