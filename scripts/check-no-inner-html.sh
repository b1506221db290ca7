#!/usr/bin/env bash
# One door for untrusted text: agent text reaches the DOM as escaped text, or as the output of
# classifier::markdown::render (run in the page's worker) inserted in exactly one place. This fails when raw-HTML insertion
# (inner_html, outerHTML, insertAdjacentHTML, srcdoc, document.write, …) appears in any other source file of
# app/, server/ or classifier/.
set -euo pipefail

# The one file allowed to insert HTML (classifier::markdown::render output), relative to the repo root.
ALLOWED="app/src/markdown/view.rs"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

dirs=()
for d in app server classifier; do
    [ -d "$d" ] && dirs+=("$d")
done
[ "${#dirs[@]}" -gt 0 ] || { echo "check-no-inner-html: no source folders found" >&2; exit 1; }

# Source files only (not build output, not golden data); grep -n prints file:line:text.
# Every way a string becomes markup: innerHTML (set_inner_html), setting outerHTML,
# insertAdjacentHTML, an iframe's srcdoc, document.write/writeln, createContextualFragment,
# React-style dangerouslySetInnerHTML.
PATTERN='inner_?html|set_outer_html|outerHTML[[:space:]]*[+]?=|insert_?adjacent_?html|srcdoc|document(\(\))?\.write(ln)?\b|create_?contextual_?fragment|dangerously'
hits="$(grep -rnIiE "$PATTERN" "${dirs[@]}" \
    --include='*.rs' --include='*.js' --include='*.mjs' --include='*.ts' --include='*.html' \
    --exclude-dir=target --exclude-dir=node_modules --exclude-dir=dist \
    | grep -v "^$ALLOWED:" || true)"

if [ -n "$hits" ]; then
    echo "check-no-inner-html: raw HTML insertion outside $ALLOWED:" >&2
    echo "$hits" >&2
    echo "Insert agent text as text, or render it with classifier::markdown::render in $ALLOWED." >&2
    exit 1
fi
echo "check-no-inner-html: ok (${dirs[*]}; only $ALLOWED may insert HTML)"
