#!/usr/bin/env bash
# Makes pgo/hiveterm.profdata.gz, the profile the release `hiveterm` is optimized with
# (scripts/pgo-env.sh; docs/BENCHMARKS.md, "Classifier throughput"). Builds an instrumented
# hiveterm (its own target dir), runs `classify` and `summary` on a training set, merges what
# they counted. Rerun it after large changes to the classifier: a function changed since the
# profile was made is compiled as without one, so an old profile costs speed, never behaviour.
#
# The training set, none of it a benchmark log (bench-classify.sh generates those with the
# generators' default seeds; these use seed 11, and smaller):
#   - the repository's real logs: fixtures/ (Claude Code, Codex, Gemini, hyperhive) and the
#     hostile and over-long test logs (the error paths);
#   - generated: the four Claude Code transcript mixes, Codex rollouts, Gemini recordings and
#     Gemini stream-json answers in paragraphs and in one paragraph.
#
# Needs llvm-profdata reading rustc's raw profiles (LLVM 19 reads rustc 1.95's):
# scripts/setup.sh --pgo installs Debian's llvm-19.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
WORK="$TARGET_DIR/pgo-train"
PROFDATA="$(command -v llvm-profdata-19 || command -v llvm-profdata || true)"
[ -n "$PROFDATA" ] || { echo "pgo-profile: no llvm-profdata (scripts/setup.sh --pgo installs it)" >&2; exit 1; }

rm -rf "$WORK/raw" "$WORK/logs"
mkdir -p "$WORK/raw" "$WORK/logs"
echo "==> instrumented build (target dir $WORK/target)"
host="$(rustc -vV | sed -n 's/^host: //p')"
var="CARGO_TARGET_$(printf '%s' "$host" | tr 'a-z-' 'A-Z_')_RUSTFLAGS"
env "$var=-Cprofile-generate=$WORK/raw" CARGO_TARGET_DIR="$WORK/target" \
    cargo build --release -p hiveterm
BIN="$WORK/target/release/hiveterm"

echo "==> training logs (seed 11)"
L="$WORK/logs"
for mix in session tools files; do
    python3 scripts/gen-big-transcript.py --mix "$mix" --lines 20000 --seed 11 --out "$L/$mix.jsonl"
done
python3 scripts/gen-big-transcript.py --mix huge --lines 2000 --seed 11 --out "$L/huge.jsonl"
python3 scripts/gen-codex-log.py --mb 10 --seed 11 --out "$L/codex.jsonl"
python3 scripts/gen-gemini-log.py "$L/gemini.json" 10
python3 scripts/gen-gemini-answers.py "$L/answers.jsonl" 5
python3 scripts/gen-gemini-answers.py "$L/one-paragraph.jsonl" 5 --one-paragraph

echo "==> classify and summary of each"
n=0
while IFS= read -r -d '' log; do
    "$BIN" classify "$log" > /dev/null 2>&1 || true
    "$BIN" summary "$log" > /dev/null 2>&1 || true
    n=$((n + 1))
done < <(find fixtures classifier/tests/hostile classifier/tests/over_long "$L" -type f \
    \( -name '*.jsonl' -o -name '*.json' -o -name '*.zst' \) -print0 | sort -z)
echo "    $n logs"

echo "==> merging with $PROFDATA"
"$PROFDATA" merge --sparse -o "$WORK/hiveterm.profdata" "$WORK"/raw/*.profraw
gzip -9 -n -c "$WORK/hiveterm.profdata" > "$ROOT/pgo/hiveterm.profdata.gz"
rustc -V > "$ROOT/pgo/rustc-version"
ls -l "$ROOT/pgo/hiveterm.profdata.gz"
cat "$ROOT/pgo/rustc-version"
