#!/usr/bin/env python3
"""Trunk post-build hook: pins the page's Content-Security-Policy to its inline scripts.

index.html's CSP meta lists 'unsafe-inline' in script-src only as a placeholder: trunk adds an
inline module script (its wasm loader) whose text is known only after the build. This replaces
the placeholder with a 'sha256-…' source for each inline <script> of the built index.html, so
no other inline script can ever run. Usage: csp-hash.py [INDEX_HTML] (default:
$TRUNK_STAGING_DIR/index.html)."""
import base64
import hashlib
import os
import re
import sys

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.environ["TRUNK_STAGING_DIR"], "index.html")
html = open(path, encoding="utf-8").read()
hashes = []
for m in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S):
    attrs, body = m.group(1), m.group(2)
    if "src=" in attrs or not body.strip():
        continue
    digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
    hashes.append(f"'sha256-{digest}'")
if "'unsafe-inline'" not in html.split("script-src", 1)[-1].split(";", 1)[0]:
    sys.exit(0)  # already pinned
sources = " ".join(hashes) if hashes else "'none'"
head, tail = html.split("script-src", 1)
directive, rest = tail.split(";", 1)
directive = directive.replace("'unsafe-inline'", sources)
open(path, "w", encoding="utf-8").write(head + "script-src" + directive + ";" + rest)
print(f"csp-hash: script-src pinned to {len(hashes)} inline script(s)")
