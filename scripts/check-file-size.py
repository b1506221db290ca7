#!/usr/bin/env python3
"""No Rust source file over LIMIT lines of non-test code (issue 19; code lines since issue 52).

Counts every `.rs` file under a crate's `src/` (so `tests/`, `benches/` and `examples/` are
not counted), leaving out:
  - the body of a `#[cfg(test)]` module written inline (`#[cfg(test)] mod tests { … }`),
    from its attribute to its closing brace at the same indentation (rustfmt's layout);
  - files that are test modules themselves: a file whose first item is `#![cfg(test)]`, or a
    file only declared by a `#[cfg(test)] mod x;` line (e.g. `state_tests.rs`).
and leaving out blank lines and comment lines (`//`, `///`, `//!`, a `/* … */` block): a line
counts when code is left on it once comments are out, so trimming comments does not make a
file fit (issue 52). A line of a multi-line string literal is code and counts.

Usage: scripts/check-file-size.py [--limit N] [CRATE_DIR ...]   (default: every workspace
member: classifier onefile server app). Exits 1, listing every file over the limit, largest
first. `--self-test` checks the counter on small synthetic files.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rust_source import rust_files, strip  # noqa: E402

LIMIT = 400
CRATES = ["classifier", "onefile", "server", "app"]

CFG_TEST = re.compile(r"^\s*#\[cfg\(test\)\]\s*$")
MOD_OPEN = re.compile(r"^(\s*)(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*\{\s*$")
MOD_DECL = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*;\s*$")
PATH_ATTR = re.compile(r'^\s*#\[path\s*=\s*"([^"]+)"\]\s*$')


def count(lines):
    """Code lines of `lines` outside inline `#[cfg(test)]` modules."""
    code = strip("\n".join(lines), keep_strings=True).split("\n")
    n = 0
    i = 0
    while i < len(lines):
        if CFG_TEST.match(code[i]):
            # Attributes (e.g. #[allow(...)]), comments and blank lines may come between the
            # cfg and the `mod … {`.
            j = i + 1
            while j < len(lines) and (code[j].lstrip().startswith("#[") or not code[j].strip()):
                j += 1
            m = MOD_OPEN.match(code[j]) if j < len(lines) else None
            if m:
                indent = m.group(1)
                k = j + 1
                while k < len(lines) and code[k].rstrip() != indent + "}":
                    k += 1
                i = k + 1
                continue
        if code[i].strip():
            n += 1
        i += 1
    return n


def test_only_files(src):
    """Files declared only under #[cfg(test)] (`#[cfg(test)] mod x;`), or `#![cfg(test)]`."""
    out = set()
    for path, text in rust_files(src):
        root, f = os.path.split(path)
        lines = text.split("\n")
        stripped = [l for l in lines if l.strip() and not l.strip().startswith("//")]
        if stripped and stripped[0].strip() == "#![cfg(test)]":
            out.add(os.path.normpath(path))
        # Where `path`'s child modules live: a mod.rs/lib.rs/main.rs holds its siblings,
        # foo.rs holds foo/.
        base = f[:-3]
        if base in ("mod", "lib", "main") or path.endswith("/src/bin/" + f):
            child_dir = root
        else:
            child_dir = os.path.join(root, base)
        for i, l in enumerate(lines):
            m = MOD_DECL.match(l)
            if not m:
                continue
            attrs = []
            j = i - 1
            while j >= 0 and lines[j].lstrip().startswith("#["):
                attrs.append(lines[j])
                j -= 1
            if not any(CFG_TEST.match(a) for a in attrs):
                continue
            explicit = [PATH_ATTR.match(a) for a in attrs]
            explicit = [p.group(1) for p in explicit if p]
            if explicit:
                cands = [os.path.join(root, explicit[0])]
            else:
                name = m.group(3)
                cands = [os.path.join(child_dir, name + ".rs"),
                         os.path.join(child_dir, name, "mod.rs")]
            for c in cands:
                out.add(os.path.normpath(c))
    return out


def check(crates, limit):
    over = []
    for crate in crates:
        src = os.path.join(crate, "src")
        if not os.path.isdir(src):
            print(f"check-file-size: no {src}", file=sys.stderr)
            sys.exit(2)
        skip = test_only_files(src)
        for path, text in rust_files(src):
            path = os.path.normpath(path)
            if path in skip:
                continue
            n = count(text.splitlines())
            if n > limit:
                over.append((n, path))
    return sorted(over, reverse=True)


def self_test():
    import tempfile

    body = ["fn a() {}"] * 5
    tests = ["#[cfg(test)]", "mod tests {", "    use super::*;", "    fn t() {", "    }", "}"]
    assert count(body + tests) == 5, count(body + tests)
    assert count(body + ["#[cfg(test)]", "#[allow(x)]", "mod t {", "}"] + body) == 10
    # A nested `}` at the module's indentation + 4 does not end it; one at its own does.
    assert count(["mod outer {", "    #[cfg(test)]", "    mod tests {", "    }", "}"]) == 2
    # #[cfg(test)] on something other than a module counts.
    assert count(["#[cfg(test)]", "fn only_in_tests() {}"]) == 2
    # Issue 52: comments and blank lines do not count; code with a comment after it does; a
    # multi-line string's lines do; `//` inside a string is no comment.
    assert count(["//! a module", "", "/// a doc", "fn a() {} // why", "/* one", "   two */",
                  "    // indented", "/* x */ fn b() {}"]) == 2
    assert count(["const S: &str = \"one", "// not a comment", "", "three\";"]) == 4
    assert count(["const U: &str = \"http://x\";", "/* /* nested */ still */"]) == 1
    assert count(["#[cfg(test)]", "// a comment between", "mod t {", "    fn t() {}", "}"]) == 0
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "c", "src")
        os.makedirs(os.path.join(src, "big"))
        w = lambda p, ls: open(os.path.join(src, p), "w").write("\n".join(ls) + "\n")
        w("lib.rs", ["mod big;", "#[cfg(test)]", "mod lib_tests;"] + body)
        w("lib_tests.rs", ["fn x() {}"] * 50)  # test-only: not counted
        w("big.rs", ["fn x() {}"] * 11 + tests)  # 11 counted
        w("commented.rs", ["// a comment"] * 30 + ["fn x() {}"] * 10 + [""] * 30)  # 10: fits
        w("big/ok.rs", ["fn x() {}"] * 10)
        w("only.rs", ["#![cfg(test)]"] + ["fn x() {}"] * 50)
        over = check([os.path.join(d, "c")], 10)
        assert [p for _, p in over] == [os.path.join(src, "big.rs")], over
        assert over[0][0] == 11, over
    print("check-file-size: self-test passed", file=sys.stderr)


def main(argv):
    limit = LIMIT
    crates = []
    it = iter(argv)
    for a in it:
        if a == "--self-test":
            self_test()
            return 0
        if a == "--limit":
            limit = int(next(it))
        else:
            crates.append(a.rstrip("/"))
    over = check(crates or CRATES, limit)
    if over:
        print(f"source files over {limit} lines of non-test code (issue 19):", file=sys.stderr)
        for n, p in over:
            print(f"  {n:5}  {p}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
