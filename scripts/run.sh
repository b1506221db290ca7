#!/usr/bin/env bash
# THE run command: installs what it needs, builds the page (trunk) and hiveterm (release), then
# starts `hiveterm serve` with the bundled demo sessions loaded (real Claude Code and hyperhive
# logs) and prints the URL to open. Ctrl-C stops it.
#
#   ./scripts/run.sh                 # http://127.0.0.1:7171/
#   HIVETERM_ADDR=127.0.0.1:8080 ./scripts/run.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/e2e/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
ADDR="${HIVETERM_ADDR:-127.0.0.1:7171}"

"$ROOT/scripts/setup.sh"
echo "==> trunk build --release (the page, into dist/)"
trunk build --release
echo "==> cargo build --release -p hiveterm (it carries the page just built; profile-guided: scripts/pgo-env.sh)"
source "$ROOT/scripts/pgo-env.sh"
cargo build --release -p hiveterm
# A fresh database each run, so the demo sessions are exactly the bundled logs.
DB="$TARGET_DIR/demo.db"
rm -f "$DB" "$DB-wal" "$DB-shm"
echo "==> hiveterm serve --demo (Ctrl-C stops it)"
exec "$TARGET_DIR/release/hiveterm" serve --demo --addr "$ADDR" --db "$DB"
