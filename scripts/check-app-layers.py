#!/usr/bin/env python3
"""ARCHITECTURE.md invariant 10, the page's part. Reads every `.rs` file under app/src with
comments and strings out (a doc comment may name a worker module; code may not use it):

  - outside app/src/worker/ and the workers' entries in app/src/bin/, code names nothing of
    the workers' folder but `worker::protocol`: every path is checked, in a `use` (trees
    expanded: `use crate::{worker::job::Job}`) or in code, however it reaches the folder
    (`crate::`, `app::`, `super::…`, `self::`, a `use`d `worker` module or an alias of it);
    a glob of the folder (`use crate::worker::*`) is a reach too;
  - no module-level mutable state anywhere in the page: no `thread_local!`, `static mut`,
    `lazy_static!`, and no `static` item (at module level or in a function) whose type can
    change behind a shared reference: `Mutex`, `RwLock`, `Cell`, `RefCell`, `UnsafeCell`,
    `OnceCell`, `OnceLock`, `LazyCell`, `LazyLock`, `Lazy`, an `Atomic*`, or `once_cell`'s
    and `lazy_static`'s. A `static` of plain data (`static LOG: &[u8] = …`) is allowed.

Usage: scripts/check-app-layers.py [SRC_DIR]   (default: app/src). `--self-test` runs it on
small synthetic files.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rust_source import USE_RE, expand_use, rust_files, strip  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = re.compile(r"(?<![\w:])(::)?\w+(?:::(?:\w+|\*))+")
INTERIOR = (r"Mutex|RwLock|Cell|RefCell|UnsafeCell|OnceCell|OnceLock|LazyCell|LazyLock|Lazy"
            r"|Atomic\w*")
GLOBAL = re.compile(r"\bthread_local!|\bstatic\s+mut\b|\blazy_static!|\bonce_cell::"
                    r"|\bstatic\s+\w+\s*:[^=;]*\b(" + INTERIOR + r")\b")


def reaches(segs, aliases):
    """Whether a path (segments as written) names something of `worker::` but its protocol."""
    for _ in range(10):  # follow `use` aliases: `use crate::worker as w;` then `w::job::…`
        if segs and segs[0] in aliases and aliases[segs[0]] != segs[:1]:
            segs = aliases[segs[0]] + segs[1:]
        else:
            break
    # Only crate-relative prefixes may come before `worker` (`crate`, `app`, `super`, `self`),
    # or `worker` is the first segment: a child module, or a `use`d one.
    i = 0
    while i < len(segs) and segs[i] in ("crate", "app", "super", "self"):
        i += 1
    if i < len(segs) - 1 and segs[i] == "worker":
        return segs[i + 1] != "protocol"
    return False


def check_text(text):
    """(reach lines, global lines) of one file: (number, source line)."""
    code = strip(text)
    raw = text.split("\n")
    aliases, reach, glob = {}, set(), set()
    for u in USE_RE.finditer(code):
        ln = code.count("\n", 0, u.start())
        for path, alias in expand_use(u.group(3), aliases=True):
            segs = [s for s in path.split("::") if s]
            if segs and segs[-1] != "*":
                aliases[alias] = segs
            if reaches(segs, {}):
                reach.add(ln)
    rest = USE_RE.sub(lambda m: "\n" * m.group(0).count("\n"), code)
    for i, line in enumerate(rest.split("\n")):
        if any(reaches([s for s in p.group(0).split("::") if s], aliases) for p in PATH.finditer(line)):
            reach.add(i)
    # A `static` may span lines (`static X: Mutex<\n  Vec<u8>,\n> = …`): match the whole code.
    for m in GLOBAL.finditer(code):
        glob.add(code.count("\n", 0, m.start()))
    out = lambda s: [(i + 1, raw[i].strip()) for i in sorted(s)]
    return out(reach), out(glob)


def check(src):
    reach, glob = [], []
    for p, text in rust_files(src):
        rel = os.path.relpath(p, src).split(os.sep)[0]
        r, g = check_text(text)
        if rel not in ("worker", "bin"):
            reach += [(p, n, l) for n, l in r]
        glob += [(p, n, l) for n, l in g]
    return reach, glob


def self_test():
    def reach(src):
        return [n for n, _ in check_text(src)[0]]

    def glob(src):
        return [n for n, _ in check_text(src)[1]]

    assert reach("use crate::worker::protocol::{Request, Reply};\n") == []
    assert reach("use crate::worker::job::Job;\n") == [1]
    # Issue 52: a group tree, a nested one, a module `use`d then a path through it, an alias,
    # `super::`, a glob, a path in code.
    assert reach("use crate::{worker::job::Job, model::Row};\n") == [1]
    assert reach("use crate::{\n    model::Row,\n    worker::{protocol::Reply, run},\n};\n") == [1]
    assert reach("use crate::worker;\nfn f() { worker::job::start(); }\n") == [2]
    assert reach("use crate::worker as w;\nfn f() { w::classify::bodies_in(); }\n") == [2]
    assert reach("use super::super::worker::run::State;\n") == [1]
    assert reach("use crate::worker::*;\n") == [1]
    assert reach("fn f() { app::worker::export::make(); }\n") == [1]
    assert reach("use crate::worker;\nfn f() { worker::protocol::Reply::Done; }\n") == []
    assert reach("//! see [`crate::worker::job`]\nconst S: &str = \"crate::worker::run\";\n") == []
    assert glob("thread_local! { static X: u8 = 0; }\n") == [1]
    assert glob("static mut N: u32 = 0;\n") == [1]
    # Issue 52: a static of an interior-mutable type, at module level or in a function.
    assert glob("static X: Mutex<Vec<u8>> = Mutex::new(Vec::new());\n") == [1]
    assert glob("fn f() {\n    static N: std::sync::atomic::AtomicU32 = AtomicU32::new(0);\n}\n") == [2]
    assert glob("pub(crate) static C: LazyLock<\n    Regex,\n> = LazyLock::new(|| todo!());\n") == [1]
    assert glob("static R: RefCell<u8> = RefCell::new(0);\n") == [1]
    assert glob("static LOG: &[u8] = include_bytes!(\"x\");\nfn f() -> &'static str { \"\" }\n") == []
    with __import__("tempfile").TemporaryDirectory() as d:
        for rel, text in {"worker/run.rs": "use crate::worker::job::Job;\n",
                          "bin/worker.rs": "use app::worker::run::main;\n",
                          "view/a.rs": "use crate::{worker::job};\n"}.items():
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            open(os.path.join(d, rel), "w").write(text)
        r, g = check(d)
        assert [os.path.relpath(p, d) for p, _, _ in r] == ["view/a.rs"] and g == [], (r, g)
    print("check-app-layers: self-test passed", file=sys.stderr)


def main(argv):
    if argv[:1] == ["--self-test"]:
        self_test()
        return 0
    src = argv[0] if argv else os.path.join(ROOT, "app", "src")
    reach, glob = check(src)
    if reach:
        print("the page reaches into the workers past their protocol:", file=sys.stderr)
        for p, n, l in reach:
            print(f"{p}:{n}: {l}", file=sys.stderr)
    if glob:
        print("module-level mutable state in the page:", file=sys.stderr)
        for p, n, l in glob:
            print(f"{p}:{n}: {l}", file=sys.stderr)
    if reach or glob:
        return 1
    print("app: the page imports only worker::protocol; no module-level mutable state")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
