#!/bin/sh
# A stand-in agent for `hiveterm run` tests: prints a real Claude Code stream-json run on
# stdout (the fixture given as $1), some stderr, a plain stdout line, and exits 3.
fixture="$1"
head -n 5 "$fixture"
echo "warning: something on stderr" >&2
sleep "${FAKE_AGENT_PAUSE:-0}"
tail -n +6 "$fixture"
echo "plain text on stdout"
echo "fatal: giving up" >&2
exit 3
