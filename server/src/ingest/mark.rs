//! A followed file's mark: a hash of its first bytes and of the bytes just before its stored
//! position, kept with the position (`FollowPos::mark`). The position alone cannot tell a
//! file that grew from one rewritten in place past it (truncated and written again in one
//! write, or removed and made again on a reused inode): read on from the position, the new
//! file would lose its first lines and give a fragment of a line. A file whose mark no longer
//! holds is another file, read from its start (`--watch`: a main log in a new session, a
//! subagent's file in its session after a note; `--follow`: in its session after a note).
//!
//! The mark is taken from the file just after its lines are read, before they are committed
//! with it; a rewrite in those microseconds is not told apart.

use std::os::unix::fs::FileExt;

/// Bytes of the file's start a mark hashes.
const HEAD: u64 = 1024;
/// Bytes just before the position a mark hashes.
const TAIL: u64 = 1024;

/// The mark of `file` at `offset`: a hash of its first [`HEAD`] bytes, its [`TAIL`] bytes
/// before `offset`, and `offset`. None when it has fewer than `offset` bytes (or cannot be
/// read); never 0 (a position stored without a mark).
pub fn mark(file: &std::fs::File, offset: u64) -> Option<u64> {
    let mut buf = [0u8; HEAD as usize];
    let head = HEAD.min(offset);
    file.read_exact_at(&mut buf[..head as usize], 0).ok()?;
    let mut hash = fnv(0xcbf2_9ce4_8422_2325, &buf[..head as usize]);
    let tail = offset.saturating_sub(TAIL).max(head);
    let mut buf = [0u8; TAIL as usize];
    let want = &mut buf[..(offset - tail) as usize];
    file.read_exact_at(want, tail).ok()?;
    hash = fnv(hash, want);
    hash = fnv(hash, &offset.to_le_bytes());
    Some(hash.max(1))
}

/// Whether `file` is still the file stored to `offset` with mark `was`, as far as the mark
/// tells: it has `offset` bytes and they are as they were (no mark: it has them).
pub fn holds(file: &std::fs::File, offset: u64, was: u64) -> bool {
    if offset == 0 {
        return true;
    }
    match mark(file, offset) {
        Some(m) => was == 0 || m == was,
        None => false,
    }
}

/// FNV-1a, 64 bits, of `bytes` from `hash`.
fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_of(bytes: &[u8]) -> std::fs::File {
        let mut f = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut f, bytes).unwrap();
        f
    }

    #[test]
    fn a_mark_holds_while_the_file_grows_and_not_once_it_is_rewritten() {
        let old: String = (0..100).map(|i| format!("old line {i}\n")).collect();
        let at = mark(&file_of(old.as_bytes()), old.len() as u64).unwrap();
        let grown = format!("{old}new line\n");
        let rewritten: String = (0..300).map(|i| format!("new line {i}\n")).collect();
        let same_end = format!("X{}", &old[1..]);
        let check = |bytes: &str, mark: u64, want: bool| {
            let file = file_of(bytes.as_bytes());
            assert_eq!(holds(&file, old.len() as u64, mark), want, "{bytes:.20}");
        };
        check(&grown, at, true);
        check(&rewritten, at, false);
        check(&same_end, at, false);
        check(&old[..10], at, false);
        // Stored before marks: only its length is known.
        check(&rewritten, 0, true);
        check(&old[..10], 0, false);
    }
}
