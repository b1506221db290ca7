#!/usr/bin/env python3
"""The classifier's shared layer knows no agent (issue 47 part 1, formats as peers).

An agent's format is a folder (or file) of its own under classifier/src/ (AGENTS below); the
table of formats, `formats.rs`, is the one module that names them all. Any other module (the
shared layer: rows, tools, turns, text, redaction, the context, the summary, …) names no item
of an agent's module — by the same graph as scripts/check-module-cycles.py (a `use`, a path
in code, a re-export resolved as the compiler sees it; tests left out) — but for the edges
listed in KNOWN, each allowed only as listed: a new edge fails, and so does a listed one that
is gone (shrink the list). Agents may use one another's items (Qwen Code's stream-json is
Claude Code's); that is not checked here.

Usage: scripts/check-agent-peers.py [--self-test]
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
_spec = importlib.util.spec_from_file_location("cycles", os.path.join(HERE, "check-module-cycles.py"))
cycles = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cycles)

ROOT = "classifier/src/lib.rs"
# Each agent's top module: its folder (Claude Code's is `stream/`), or the harness's file.
AGENTS = {"codex", "gemini", "opencode", "qwen", "copilot", "stream", "hyperhive"}
TABLE = {"formats"}
# What the shared layer still names of an agent (module -> agent modules). Shrink it; never
# grow it: a new agent registers in formats.rs only.
KNOWN = {
    # The rows' vocabulary: the variants an agent reads typed (its lean parse's output).
    "event::live": {"codex::exec_line", "codex::fact", "gemini::typed"},
    # The context holds each agent's state (saved and restored with a checkpoint).
    "ctx": {"codex::state", "gemini::state", "opencode::state"},
    # The lean parse: what an agent's rows read of a line.
    "lean": {"codex::detect", "gemini::detect"},
    # Subagents: a Gemini recording's calls naming them.
    "nest": {"gemini::typed"},
    "active": {"gemini::typed"},
    "summary::subagents": {"gemini::typed"},
    # The summary: each agent's share of it.
    "summary": {"codex", "copilot::summary", "gemini", "opencode::summary", "qwen", "qwen::detect"},
    "summary::files": {"gemini::state"},
}


def agent_of(mod):
    return mod[0] if mod and mod[0] in AGENTS else None


def violations(edges, agents=AGENTS, table=TABLE):
    """{module: set of agent modules it names} for every module outside agents and table."""
    out = {}
    for src, dsts in edges.items():
        if (src and src[0] in agents) or (src and src[0] in table):
            continue
        named = {"::".join(d) for d in dsts if d and d[0] in agents}
        if named:
            out["::".join(src) or "crate"] = named
    return out


def verdict(found, known):
    bad = []
    for mod, named in sorted(found.items()):
        extra = named - known.get(mod, set())
        if extra:
            bad.append(f"{mod} names {', '.join(sorted(extra))}: the shared layer knows no agent "
                       "(put it in the agent's folder, reached through formats.rs)")
    for mod, allowed in sorted(known.items()):
        gone = allowed - found.get(mod, set())
        if gone:
            bad.append(f"{mod} no longer names {', '.join(sorted(gone))}: remove it from KNOWN")
    return bad


def self_test():
    import tempfile

    def crate(files):
        d = tempfile.mkdtemp()
        for p, text in files.items():
            full = os.path.join(d, "src", p)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w").write(text)
        return cycles.graph(cycles.load(os.path.join(d, "src", "lib.rs")))

    files = {"lib.rs": "mod codex;\nmod formats;\nmod kind;\n",
             "codex/mod.rs": "mod state;\npub use state::S;\npub fn rows() { crate::kind::k(); }\n",
             "codex/state.rs": "pub struct S;\n",
             "formats.rs": "fn f() { crate::codex::rows(); }\n",
             "kind.rs": "pub fn k() {}\n"}
    assert violations(crate(files), {"codex"}, {"formats"}) == {}
    # A shared module naming an agent's item, through its re-export or its definer: caught.
    files["kind.rs"] = "pub fn k() {}\nfn g(_: crate::codex::S) {}\n"
    assert violations(crate(files), {"codex"}, {"formats"}) == {"kind": {"codex"}}
    files["kind.rs"] = "use crate::codex::state::S;\npub fn k() {}\nfn g(_: S) {}\n"
    found = violations(crate(files), {"codex"}, {"formats"})
    assert found == {"kind": {"codex::state"}}, found
    assert verdict(found, {"kind": {"codex::state"}}) == []
    assert len(verdict(found, {})) == 1 and len(verdict({}, {"kind": {"codex::state"}})) == 1
    # Test code does not count.
    files["kind.rs"] = "pub fn k() {}\n#[cfg(test)]\nmod tests { use crate::codex::S; }\n"
    assert violations(crate(files), {"codex"}, {"formats"}) == {}
    print("check-agent-peers: self-test passed", file=sys.stderr)


def main(argv):
    if argv[:1] == ["--self-test"]:
        self_test()
        return 0
    edges = cycles.graph(cycles.load(os.path.join(REPO, ROOT)))
    bad = verdict(violations(edges), KNOWN)
    for b in bad:
        print(f"{ROOT}: {b}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
