"""What the checks in scripts/ read of a Rust source file (issue 52): its code with comments
out, and its `use` trees expanded. Shared by check-module-cycles.py, check-file-size.py,
check-classifier-pure.py and check-app-layers.py, so each sees the code the same way."""
import os
import re


def rust_files(root):
    """Every `.rs` file under `root`, sorted: (path, text)."""
    for d, subdirs, files in os.walk(root):
        subdirs.sort()
        for f in sorted(files):
            if f.endswith(".rs"):
                p = os.path.join(d, f)
                with open(p, encoding="utf-8") as fh:
                    yield p, fh.read()


def strip(src, keep_strings=False):
    """Comments out (`//`, `///`, `//!`, nested `/* */`; newlines kept, so line numbers hold).
    String and char literals become `""` / `' '`; with `keep_strings`, each line a literal
    spans becomes `s` instead (a multi-line string is code, blank lines of it too)."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    if src[i] == "\n":
                        out.append("\n")
                    i += 1
        elif c in "rb" and re.match(r'b?r#*"', src[i:i + 260]) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', src[i:])
            end = src.find('"' + m.group(1), i + len(m.group(0)))
            end = n if end < 0 else end + 1 + len(m.group(1))
            out.append(_lines(src[i:end]) if keep_strings else '""' + "\n" * src.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            out.append(_lines(src[i:j + 1]) if keep_strings else '""' + "\n" * src.count("\n", i, j))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", src[i:])
            if m:
                out.append("s" if keep_strings else "' '")
                i += len(m.group(0))
            else:  # a lifetime
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _lines(literal):
    return "\n".join("s" for _ in literal.split("\n"))


USE_RE = re.compile(r"\b(pub(\([^)]*\))?\s+)?use\s+([^;]+);")


def expand_use(tree, aliases=False):
    """`a::{b, c::{d, e as f}, self}` → ['a::b', 'a::c::d', 'a::c::e', 'a'] (leading `::`
    dropped). With `aliases`, pairs (path, name it is known by here): ('a::c::e', 'f')."""
    tree = re.sub(r"\s+", " ", tree).strip()
    tree = re.sub(r"\s*::\s*", "::", tree)
    tree = re.sub(r"\s*([{},])\s*", r"\1", tree)

    def parse(s, i, prefix):
        paths = []
        cur = ""
        while i < len(s):
            ch = s[i]
            if ch == "{":
                inner, i = parse(s, i + 1, prefix + cur)
                paths += inner
                cur = None
                continue
            if ch == ",":
                if cur:
                    paths.append(prefix + cur)
                cur = ""
            elif ch == "}":
                if cur:
                    paths.append(prefix + cur)
                return paths, i + 1
            else:
                cur = (cur or "") + ch
            i += 1
        if cur:
            paths.append(prefix + cur)
        return paths, i

    out = []
    for p in parse(tree, 0, "")[0]:
        m = re.match(r"^(.*?)\s+as\s+(\w+)$", p)
        path, alias = (m.group(1), m.group(2)) if m else (p, None)
        path = re.sub(r"::self$", "", path.strip()).strip(":")
        if alias is None:
            alias = path.split("::")[-1]
        out.append((path, alias) if aliases else path)
    return out
