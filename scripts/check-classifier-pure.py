#!/usr/bin/env python3
"""ARCHITECTURE.md invariant 8: no I/O, clock, threads, processes, environment or async in the
classifier, nor in onefile (bytes in, `impl Write` out).

Reads every `.rs` file under classifier/src, onefile/src and contract/src (tests written inline included)
with comments and strings out, and fails listing each line that:
  - names, by any path, `std::{fs, net, thread, process, env, os}`, `std::io::{stdin, stdout,
    stderr, Stdin, Stdout, Stderr}`, `std::time::{SystemTime, Instant}`, or globs `std::io::*`
    and `std::time::*` (which bring those in): a `use` tree is
    expanded (`use std::{fs, thread};` names std::fs and std::thread), a path written through a
    `use`d module or alias is followed (`use std::io as sio; sio::stdout()`), `::std` and `core`
    count as `std`;
  - calls `stdin()`, `stdout()` or `stderr()`, names `SystemTime` or `Instant`, the crates `tokio`, `async_std`, `futures`, `libc`, or
    writes `async` / `.await`;
  - calls `print!`, `println!`, `eprint!`, `eprintln!` or `dbg!` (they write to the process's
    streams).
A name inside a comment or a string is not code and is not flagged.

Usage: scripts/check-classifier-pure.py [DIR ...]   (default: classifier/src onefile/src contract/src).
`--self-test` runs it on small synthetic files first.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rust_source import USE_RE, expand_use, rust_files, strip  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ["classifier/src", "onefile/src", "contract/src"]

IMPURE = re.compile(r"^std::(fs|net|thread|process|env|os)(::|$)"
                    r"|^std::io::(stdin|stdout|stderr|Stdin|Stdout|Stderr)(::|$)"
                    r"|^std::time::(SystemTime|Instant)(::|$)|^std::(io|time)::\*$"
                    r"|^(tokio|async_std|futures|libc)(::|$)")
WORDS = re.compile(r"\b(SystemTime|Instant|tokio|async_std|futures|libc|async)\b|\.await\b"
                   r"|\b(stdin|stdout|stderr)\s*\("
                   r"|\b(e?print(ln)?|dbg)!")
PATH = re.compile(r"(?<![\w:])(::)?\w+(?:::\w+)+")


def canon(path, aliases):
    """A path as written → from `std` (or a crate) on: aliases followed, `::std`, `core`."""
    segs = [s for s in path.split("::") if s]
    for _ in range(10):
        if segs and segs[0] in aliases and aliases[segs[0]] != segs[:1]:
            segs = aliases[segs[0]] + segs[1:]
        else:
            break
    if segs and segs[0] in ("core", "alloc"):
        segs[0] = "std"
    return "::".join(segs)


def check_text(text):
    """Lines (number, text) of one file's source that are impure."""
    code = strip(text)
    lines = code.split("\n")
    bad = set()
    aliases = {}
    for u in USE_RE.finditer(code):
        ln = code.count("\n", 0, u.start())
        for path, alias in expand_use(u.group(3), aliases=True):
            segs = [s for s in path.split("::") if s]
            if segs and segs[-1] != "*":
                aliases[alias] = segs
    for u in USE_RE.finditer(code):
        ln = code.count("\n", 0, u.start())
        for path in expand_use(u.group(3)):
            if IMPURE.search(canon(path, aliases)):
                bad.add(ln)
    rest = USE_RE.sub(lambda m: "\n" * m.group(0).count("\n"), code)
    for i, line in enumerate(rest.split("\n")):
        if WORDS.search(line) or any(IMPURE.search(canon(p.group(0), aliases)) for p in PATH.finditer(line)):
            bad.add(i)
    raw = text.split("\n")
    return [(i + 1, raw[i].strip()) for i in sorted(bad)]


def check(dirs):
    out = []
    for d in dirs:
        for p, text in rust_files(d):
            out += [(p, n, l) for n, l in check_text(text)]
    return out


def self_test():
    def bad(src):
        return [n for n, _ in check_text(src)]

    assert bad("use std::fs;\n") == [1]
    assert bad("fn f() { std::fs::read(\"x\"); }\n") == [1]
    # Issue 52: a grouped use, nested groups, `::std`, `core`, aliases and modules used in.
    assert bad("use std::{fs, thread};\n") == [1]
    assert bad("use std::{\n    collections::HashMap,\n    io::{self, stdout},\n};\n") == [1]
    assert bad("use ::std::env;\n") == [1]
    assert bad("use std::{io as sio};\nfn f() { sio::stderr(); }\n") == [2]
    assert bad("use std::time;\nfn f() { time::Instant::now(); }\n") == [2]
    assert bad("use std::time::{Duration, SystemTime};\n") == [1]
    assert bad("fn f() { let _ = Instant::now(); }\n") == [1]
    assert bad("use std::io::*;\nfn f() { stdout(); }\n") == [1, 2]
    assert bad("async fn f() {}\nfn g() { x.await; }\n") == [1, 2]
    assert bad("fn f() { println!(\"x\"); eprintln!(\"y\"); }\nfn g() { dbg!(1); }\n") == [1, 2]
    # Pure code passes: std's pure modules, io's traits, names in comments and strings.
    assert bad("use std::{collections::HashMap, fmt::Write, io::Read, time::Duration};\n"
               "// std::fs::read\nconst S: &str = \"std::thread::spawn println!()\";\n"
               "fn f(w: &mut impl std::io::Write) { let _ = w; }\n") == []
    assert bad("/* use std::fs; */\nfn threads() {}\n") == []
    print("check-classifier-pure: self-test passed", file=sys.stderr)


def main(argv):
    if argv[:1] == ["--self-test"]:
        self_test()
        return 0
    dirs = argv or [os.path.join(ROOT, d) for d in DIRS]
    hits = check(dirs)
    if hits:
        print("I/O, clock, threads or async in a pure crate (ARCHITECTURE.md, invariant 8):", file=sys.stderr)
        for p, n, l in hits:
            print(f"{p}:{n}: {l}", file=sys.stderr)
        return 1
    print("classifier, onefile and contract: pure (no I/O, clock, threads, processes, environment or async)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
