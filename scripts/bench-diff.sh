#!/usr/bin/env bash
# The `hiveterm diff` benchmark (issue 48: "two 100 MB logs align in seconds and memory bounded
# like `summary`"), on pairs of logs of several shapes, generated once (seeded) into bench-data/:
#   claude/two-seeds    two long Claude Code sessions of one mix, other seeds: runs that share
#                       little (the alignment's worst case: most steps face a gap)
#   claude/one-changed  one session and the same with every 400th tool result made an error: runs
#                       that agree but for scattered divergences (the common postmortem)
#   files/two-seeds     every edit a new file (--mix files): tens of thousands of distinct files
#                       on each side, the summaries' file lists long
#   codex/two-seeds     two Codex CLI rollouts (gen-codex-log.py)
# For each pair, RUNS times (default 3): `hiveterm diff A B --json > /dev/null` against
# `hiveterm summary A` + `hiveterm summary B` (the same reading and folding without the
# alignment) and the parse floor (../shared/bench/jsonl-baseline on A then B). It reports the
# medians of wall and CPU time and the peak RSS of each, and checks:
#   - diff takes at most MAX_SECONDS (default 10) of wall time per pair;
#   - diff's peak RSS is at most MAX_RSS_RATIO (default 2) x the larger summary's + 64 MB.
# Exits 1 if any is missed. Not run in CI (a benchmark; figures depend on the machine and load).
#
# Usage: scripts/bench-diff.sh    env: RUNS=3 MAX_SECONDS=10 MAX_RSS_RATIO=2 MB=100
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-3}"
MAX_SECONDS="${MAX_SECONDS:-10}"
MAX_RSS_RATIO="${MAX_RSS_RATIO:-2}"
MB="${MB:-100}"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
HIVETERM="$TARGET_DIR/release/hiveterm"
BASELINE_SRC="$ROOT/../shared/bench/jsonl-baseline"
BASELINE="$TARGET_DIR/jsonl-baseline/release/jsonl-baseline"
DATA="$ROOT/bench-data/diff"
mkdir -p "$DATA"

if [ ! -x "$HIVETERM" ]; then
    # shellcheck source=scripts/pgo-env.sh
    source "$ROOT/scripts/pgo-env.sh"
    cargo build --release -p hiveterm
fi
if [ ! -x "$BASELINE" ]; then
    cargo build --release --manifest-path "$BASELINE_SRC/Cargo.toml" \
        --target-dir "$TARGET_DIR/jsonl-baseline"
fi

# Claude Code transcript lines per MB, roughly, for each mix (gen-big-transcript.py's default
# 100,000 lines make about 150 MB).
lines_for() { python3 -c "print(int($MB * $1))"; }
gen_claude() { # mix seed out
    [ -f "$3" ] || python3 scripts/gen-big-transcript.py --mix "$1" --seed "$2" \
        --lines "$(lines_for "$([ "$1" = files ] && echo 600 || echo 660)")" --out "$3"
}
gen_claude session 2 "$DATA/claude-a.jsonl"
gen_claude session 3 "$DATA/claude-b.jsonl"
gen_claude files 2 "$DATA/files-a.jsonl"
gen_claude files 3 "$DATA/files-b.jsonl"
if [ ! -f "$DATA/claude-changed.jsonl" ]; then
    # Every 400th tool result an error: the same run, failing here and there.
    python3 - "$DATA/claude-a.jsonl" "$DATA/claude-changed.jsonl" <<'EOF'
import sys
n = 0
with open(sys.argv[1], "rb") as src, open(sys.argv[2], "wb") as out:
    for line in src:
        if b'"type":"tool_result",' in line and b'"is_error"' not in line:
            n += 1
            if n % 400 == 0:
                line = line.replace(b'"type":"tool_result",', b'"type":"tool_result","is_error":true,', 1)
        out.write(line)
EOF
fi
[ -f "$DATA/codex-a.jsonl" ] || python3 scripts/gen-codex-log.py --mb "$MB" --seed 20 --out "$DATA/codex-a.jsonl"
[ -f "$DATA/codex-b.jsonl" ] || python3 scripts/gen-codex-log.py --mb "$MB" --seed 21 --out "$DATA/codex-b.jsonl"

# Wall seconds, CPU seconds and peak RSS (MB) of one command, as "wall cpu rss" (its output
# dropped; measured by the kernel's rusage of the child, no /usr/bin/time needed).
measure() {
    python3 - "$@" <<'PY'
import os, subprocess, sys, time
start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, ru = os.wait4(child.pid, 0)
wall = time.monotonic() - start
if status != 0:
    sys.exit(f"{sys.argv[1:]} exited {status}")
print(f"{wall:.2f} {ru.ru_utime + ru.ru_stime:.2f} {ru.ru_maxrss / 1024:.0f}")
PY
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

failed=0
printf '%-22s %8s | %-24s | %-24s | %-18s\n' pair "MB A+B" "diff wall/cpu/rss" \
    "summary A+B wall/cpu/rss" "floor A+B wall/cpu"
for pair in "claude/two-seeds claude-a claude-b" "claude/one-changed claude-a claude-changed" \
    "files/two-seeds files-a files-b" "codex/two-seeds codex-a codex-b"; do
    read -r name a b <<<"$pair"
    A="$DATA/$a.jsonl" B="$DATA/$b.jsonl"
    mb=$(( ($(stat -c %s "$A") + $(stat -c %s "$B")) / 1000000 ))
    dw=() dc=() dr=() sw=() sc=() sr=() fw=() fc=()
    for _ in $(seq "$RUNS"); do
        read -r w c r < <(measure "$HIVETERM" diff "$A" "$B" --json)
        dw+=("$w") dc+=("$c") dr+=("$r")
        read -r w1 c1 r1 < <(measure "$HIVETERM" summary "$A")
        read -r w2 c2 r2 < <(measure "$HIVETERM" summary "$B")
        sw+=("$(echo "$w1 + $w2" | bc)") sc+=("$(echo "$c1 + $c2" | bc)")
        sr+=("$(( r1 > r2 ? r1 : r2 ))")
        read -r w1 c1 _ < <(measure "$BASELINE" "$A")
        read -r w2 c2 _ < <(measure "$BASELINE" "$B")
        fw+=("$(echo "$w1 + $w2" | bc)") fc+=("$(echo "$c1 + $c2" | bc)")
    done
    m() { printf '%s\n' "$@" | median; }
    DW=$(m "${dw[@]}") DC=$(m "${dc[@]}") DR=$(m "${dr[@]}")
    SW=$(m "${sw[@]}") SC=$(m "${sc[@]}") SR=$(m "${sr[@]}")
    FW=$(m "${fw[@]}") FC=$(m "${fc[@]}")
    printf '%-22s %8s | %6ss %6ss %6s MB | %6ss %6ss %6s MB | %6ss %6ss\n' \
        "$name" "$mb" "$DW" "$DC" "$DR" "$SW" "$SC" "$SR" "$FW" "$FC"
    if awk -v w="$DW" -v max="$MAX_SECONDS" 'BEGIN {exit !(w > max)}'; then
        echo "  MISSED: diff took ${DW}s > ${MAX_SECONDS}s" >&2; failed=1
    fi
    if awk -v r="$DR" -v s="$SR" -v k="$MAX_RSS_RATIO" 'BEGIN {exit !(r > k * s + 64)}'; then
        echo "  MISSED: diff's peak RSS ${DR} MB > ${MAX_RSS_RATIO} x ${SR} MB + 64" >&2; failed=1
    fi
done
printf '\n(%s runs each, medians; load: %s; %s)\n' "$RUNS" "$(cut -d' ' -f1-3 /proc/loadavg)" "$(date -u +%F)"
exit "$failed"
