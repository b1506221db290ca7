//! The line reader gives the same lines however its input is cut into chunks.
//!
//! - Small data-driven cases (CRLF, lone `\r`, blank and whitespace lines, no trailing
//!   newline, empty input, only newlines, BOM, invalid UTF-8, the line-length limit): each
//!   checked whole, at every two-chunk split, at every three-chunk split, and byte by byte.
//! - Every file under `fixtures/`: compared with a whole-buffer read when fed byte by byte,
//!   in random chunkings, and in two chunks `[..k]`, `[k..]` — for every `k` in files up to
//!   [`EXHAUSTIVE_BYTES`], and in larger files for every `k` within [`NEAR_NEWLINE`] bytes of a
//!   line end (where the reader's state changes: `\r`, `\n`, the next line's first byte) plus
//!   every [`STRIDE`]th `k` in between. Lines are compared as they come, without collecting,
//!   so the sweep stays fast in debug builds.

#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use classifier::lines::{Line, LineReader, OVERSIZE_HEAD_BYTES, Oversize};

/// Files up to this size get every split point.
const EXHAUSTIVE_BYTES: usize = 12 * 1024;
/// In larger files, split points this far either side of a newline are all tried…
const NEAR_NEWLINE: usize = 1;
/// …and every this-many-th split point in between.
const STRIDE: usize = 4999;

fn read_chunks<'a>(
    limit: usize,
    chunks: impl IntoIterator<Item = &'a [u8]>,
    mut out: impl FnMut(Line),
) {
    let mut reader = LineReader::with_limit(limit);
    for chunk in chunks {
        reader.push(chunk, &mut out);
    }
    reader.finish(&mut out);
}

fn lines(limit: usize, chunks: &[&[u8]]) -> Vec<Line> {
    let mut v = Vec::new();
    read_chunks(limit, chunks.iter().copied(), |l| v.push(l));
    v
}

/// Whether reading `chunks` gives exactly the lines `want`; checked as the lines come.
fn reads_as<'a>(want: &[Line], chunks: impl IntoIterator<Item = &'a [u8]>) -> bool {
    let mut i = 0;
    let mut same = true;
    read_chunks(classifier::lines::MAX_LINE_BYTES, chunks, |l| {
        same &= want.get(i) == Some(&l);
        i += 1;
    });
    same && i == want.len()
}

/// `input` (with line limit `limit`) gives lines `expect`: `(number, bytes, oversize length)`,
/// whole and in every cut into two and three chunks and into single bytes.
fn check_limit(limit: usize, input: &[u8], expect: &[(u64, &[u8], Option<u64>)]) {
    let want: Vec<Line> = expect
        .iter()
        .map(|&(number, bytes, over)| Line {
            number,
            bytes: bytes.to_vec(),
            oversize: over.map(|len| Oversize {
                len,
                limit: limit as u64,
            }),
        })
        .collect();
    assert_eq!(lines(limit, &[input]), want, "whole: {input:?}");
    let bytes: Vec<&[u8]> = input.chunks(1).collect();
    assert_eq!(lines(limit, &bytes), want, "byte by byte: {input:?}");
    for i in 0..=input.len() {
        let (a, b) = input.split_at(i);
        assert_eq!(lines(limit, &[a, b]), want, "split at {i}: {input:?}");
        for j in i..=input.len() {
            let (b, c) = input[i..].split_at(j - i);
            assert_eq!(
                lines(limit, &[a, b, c]),
                want,
                "split at {i},{j}: {input:?}"
            );
        }
    }
}

fn check(input: &[u8], expect: &[(u64, &[u8])]) {
    let expect: Vec<_> = expect.iter().map(|&(n, b)| (n, b, None)).collect();
    check_limit(classifier::lines::MAX_LINE_BYTES, input, &expect);
}

#[test]
fn plain_lines() {
    check(b"", &[]);
    check(b"a\n", &[(1, b"a")]);
    check(b"a\nbc\n", &[(1, b"a"), (2, b"bc")]);
    check(b"{\"type\":\"x\"}\n", &[(1, b"{\"type\":\"x\"}")]);
}

#[test]
fn no_trailing_newline() {
    check(b"a", &[(1, b"a")]);
    check(b"a\nbc", &[(1, b"a"), (2, b"bc")]);
    check(b"a\n\nbc", &[(1, b"a"), (3, b"bc")]);
}

#[test]
fn crlf_and_lone_cr() {
    check(b"a\r\nb\r\n", &[(1, b"a"), (2, b"b")]);
    check(b"a\r\nb", &[(1, b"a"), (2, b"b")]);
    // A lone `\r` is content, not a line end.
    check(b"a\rb\n", &[(1, b"a\rb")]);
    check(b"\ra\n", &[(1, b"\ra")]);
    // Only the one `\r` right before `\n` is the terminator's.
    check(b"a\r\r\n", &[(1, b"a\r")]);
    // A `\r` at the very end without `\n` is still dropped: the line ended there.
    check(b"a\r", &[(1, b"a")]);
}

#[test]
fn blank_lines_count_but_are_not_yielded() {
    check(b"\n", &[]);
    check(b"\n\n\n", &[]);
    check(b"\r\n\r\n", &[]);
    check(b"\n  \n\t\n \r\nx\n", &[(5, b"x")]);
    check(b" \t \r", &[]);
    check(b"a\n\r", &[(1, b"a")]);
    check(b"\n\nx\n\n", &[(3, b"x")]);
    // Only space, tab and `\r` are blank: a form feed or NUL is content.
    check(b"\x0c\n\0\n", &[(1, b"\x0c"), (2, b"\0")]);
    // Leading and trailing whitespace is kept.
    check(b"  x \n", &[(1, b"  x ")]);
}

#[test]
fn bytes_pass_through() {
    check(b"\xEF\xBB\xBF{}\n", &[(1, b"\xEF\xBB\xBF{}")]);
    check(
        b"{}\n\xEF\xBB\xBF{}\n",
        &[(1, b"{}"), (2, b"\xEF\xBB\xBF{}")],
    );
    check(b"\xff\xfe\x80\n\xc3", &[(1, b"\xff\xfe\x80"), (2, b"\xc3")]);
    check("é🐝\n".as_bytes(), &[(1, "é🐝".as_bytes())]);
}

#[test]
fn line_length_limit() {
    let check = |input: &[u8], expect: &[(u64, &[u8], Option<u64>)]| check_limit(4, input, expect);
    check(b"abcd\n", &[(1, b"abcd", None)]);
    check(b"abcd\r\n", &[(1, b"abcd", None)]);
    check(b"abcd", &[(1, b"abcd", None)]);
    check(b"abcde\n", &[(1, b"abcd", Some(5))]);
    check(b"abcde\r\n", &[(1, b"abcd", Some(5))]);
    check(b"abcde", &[(1, b"abcd", Some(5))]);
    check(
        b"abcdefgh\nxy\n",
        &[(1, b"abcd", Some(8)), (2, b"xy", None)],
    );
    check(
        b"x\nabcdefgh\r\n\nxy",
        &[(1, b"x", None), (2, b"abcd", Some(8)), (4, b"xy", None)],
    );
    // A long blank line is still blank.
    check(b"        \n \t \r \t \nx\n", &[(3, b"x", None)]);
    check(b"       x\n", &[(1, b"    ", Some(8))]);
    check(b"x       \n", &[(1, b"x   ", Some(8))]);
    check(
        b"\xff\xff\xff\xff\xff\n",
        &[(1, b"\xff\xff\xff\xff", Some(5))],
    );
}

#[test]
fn oversize_lines_keep_only_their_head() {
    let limit = OVERSIZE_HEAD_BYTES * 2;
    let long = vec![b'x'; limit * 3];
    let mut input = long.clone();
    input.extend_from_slice(b"\nnext\n");
    let want = vec![
        Line {
            number: 1,
            bytes: long[..OVERSIZE_HEAD_BYTES].to_vec(),
            oversize: Some(Oversize {
                len: long.len() as u64,
                limit: limit as u64,
            }),
        },
        Line {
            number: 2,
            bytes: b"next".to_vec(),
            oversize: None,
        },
    ];
    assert_eq!(lines(limit, &[&input]), want);
    for size in [1, 7, 100, limit, limit + 1] {
        let chunks: Vec<&[u8]> = input.chunks(size).collect();
        assert_eq!(lines(limit, &chunks), want, "chunks of {size}");
    }
}

fn fixture_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("fixtures folder") {
            let path = entry.expect("fixture entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"),
        &mut files,
    );
    files.sort();
    assert!(files.len() >= 20, "fixtures missing: {files:?}");
    files
}

/// The split points tried for a file: all of them for a small file; near every newline and
/// at a stride for a large one.
fn split_points(data: &[u8]) -> Vec<usize> {
    if data.len() <= EXHAUSTIVE_BYTES {
        return (0..=data.len()).collect();
    }
    let mut points: Vec<usize> = (0..=data.len()).step_by(STRIDE).collect();
    for (i, _) in data.iter().enumerate().filter(|&(_, &b)| b == b'\n') {
        let lo = i.saturating_sub(NEAR_NEWLINE);
        let hi = (i + 1 + NEAR_NEWLINE).min(data.len());
        points.extend(lo..=hi);
    }
    points.push(data.len());
    points.sort_unstable();
    points.dedup();
    points
}

/// A small deterministic generator for random chunk sizes (xorshift).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn every_fixture_reads_the_same_however_it_is_chunked() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for path in fixture_files() {
        let data = std::fs::read(&path).expect("read fixture");
        let name = path.display();
        let whole = lines(classifier::lines::MAX_LINE_BYTES, &[&data]);
        let newlines = data.iter().filter(|&&b| b == b'\n').count();
        assert!(
            whole.len() <= newlines + 1,
            "{name}: more lines than newlines"
        );
        assert!(reads_as(&whole, data.chunks(1)), "{name}: byte by byte");
        for round in 0..20 {
            let mut chunks = Vec::new();
            let mut rest = &data[..];
            let max = [2, 16, 300, 4096, 65536][round % 5];
            while !rest.is_empty() {
                let n = (1 + rng.below(max) as usize).min(rest.len());
                let (a, b) = rest.split_at(n);
                chunks.push(a);
                rest = b;
            }
            assert!(reads_as(&whole, chunks), "{name}: random chunking {round}");
        }
        for k in split_points(&data) {
            let (a, b) = data.split_at(k);
            assert!(reads_as(&whole, [a, b]), "{name}: split at {k}");
        }
    }
}
