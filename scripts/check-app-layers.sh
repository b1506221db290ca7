#!/usr/bin/env bash
# ARCHITECTURE.md invariant 10, the page's part: outside app/src/worker/ (and the workers'
# entries in app/src/bin/), code imports only `worker::protocol` from the workers' folder, and
# no app module keeps module-level mutable state (thread_local!, static mut, lazily set
# statics): what serves a log is owned by the log and handed down by context. Doc comments
# may name worker modules; code may not use them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="${1:-$ROOT/app/src}"
fail=0
code() { grep -rnE "$1" "$SRC" --include='*.rs' | grep -vE '^[^:]+:[0-9]+:\s*//' || true; }
reach="$(code '(crate|app)::worker::([a-z_]+|\{)' | grep -vE "^$SRC/(worker|bin)/" | grep -vE '(crate|app)::worker::protocol\b' || true)"
if [ -n "$reach" ]; then
    printf 'the page reaches into the workers past their protocol:\n%s\n' "$reach" >&2
    fail=1
fi
globals="$(code '\bthread_local!|\bstatic\s+mut\b|\b(OnceLock|OnceCell|LazyLock|LazyCell)\b')"
if [ -n "$globals" ]; then
    printf 'module-level mutable state in the page:\n%s\n' "$globals" >&2
    fail=1
fi
[ "$fail" -eq 0 ] && echo "app: the page imports only worker::protocol; no module-level singletons"
exit "$fail"
