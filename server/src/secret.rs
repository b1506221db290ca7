//! Comparing secrets (the server's token, a share link's hash): the one constant-time
//! comparison.

/// Whether `a` and `b` are equal, without an early exit on the first differing byte (only the
/// lengths, which are not secret, are compared first).
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_compares_whole_slices() {
        assert!(same_bytes(b"abc", b"abc"));
        assert!(!same_bytes(b"abc", b"abd"));
        assert!(!same_bytes(b"abc", b"ab"));
    }
}
