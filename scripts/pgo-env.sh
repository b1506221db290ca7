# Sourced (not run) by the scripts that build the release `hiveterm`: run.sh, test.sh,
# bench-classify.sh, count-classify.sh. It has cargo build the host's code with profile-guided
# optimization from the committed profile, pgo/hiveterm.profdata.gz (made by
# scripts/pgo-profile.sh): unpacked into $TARGET_DIR/pgo/ under a name of its content's hash (a
# new profile is a new flag, so cargo rebuilds), then named in CARGO_TARGET_<HOST>_RUSTFLAGS,
# which leaves the page's wasm32 builds alone. The profile changes speed only, never behaviour:
# a function changed since it was made is compiled as without it. It is used only with the rustc
# that made it (pgo/rustc-version; another LLVM may not read it): with another, or with
# HIVETERM_PGO=0, hiveterm is built without it.
# From a shell: `source scripts/pgo-env.sh` in the repository, then `cargo build --release ...`.
pgo_use() {
    local ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
    local TARGET_DIR="${TARGET_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}}"
    local gz="$ROOT/pgo/hiveterm.profdata.gz"
    if [ "${HIVETERM_PGO:-1}" = 0 ] || [ ! -f "$gz" ]; then
        return 0
    fi
    if [ "$(rustc -V)" != "$(cat "$ROOT/pgo/rustc-version" 2>/dev/null)" ]; then
        echo "pgo: the profile was made with $(cat "$ROOT/pgo/rustc-version" 2>/dev/null || echo "an unknown rustc"), this is $(rustc -V): building without it (scripts/pgo-profile.sh makes a new one)" >&2
        return 0
    fi
    local hash out host var
    hash="$(sha256sum "$gz" | cut -c1-16)"
    out="$TARGET_DIR/pgo/hiveterm-$hash.profdata"
    if [ ! -f "$out" ]; then
        mkdir -p "$TARGET_DIR/pgo"
        # A profile unpacked before is not read again: its flag names another file.
        rm -f "$TARGET_DIR"/pgo/hiveterm-*.profdata
        gunzip -c "$gz" > "$out.tmp"
        mv "$out.tmp" "$out"
    fi
    host="$(rustc -vV | sed -n 's/^host: //p')"
    var="CARGO_TARGET_$(printf '%s' "$host" | tr 'a-z-' 'A-Z_')_RUSTFLAGS"
    export "$var=${!var:+${!var} }-Cprofile-use=$out"
}
pgo_use
