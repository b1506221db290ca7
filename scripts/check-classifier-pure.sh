#!/usr/bin/env bash
# ARCHITECTURE.md invariant 8: the classifier and onefile are pure. The check reads the code
# (use trees expanded, comments and strings out): scripts/check-classifier-pure.py says what it
# sees. It tests itself on synthetic files first.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python3 "$ROOT/scripts/check-classifier-pure.py" --self-test
exec python3 "$ROOT/scripts/check-classifier-pure.py" "$@"
