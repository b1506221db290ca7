#!/usr/bin/env python3
"""No import circle between the modules of a crate (issue 19): no two modules import each
other, directly or around a circle.

The graph, per crate target (`src/lib.rs`, `src/main.rs`, each `src/bin/*.rs`):
  - a node is a module file, named by its path (`crate::a::b`); an inline `mod x { … }` is
    part of the file it is written in (its paths are read from where it is: its `super::` is
    the file's module), so the file's own `mod imp { use super::*; }` half is no circle;
  - A → B when A's code names an item of B: a `use` (group trees expanded, `pub use` too), or
    a path in code (`crate::b::f()`, `super::g`, `self::c::h`, or a child module's name,
    `c::h`). A path is resolved through child modules to the module whose namespace holds the
    item; a re-export is an item of the module that re-exports it (issue 52): `crate::TermMsg`,
    re-exported by lib.rs from msg.rs, is an edge to the crate root, and lib.rs's `pub use`
    is the root's edge to `crate::msg`. So a child that uses what its parent re-exports while
    the parent uses the child is a circle, as the compiler sees it. A glob (`use super::*`) is
    an edge to the module it names; a `use` of a module itself (`use crate::guard;`) is not,
    the paths written through it (`guard::Slots`) are.
  - declaring a module (`mod x;`, `pub mod x;`) is NOT an edge: a parent that only declares
    its children depends on none of them. A parent that uses a child's item (`x::f()`,
    `pub use x::T`) has an edge to it, and a child that uses its parent's items (`super::T`,
    `crate::T` defined in lib.rs) has one back, which closes a circle.
  - test code is left out: `#[cfg(test)]` modules, inline or in their own file.
Every strongly connected component of more than one module is a circle and is reported with
one cycle through it. Exit 1 if any, but for the circles listed in KNOWN_CIRCLES, each
allowed only as it is listed there, module for module: a module joining it, or a known circle
shrinking or splitting, fails too (so the list stays what the code is).

Usage: scripts/check-module-cycles.py [CRATE_DIR ...]   (default: classifier onefile server
app). `--self-test` runs it on small synthetic crates.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rust_source import USE_RE, expand_use, strip  # noqa: E402

CRATES = ["classifier", "onefile", "server", "app"]
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The allowed exceptions, per crate target (its root file, from the repository's root): a set of
# module names per circle. None: the last, the classifier's formats spliced into the shared
# layer through codex/mod.rs's and gemini/mod.rs's re-exports, went with issue 47 part 1
# (formats as peers). Never add one.
KNOWN_CIRCLES = {}


class Module:
    def __init__(self, name, file):
        self.name = name  # tuple of segments after `crate`
        self.file = file
        self.children = {}  # name -> tuple
        self.reexports = {}  # name -> absolute path (tuple) it re-exports
        self.refs = []  # paths as written: tuples of segments
        self.uses = set()  # those of them written in a `use`
        self.inline = False  # an inline `mod x { … }`: part of its file's module


MOD_RE = re.compile(r"((?:#\[[^\]]*\]\s*)*)(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*([;{])")
PATH_RE = re.compile(r"(?<![\w:$])((?:crate|super|self)(?:::\w+|::\*)+|\w+::\w+(?:::\w+)*)")


def load(root_file):
    """Module tree of one crate target: {name tuple: Module}."""
    mods = {}

    def add_file(name, path, child_dir):
        with open(path, encoding="utf-8") as fh:
            text = strip(fh.read())
        add_text(name, path, text, child_dir)

    def add_text(name, path, text, child_dir):
        m = Module(name, path)
        mods[name] = m
        # Inline modules first: cut them out of the text, recursing.
        body = []
        i = 0
        for mm in MOD_RE.finditer(text):
            if mm.start() < i:
                continue
            attrs, child, kind = mm.group(1), mm.group(4), mm.group(5)
            is_test = "cfg(test)" in re.sub(r"\s", "", attrs)
            pathattr = re.search(r'path\s*=\s*""', attrs)  # strings are stripped
            body.append(text[i:mm.start()])
            if kind == ";":
                i = mm.end()
                if is_test:
                    continue
                m.children[child] = name + (child,)
                cands = [os.path.join(child_dir, child + ".rs"), os.path.join(child_dir, child, "mod.rs")]
                if pathattr:
                    raw = re.search(r'#\[path\s*=\s*"([^"]+)"\]', open(path, encoding="utf-8").read())
                    cands = [os.path.join(os.path.dirname(path), raw.group(1))] if raw else cands
                f = next((c for c in cands if os.path.exists(c)), None)
                if f is None:
                    continue
                sub_dir = os.path.dirname(f) if f.endswith("mod.rs") else os.path.join(child_dir, child)
                add_file(name + (child,), f, sub_dir)
            else:
                depth, j = 1, mm.end()
                while j < len(text) and depth:
                    depth += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                i = j
                if is_test:
                    continue
                m.children[child] = name + (child,)
                add_text(name + (child,), path, text[mm.end():j - 1], os.path.join(child_dir, child))
                mods[name + (child,)].inline = True
        body.append(text[i:])
        code = "".join(body)
        for u in USE_RE.finditer(code):
            public = bool(u.group(1))
            for p in expand_use(u.group(3)):
                segs = tuple(s for s in p.split("::") if s)
                if not segs:
                    continue
                m.refs.append(segs)
                m.uses.add(segs)
                if public and segs[-1] != "*":
                    m.reexports[segs[-1]] = segs
        code = USE_RE.sub(" ", code)
        for p in PATH_RE.finditer(code):
            m.refs.append(tuple(p.group(1).split("::")))

    base = os.path.basename(root_file)
    add_file((), root_file, os.path.dirname(root_file))
    return mods


def absolute(mods, here, segs):
    """A path as written in module `here` → absolute segments (or None: outside the crate)."""
    if not segs:
        return None
    if segs[0] == "crate":
        return segs[1:]
    cur = here
    if segs[0] in ("self", "super"):
        while segs and segs[0] in ("self", "super"):
            if segs[0] == "super":
                cur = cur[:-1]
            segs = segs[1:]
        return cur + segs
    if segs[0] in mods[here].children:  # a child module by its name
        return here + segs
    if segs[0] in mods[here].reexports or any(  # a name `use`d into this module
        r[-1] == segs[0] for r in mods[here].refs if len(r) > 1 and r[0] in ("crate", "super", "self")
    ):
        for r in mods[here].refs:
            if len(r) > 1 and r[-1] == segs[0] and r[0] in ("crate", "super", "self"):
                base = absolute(mods, here, r)
                return base + segs[1:] if base is not None else None
    return None


def names_module(mods, segs):
    """Whether absolute `segs` name a module itself (each segment a child module)."""
    cur = ()
    for s in segs:
        if cur not in mods or s not in mods[cur].children:
            return False
        cur = mods[cur].children[s]
    return True


def resolve(mods, segs):
    """Absolute segments → the module whose namespace holds the item they name: through child
    modules only. A re-export (`pub use b::T` in a) is an item of the module that re-exports
    it, so `crate::a::T` is an edge to a, and a's `pub use` is a's edge to b (issue 52: a
    circle through a re-exporting parent is a circle)."""
    cur = ()
    for s in segs:
        m = mods.get(cur)
        if m is None or s not in m.children:
            return cur
        cur = m.children[s]
    return cur


def file_of(mods, name):
    while mods[name].inline:
        name = name[:-1]
    return name


def graph(mods):
    edges = {name: set() for name in mods if not mods[name].inline}
    for name, m in mods.items():
        src = file_of(mods, name)
        for segs in m.refs:
            a = absolute(mods, name, segs)
            if a is None:
                continue
            if segs in m.uses and names_module(mods, tuple(a)):
                continue  # `use crate::x;` only names x: the paths written through it count
            t = resolve(mods, tuple(a))
            if t not in mods:
                continue
            t = file_of(mods, t)
            if t != src:
                edges[src].add(t)
    return edges


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [sorted(c) for c in out if len(c) > 1]


def one_cycle(edges, comp):
    """A shortest cycle through the component's first module (BFS)."""
    comp = set(comp)
    start = min(comp)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w not in comp:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [start]


def name(mod):
    return "::".join(("crate",) + mod)


def check_root(root_file):
    mods = load(root_file)
    edges = graph(mods)
    return [(c, one_cycle(edges, c)) for c in sccs(edges)]


def verdict(found, known):
    """Circles found (module sets) against the known ones → (failures, allowed); a failure is
    (circle, why)."""
    known = [set(k) for k in known]
    bad, ok, seen = [], [], []
    for comp, cyc in found:
        names = {"::".join(m) for m in comp}
        if names in known:
            ok.append((comp, cyc))
            seen.append(names)
        else:
            grown = [k for k in known if k & names]
            bad.append((comp, cyc, "it holds modules of a known circle (KNOWN_CIRCLES) and others: "
                        "a module joined it, or it changed; update the list only if it shrank"
                        if grown else "a new circle"))
    for k in known:
        if k not in seen:
            bad.append((sorted(tuple(m.split("::")) for m in k), [], "the known circle in KNOWN_CIRCLES "
                        "is not found as listed: if it shrank or is gone, update the list"))
    return bad, ok


def roots(crate):
    src = os.path.join(crate, "src")
    out = [os.path.join(src, f) for f in ("lib.rs", "main.rs") if os.path.exists(os.path.join(src, f))]
    bindir = os.path.join(src, "bin")
    if os.path.isdir(bindir):
        out += sorted(os.path.join(bindir, f) for f in os.listdir(bindir) if f.endswith(".rs"))
    return out


def self_test():
    import tempfile

    def crate(files):
        d = tempfile.mkdtemp()
        for p, text in files.items():
            full = os.path.join(d, "src", p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").write(text)
        return os.path.join(d, "src", "lib.rs")

    # A parent that uses its child, a child that uses the parent's item: a circle.
    r = check_root(crate({"lib.rs": "mod a;\npub struct S;\nfn f() { a::g(); }\n",
                          "a.rs": "use crate::S;\npub fn g() {}\n"}))
    assert [c for c, _ in r] == [[(), ("a",)]], r
    # Declaring is not an edge; a re-export resolves to where the item is defined.
    r = check_root(crate({"lib.rs": "mod a;\nmod b;\npub use a::T;\n",
                          "a.rs": "pub struct T;\n", "b.rs": "use crate::T;\n"}))
    assert r == [], r
    # Around a circle of three, through super::, a group use, and an inline module.
    r = check_root(crate({"lib.rs": "mod x;\nmod y;\n",
                          "x/mod.rs": "mod z;\npub struct X;\nuse crate::{y::Y};\n",
                          "x/z.rs": "pub struct Z(super::X);\n",
                          "y.rs": "pub struct Y;\nmod inner { pub fn f() -> crate::x::z::Z { todo!() } }\n"
                                  "pub use inner::f;\n"}))
    assert len(r) == 1 and set(r[0][0]) == {("x",), ("x", "z"), ("y",)}, r
    # A file's inline half that glob-imports the file, re-exported by it: one file, no circle.
    r = check_root(crate({"lib.rs": "mod k;\n",
                          "k.rs": "pub struct K;\nmod imp { use super::*; pub fn f(_: K) {} }\npub use imp::f;\n"}))
    assert r == [], r
    # `use crate::a;` names a module: only what is used through it counts (here a::b's item).
    r = check_root(crate({"lib.rs": "mod a;\nmod c;\n",
                          "a/mod.rs": "pub mod b;\nuse crate::c::C;\n", "a/b.rs": "pub struct B;\n",
                          "c.rs": "use crate::a;\npub struct C(a::b::B);\n"}))
    assert r == [], r
    r = check_root(crate({"lib.rs": "mod a;\nmod c;\n",
                          "a/mod.rs": "pub struct A;\nuse crate::c::C;\n",
                          "c.rs": "use crate::a;\npub struct C(a::A);\n"}))
    assert len(r) == 1, r
    # Issue 52: a circle through a re-exporting parent. p uses its child b; b names `super::T`,
    # which p re-exports from a: b → p → b (the item is a's, but b names it through p).
    r = check_root(crate({"lib.rs": "mod p;\n",
                          "p/mod.rs": "mod a;\nmod b;\npub use a::T;\npub fn h() { b::g(); }\n",
                          "p/a.rs": "pub struct T;\n", "p/b.rs": "use super::T;\npub fn g() {}\n"}))
    assert [c for c, _ in r] == [[("p",), ("p", "b")]], r
    # Through the crate root's re-exports: a names `crate::B`, the root re-exports a's A.
    r = check_root(crate({"lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
                          "a.rs": "pub struct A(crate::B);\n", "b.rs": "pub struct B;\n"}))
    assert [c for c, _ in r] == [[(), ("a",)]], r
    # The same with the definer named: no circle.
    r = check_root(crate({"lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
                          "a.rs": "pub struct A(crate::b::B);\n", "b.rs": "pub struct B;\n"}))
    assert r == [], r
    # A group tree with a re-export in it: `use crate::{b::{self}, B}`.
    r = check_root(crate({"lib.rs": "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
                          "a.rs": "use crate::{b::{self}, B};\npub struct A(B);\n", "b.rs": "pub struct B;\n"}))
    assert [c for c, _ in r] == [[(), ("a",)]], r
    # The known circles: one listed is allowed exactly; a module joining it, a new one, or a
    # listed one not found fails.
    comp = [("x",), ("y",)]
    assert verdict([(comp, [])], [{"x", "y"}]) == ([], [(comp, [])])
    assert len(verdict([([("x",), ("y",), ("z",)], [])], [{"x", "y"}])[0]) == 2
    assert len(verdict([([("u",), ("v",)], []), (comp, [])], [{"x", "y"}])[0]) == 1
    assert len(verdict([], [{"x", "y"}])[0]) == 1
    # Test modules, comments and strings do not count.
    r = check_root(crate({"lib.rs": "mod a;\npub struct S;\npub fn f() { a::g(); }\n",
                          "a.rs": "// crate::S\nconst C: &str = \"crate::S\";\npub fn g() {}\n"
                                  "#[cfg(test)]\nmod tests { use crate::S; }\n"}))
    assert r == [], r
    print("check-module-cycles: self-test passed", file=sys.stderr)


def main(argv):
    if argv[:1] == ["--self-test"]:
        self_test()
        return 0
    bad = 0
    for crate in argv or CRATES:
        for root in roots(crate.rstrip("/")):
            key = os.path.relpath(os.path.abspath(root), REPO)
            fails, allowed = verdict(check_root(root), KNOWN_CIRCLES.get(key, []))
            for comp, cyc in allowed:
                print(f"{root}: the known import circle of {len(comp)} modules (KNOWN_CIRCLES, "
                      "issue 47) is as listed", file=sys.stderr)
            for comp, cyc, why in fails:
                bad += 1
                print(f"{root}: an import circle of {len(comp)} modules: {why}:", file=sys.stderr)
                print("    " + ", ".join(name(m) for m in comp), file=sys.stderr)
                if cyc:
                    print("  for one: " + " -> ".join(name(m) for m in cyc), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
