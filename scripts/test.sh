#!/usr/bin/env bash
# THE test command: installs what it needs (scripts/setup.sh), then runs every check the CI
# runs, stopping at the first failure. Run from anywhere: ./scripts/test.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Tools installed by setup.sh: cargo's bin dir, then the pinned npm tools (wasm-opt 132 must
# win over any older system wasm-opt).
export PATH="$ROOT/e2e/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# A run from a fresh clone gains nothing from incremental compilation, whose caches more than
# double target/'s size (CI once ran out of disk); set CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

# Where cargo puts its output (CARGO_TARGET_DIR is honoured, as cargo does).
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

started=$SECONDS
# Each step says the disk space left where cargo writes (a CI run once died of a full disk:
# the linker's SIGBUS).
step() {
    printf '\n\033[1;34m==> %s\033[0m\n' "$*"
    mkdir -p "$TARGET_DIR"
    printf '(%s s; %s free in %s)\n' "$((SECONDS - started))" \
        "$(df -h --output=avail "$TARGET_DIR" | tail -1 | tr -d ' ')" "$TARGET_DIR"
}
trap 'printf "\n\033[1;31mFAILED\033[0m in step above (line %s): %s\n" "$LINENO" "$BASH_COMMAND" >&2' ERR

step "setup (scripts/setup.sh)"
"$ROOT/scripts/setup.sh"

step "rustfmt"
cargo fmt --all --check

step "source files within 400 code lines (comments, blanks, tests out); no import circle, re-exports included; the classifier's shared layer knows no agent"
# Each script checks itself on synthetic crates first, so a broken check cannot pass silently
# (check-classifier-pure.sh and check-app-layers.sh run their own --self-test).
python3 "$ROOT/scripts/check-file-size.py" --self-test
python3 "$ROOT/scripts/check-file-size.py" classifier contract onefile server app
python3 "$ROOT/scripts/check-module-cycles.py" --self-test
python3 "$ROOT/scripts/check-module-cycles.py" classifier contract onefile server app
python3 "$ROOT/scripts/check-agent-peers.py" --self-test
python3 "$ROOT/scripts/check-agent-peers.py"

step "the classifier, onefile and contract are pure: no I/O, clock, threads or async (ARCHITECTURE.md)"
"$ROOT/scripts/check-classifier-pure.sh"

step "the page imports only the workers' protocol; no module-level singletons (ARCHITECTURE.md)"
"$ROOT/scripts/check-app-layers.sh"

step "one contract: no json! answers in the server, no hand .get(\"…\") of JSON in the page (issue 52)"
python3 "$ROOT/scripts/check-contract.py" --self-test
python3 "$ROOT/scripts/check-contract.py"

step "clippy (native, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

step "clippy (classifier and app on wasm32, -D warnings)"
# --lib --tests rather than --all-targets: the benchmarks use criterion, which is native-only.
cargo clippy -p classifier --target wasm32-unknown-unknown --lib --tests -- -D warnings
# The page's browser-only code (cfg(target_arch = "wasm32")) is compiled only here.
cargo clippy -p app --target wasm32-unknown-unknown --all-targets -- -D warnings
cargo clippy -p contract --target wasm32-unknown-unknown --lib --tests -- -D warnings

step "no inner_html outside the one allowed file"
"$ROOT/scripts/check-no-inner-html.sh"

step "tests (native)"
cargo test --workspace

step "the server's whole suite again, on PostgreSQL (127.0.0.1:5432, database test)"
# Every machine of this project runs PostgreSQL 15 there (issue 13); not running is a failure
# (every test that opens a database panics when it cannot connect: nothing is skipped). Each
# test gets a schema of its own (server/tests/common), so they run in parallel as on SQLite.
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }
# --workspace, as above, though only the server's tests read HIVETERM_TEST_DB: `-p hiveterm`
# resolves other features than the workspace does, so it compiled everything a second time
# (10 minutes and 3 GB more of target/; a CI run died of the full disk, the linker's SIGBUS).
# The other crates' tests run again in about two minutes.
HIVETERM_TEST_DB=postgres cargo test --workspace

step "golden tests compiled to wasm32, in headless Chromium"
"$ROOT/scripts/wasm-test.sh" -p classifier --test golden

step "page: trunk build --release (dist/, carried by the release hiveterm built next)"
# The page first: server/build.rs embeds dist/ in the binary, so `hiveterm serve` and
# `hiveterm export` (and their end-to-end tests below) use this build.
trunk build --release

step "release build of hiveterm (profile-guided: scripts/pgo-env.sh)"
source "$ROOT/scripts/pgo-env.sh"
cargo build --release -p hiveterm

step "conformance: Claude Code fixtures"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" fixtures/claude-code-2.1.332 --strict

step "conformance: Gemini CLI fixtures"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" fixtures/gemini-0.61.0 --strict

step "conformance: Codex CLI fixtures"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" fixtures/codex-0.171.0 --strict

step "conformance: OpenCode fixtures"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" fixtures/opencode-1.18.33 --strict

step "conformance: Qwen Code fixtures"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" fixtures/qwen-0.24.4 --strict

step "conformance: Copilot CLI fixtures"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" fixtures/copilot-1.0.102 --strict

step "conformance: hyperhive fixtures"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" fixtures/hyperhive --strict

step "conformance: hostile logs"
python3 checks/conformance.py "$TARGET_DIR/release/hiveterm" classifier/tests/hostile --hostile

# --- the page (app/) -----------------------------------------------------------------------
# Hooks for the page (issue 4). Each runs only once its inputs exist, so this script works
# before the page lands. trunk, wasm-bindgen and wasm-opt 132 are installed and on PATH by
# setup.sh; playwright-core is in e2e/node_modules (use executablePath '/usr/bin/chromium' and
# the Chromium flags of classifier/webdriver.json).
step "page: bundle budget, <Row> shapes in Chromium, end-to-end (scripts/test-page.sh)"
# dist/ is built above (the page the release hiveterm carries); runs the page's browser tests
# one file at a time so the big-log figures are not skewed by parallel files.
"$ROOT/scripts/test-page.sh" --no-build

step "all checks passed in $((SECONDS - started)) s"
