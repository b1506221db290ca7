#!/usr/bin/env python3
"""Writes classifier/src/prices/table.rs, hiveterm's built-in price table (issue 50).

Source: LiteLLM's public `model_prices_and_context_window.json` (MIT), as the PyPI package
`litellm` ships it (`litellm/model_prices_and_context_window_backup.json`). Only the models
the six agents name are kept (Anthropic's Claude, OpenAI's GPT/o-series, Google's Gemini,
Alibaba's Qwen), only the prices hiveterm uses: input, output, cache read, cache write (5
minutes and 1 hour), per context-length tier.

    scripts/refresh-prices.py                 # pip download litellm --no-deps, then write
    scripts/refresh-prices.py --json FILE     # from a copy of the JSON at hand
    scripts/refresh-prices.py --check         # exit 1 when the table is not what FILE gives

Prices are written as whole units of $0.0001 per million tokens (1e-10 dollars a token).
"""

import argparse
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "classifier", "src", "prices", "table.rs")
MEMBER = "litellm/model_prices_and_context_window_backup.json"

SKIP = re.compile(r"audio|search|realtime|transcribe|tts|image|computer-use|customtools|"
                  r"embedding|live|vl-|omni|-v\d(:\d)?$|batch|instant")


def from_pypi():
    """The JSON and the litellm version, from `pip download litellm --no-deps`."""
    tmp = tempfile.mkdtemp()
    subprocess.run([sys.executable, "-m", "pip", "download", "litellm", "--no-deps", "-q",
                    "-d", tmp], check=True)
    wheel = glob.glob(os.path.join(tmp, "litellm-*.whl"))[0]
    version = os.path.basename(wheel).split("-")[1]
    with zipfile.ZipFile(wheel) as z:
        return json.loads(z.read(MEMBER)), f"litellm {version}"


def name_of(key):
    """The name hiveterm looks a model up by, or None for a key it leaves out."""
    if key.startswith("anthropic.claude-"):
        key = re.sub(r"-v\d:\d$", "", key[len("anthropic."):])
    elif key.startswith("gemini/gemini-") or key.startswith("dashscope/q"):
        key = key.split("/", 1)[1]
    elif "/" in key or "." in key.split("-")[0] and not key.startswith("gpt-"):
        return None
    if not re.match(r"^(claude-|gpt-4\.1|gpt-4o|gpt-5|o1|o3|o4-mini|codex-mini|gemini-[23]|"
                    r"qwen|qwq)", key):
        return None
    if SKIP.search(key):
        return None
    return re.sub(r"[-@](\d{8}|\d{4}-\d{2}-\d{2})$", "", key)


def units(dollars_per_token):
    """Dollars a token as units of $0.0001 per million tokens; 0 for "not given"."""
    if dollars_per_token is None:
        return 0
    u = round(dollars_per_token * 1e10)
    assert abs(u - dollars_per_token * 1e10) < 1e-3 * max(1, u), dollars_per_token
    return u


def tiers_of(e):
    """[from, input, output, cache read, cache write 5m, cache write 1h] rows, from 0 up."""
    if isinstance(e.get("tiered_pricing"), list) and e["tiered_pricing"]:
        rows = []
        for t in e["tiered_pricing"]:
            rows.append([int(t["range"][0]), units(t.get("input_cost_per_token")),
                         units(t.get("output_cost_per_token")),
                         units(t.get("cache_read_input_token_cost")),
                         units(t.get("cache_creation_input_token_cost")), 0])
        return rows
    base = [0, units(e.get("input_cost_per_token")), units(e.get("output_cost_per_token")),
            units(e.get("cache_read_input_token_cost")),
            units(e.get("cache_creation_input_token_cost")),
            units(e.get("cache_creation_input_token_cost_above_1hr"))]
    rows = [base]
    for k in sorted(e):
        m = re.fullmatch(r"input_cost_per_token_above_(\d+)k_tokens", k)
        if not m:
            continue
        n = m.group(1)
        g = lambda f: units(e.get(f"{f}_above_{n}k_tokens"))
        rows.append([int(n) * 1000, g("input_cost_per_token"), g("output_cost_per_token"),
                     g("cache_read_input_token_cost"), g("cache_creation_input_token_cost"),
                     g("cache_creation_input_token_cost_above_1hr")])
    rows.sort()
    return rows


def table(data):
    models = {}
    # Undated, unprefixed keys first, so that they win over a dated or prefixed twin; of the
    # dated ones the newest.
    dated = re.compile(r"[-@](\d{8}|\d{4}-\d{2}-\d{2})(-v\d:\d)?$")
    plain = sorted(k for k in data if k == name_of(k))
    undated = sorted(k for k in data if k not in plain and not dated.search(k))
    newest = sorted((k for k in data if dated.search(k)), reverse=True)
    for key in plain + undated + newest:
        e = data[key]
        if not isinstance(e, dict) or e.get("mode") != "chat":
            continue
        name = name_of(key)
        if name is None or name in models:
            continue
        rows = tiers_of(e)
        if rows[0][1] == 0 and rows[0][2] == 0:
            continue
        models[name] = rows
    return dict(sorted(models.items()))


def render(models, source, date):
    out = [
        "//! The built-in price table: generated by `scripts/refresh-prices.py`, do not edit.",
        f"//! Source: {source}, LiteLLM's `model_prices_and_context_window.json` (MIT).",
        "//! Prices in units of $0.0001 per million tokens; 0 is \"not given\".",
        "",
        f"/// Where the table comes from.\npub const SOURCE: &str = \"{source}\";",
        f"/// The day it was made.\npub const DATE: &str = \"{date}\";",
        "",
        "/// Each model, by name (sorted), with its tiers from 0 up: `[from (prompt tokens),",
        "/// input, output, cache read, cache write (5 minutes), cache write (1 hour)]`.",
        "#[rustfmt::skip]",
        "pub(super) static MODELS: &[(&str, &[[u32; 6]])] = &[",
    ]
    for name, rows in models.items():
        tiers = ", ".join("[" + ", ".join(str(v) for v in r) + "]" for r in rows)
        out.append(f"    (\"{name}\", &[{tiers}]),")
    out.append("];")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="a copy of model_prices_and_context_window.json")
    ap.add_argument("--source", help="what --json is (default: its file name)")
    ap.add_argument("--date", default=datetime.date.today().isoformat())
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if a.json:
        with open(a.json) as f:
            data = json.load(f)
        source = a.source or os.path.basename(a.json)
    else:
        data, source = from_pypi()
    text = render(table(data), source, a.date)
    if a.check:
        with open(OUT) as f:
            old = f.read()
        strip = lambda t: re.sub(r'DATE: &str = "[^"]*"', "", t)
        sys.exit(0 if strip(old) == strip(text) else 1)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    print(f"{OUT}: {len(table(data))} models from {source}")


if __name__ == "__main__":
    main()
