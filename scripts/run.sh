#!/usr/bin/env bash
# THE run command: installs what it needs, builds hiveterm, and classifies a bundled sample log
# (a real Claude Code session that reads and edits files), printing its rows readably.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

"$ROOT/scripts/setup.sh"
echo "==> cargo build --release -p hiveterm"
cargo build --release -p hiveterm
echo "==> hiveterm classify --pretty fixtures/claude-code-2.1.332/file_tools.stream.jsonl"
exec "$TARGET_DIR/release/hiveterm" classify --pretty fixtures/claude-code-2.1.332/file_tools.stream.jsonl
