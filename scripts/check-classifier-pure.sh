#!/usr/bin/env bash
# ARCHITECTURE.md invariant 8: no I/O, clock, threads, environment or async in the classifier.
# Fails listing every line of classifier/src (and onefile/src, which is pure as well: bytes in,
# `impl Write` out) that names the file system, the network, the clock, threads, processes, the
# environment or async. A comment line is not code; a mention inside a string would be flagged
# too (none is needed).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pattern='std::(fs|net|thread|process|env)\b|SystemTime|Instant::|\basync (fn|move)\b|\.await\b|\btokio\b|\bstd::io::(stdin|stdout|stderr)\b'
if hits="$(grep -rnE "$pattern" "$ROOT/classifier/src" "$ROOT/onefile/src" --include='*.rs' | grep -vE '^[^:]+:[0-9]+:\s*//')"; then
    printf 'I/O, clock, threads or async in a pure crate (ARCHITECTURE.md, invariant 8):\n%s\n' "$hits" >&2
    exit 1
fi
echo "classifier and onefile: pure (no I/O, clock, threads, environment or async)"
