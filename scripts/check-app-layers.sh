#!/usr/bin/env bash
# ARCHITECTURE.md invariant 10, the page's part: outside app/src/worker/ (and the workers'
# entries in app/src/bin/) code names only `worker::protocol` of the workers' folder, and no
# app module keeps module-level mutable state. The check reads the code (use trees expanded,
# aliases followed, comments and strings out): scripts/check-app-layers.py says what it sees.
# It tests itself on synthetic files first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python3 "$ROOT/scripts/check-app-layers.py" --self-test
exec python3 "$ROOT/scripts/check-app-layers.py" "$@"
