#!/usr/bin/env bash
# Installs everything hiveterm's build and tests need on a fresh Debian machine that already has
# rustup/cargo, gcc, python3, node 20 + npm and git. Idempotent: each step checks first and does
# nothing when its tool is already there at the pinned version. Fails loudly on the first error.
#
#   apt:    chromium, chromium-driver   (headless browser tests; Debian's current build)
#           fonts-noto-color-emoji      (so the tests' screenshots show the rows' icons)
#           llvm-19, with --pgo only    (llvm-profdata for scripts/pgo-profile.sh; the build
#                                        itself reads the committed profile and needs nothing)
#   rustup: target wasm32-unknown-unknown; components rustfmt, clippy
#   cargo:  wasm-bindgen-cli 0.2.130    (must equal the wasm-bindgen crate pinned in Cargo.lock)
#           trunk 0.21.14               (builds the page)
#   npm:    e2e/package.json + package-lock.json, installed with `npm ci` into e2e/node_modules
#           (binaryen 132 for wasm-opt, playwright-core for the page's browser tests)
set -euo pipefail

WASM_BINDGEN_VERSION=0.2.130
TRUNK_VERSION=0.21.14
APT_PACKAGES=(chromium chromium-driver fonts-noto-color-emoji)
for arg in "$@"; do
    case "$arg" in
        --pgo) APT_PACKAGES+=(llvm-19) ;;
        *) echo "setup: unknown argument $arg (known: --pgo)" >&2; exit 2 ;;
    esac
done

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$CARGO_BIN:$PATH"

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
die() { printf '\033[1;31msetup: FAILED:\033[0m %s\n' "$*" >&2; exit 1; }
trap 'die "command failed (line $LINENO): $BASH_COMMAND"' ERR

for tool in rustup cargo npm node; do
    command -v "$tool" >/dev/null || die "$tool is not installed; this script expects rustup/cargo and node 20 + npm"
done

# --- apt packages -------------------------------------------------------------------------
# Debian stable replaces old package versions on security updates, so these are not pinned to a
# version: the browser is whatever the machine's Debian ships (chromium and chromedriver always
# come from the same source package, so they match each other).
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    if [ "$status" != "install ok installed" ]; then
        missing+=("$pkg")
    fi
done
if [ "${#missing[@]}" -eq 0 ]; then
    say "apt: ${APT_PACKAGES[*]} already installed"
else
    SUDO=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "not root and no sudo: cannot apt-get install ${missing[*]}"
        SUDO=(sudo)
    fi
    say "apt: installing ${missing[*]}"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after install"
[ -x /usr/bin/chromedriver ] || die "/usr/bin/chromedriver missing after install"

# --- rustup -------------------------------------------------------------------------------
# Listings are read into variables first: `cmd | grep -q` under pipefail can fail on SIGPIPE.
targets="$(rustup target list --installed)"
components="$(rustup component list --installed)"
if grep -qx wasm32-unknown-unknown <<<"$targets"; then
    say "rustup: target wasm32-unknown-unknown already installed"
else
    say "rustup: adding target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi
for comp in rustfmt clippy; do
    if grep -q "^$comp-" <<<"$components"; then
        say "rustup: component $comp already installed"
    else
        say "rustup: adding component $comp"
        rustup component add "$comp"
    fi
done

# --- cargo-installed tools ----------------------------------------------------------------
# `tool --version` prints e.g. "wasm-bindgen 0.2.130" / "trunk 0.21.14".
has_version() { command -v "$1" >/dev/null && [ "$("$1" --version 2>/dev/null | awk '{print $2}')" = "$2" ]; }

if has_version wasm-bindgen "$WASM_BINDGEN_VERSION"; then
    say "cargo: wasm-bindgen-cli $WASM_BINDGEN_VERSION already installed"
else
    # Deliberately without --locked (the project's toolchain notes say so).
    say "cargo: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (several minutes)"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi
has_version wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION" \
    || die "wasm-bindgen-test-runner is not version $WASM_BINDGEN_VERSION"

if has_version trunk "$TRUNK_VERSION"; then
    say "cargo: trunk $TRUNK_VERSION already installed"
else
    say "cargo: installing trunk $TRUNK_VERSION (several minutes)"
    cargo install "trunk@$TRUNK_VERSION" --locked --force
fi
has_version trunk "$TRUNK_VERSION" || die "trunk is not version $TRUNK_VERSION after install"

# --- npm tools (pinned by e2e/package-lock.json) ------------------------------------------
# `npm ci` wipes and reinstalls, so it runs only when the lock file changed since the last run.
E2E="$ROOT/e2e"
stamp="$E2E/node_modules/.hiveterm-lock.sha256"
want="$(sha256sum "$E2E/package-lock.json" | awk '{print $1}')"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    say "npm: e2e/node_modules matches e2e/package-lock.json"
else
    say "npm: npm ci in e2e/"
    (cd "$E2E" && npm ci --no-audit --no-fund)
    echo "$want" >"$stamp"
fi
wasm_opt_version="$("$E2E/node_modules/.bin/wasm-opt" --version)"
case "$wasm_opt_version" in
    *version_132*) say "npm: $wasm_opt_version" ;;
    *) die "e2e/node_modules/.bin/wasm-opt is not version 132: $wasm_opt_version" ;;
esac

say "done"
