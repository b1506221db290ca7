#!/usr/bin/env bash
# Runs wasm32 tests in headless Chromium: `cargo test --target wasm32-unknown-unknown ARGS…`
# with wasm-bindgen-test-runner as the runner; it starts chromedriver, which starts Debian's
# chromium with the arguments in classifier/webdriver.json (headless, no sandbox, no network
# chatter). Needs what scripts/setup.sh installs.
#
#   scripts/wasm-test.sh -p classifier --test golden
#   scripts/wasm-test.sh -p app --test row_shapes
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER=/usr/bin/chromedriver
export WASM_BINDGEN_TEST_WEBDRIVER_JSON="$ROOT/classifier/webdriver.json"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-600}"
exec cargo test --target wasm32-unknown-unknown "$@"
