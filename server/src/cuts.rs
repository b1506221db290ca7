//! Where a commit's SSE frames are cut into broadcast batches (`crate::hub`): at frame ends,
//! each piece at most a size, so a commit bigger than that (many appends grouped in one
//! transaction after a stall) still travels in the broadcast. Announced without its bytes, it
//! used to send every client to the database at once, which slowed the writes, which grouped
//! more appends: under the load benchmark, a spiral to seconds of latency and gigabytes.

/// One piece of the event frames: where it ends in them, and the seq of its last frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cut {
    pub(crate) end: usize,
    pub(crate) last: u64,
}

/// The pieces of `frames` (`id: <seq>` frames, each ending in a blank line) of at most `max`
/// bytes each, but for a single frame bigger than that (a piece of its own). None when a
/// frame has no `id:` or does not end (then the frames are not cut).
pub(crate) fn cuts(frames: &[u8], max: usize) -> Option<Vec<Cut>> {
    let mut out: Vec<Cut> = Vec::new();
    let (mut start, mut at) = (0, 0);
    while at < frames.len() {
        let rest = &frames[at..];
        let len = rest.windows(2).position(|w| w == b"\n\n")? + 2;
        let seq = rest
            .strip_prefix(b"id: ")
            .and_then(|r| r.iter().position(|&b| b == b'\n').map(|n| &r[..n]))
            .and_then(|n| std::str::from_utf8(n).ok())
            .and_then(|n| n.parse::<u64>().ok())?;
        if at > start && at + len - start > max {
            start = at;
        }
        at += len;
        match out.last_mut() {
            Some(last) if last.end > start => *last = Cut { end: at, last: seq },
            _ => out.push(Cut { end: at, last: seq }),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{Cut, cuts};
    use crate::hub::push_json_frame;

    fn frames(sizes: &[usize]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, n) in sizes.iter().enumerate() {
            push_json_frame(&mut out, 10 + i as u64, &"x".repeat(*n));
        }
        out
    }

    #[test]
    fn pieces_end_at_frames_and_hold_at_most_max() {
        // Each frame of `n` bytes of JSON is `n + 15` bytes (`id: 1x\ndata: …\n\n`).
        let f = frames(&[10, 10, 10]);
        assert_eq!(cuts(&f, 1000), Some(vec![Cut { end: 75, last: 12 }]));
        assert_eq!(
            cuts(&f, 50),
            Some(vec![Cut { end: 50, last: 11 }, Cut { end: 75, last: 12 }])
        );
        assert_eq!(
            cuts(&f, 49),
            Some(vec![
                Cut { end: 25, last: 10 },
                Cut { end: 50, last: 11 },
                Cut { end: 75, last: 12 }
            ])
        );
        // A frame bigger than `max` is a piece of its own.
        let f = frames(&[10, 100, 10]);
        assert_eq!(
            cuts(&f, 50),
            Some(vec![
                Cut { end: 25, last: 10 },
                Cut { end: 140, last: 11 },
                Cut { end: 165, last: 12 }
            ])
        );
        assert_eq!(cuts(&[], 50), Some(vec![]));
    }

    #[test]
    fn every_split_of_random_sizes_covers_the_frames_in_order() {
        for case in 0..200u64 {
            let mut seed = case;
            let sizes: Vec<usize> = (0..(seed % 12) as usize)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % 300) as usize + i
                })
                .collect();
            let f = frames(&sizes);
            for max in [1, 30, 100, 400, 100_000] {
                let pieces = cuts(&f, max).unwrap();
                let mut start = 0;
                for p in &pieces {
                    assert!(p.end > start);
                    assert!(
                        p.end - start <= max
                            || f[start..p.end].windows(2).filter(|w| *w == b"\n\n").count() == 1
                    );
                    start = p.end;
                }
                assert_eq!(start, f.len());
                assert_eq!(
                    pieces.last().map(|p| p.last),
                    sizes.len().checked_sub(1).map(|i| 10 + i as u64)
                );
            }
        }
    }

    /// Regression (the load benchmark): a commit over `MAX_INLINE_BATCH` was announced
    /// without its bytes, and every client read it from the database at once.
    #[test]
    fn a_big_commit_is_broadcast_in_pieces_that_add_up_to_it() {
        use crate::fold::SessionFold;
        use crate::hub::{Hub, MAX_INLINE_BATCH, SessionInfo};
        let info = |last_seq| SessionInfo {
            id: "s".into(),
            title: "s".into(),
            source: "post".into(),
            started: 0.0,
            ended: None,
            live: true,
            last_seq,
            given_title: "s".into(),
        };
        let hub = Hub::new(info(9), SessionFold::default());
        let (mut rx, head, _) = hub.subscribe();
        assert_eq!(head, 9);
        // Events 10..=109, 4 KB each; event 110 has no rows.
        let f = frames(&[4000; 100]);
        assert!(f.len() > 3 * MAX_INLINE_BATCH);
        hub.publish(info(110), SessionFold::default(), false, Some(f.clone()));
        let (mut after, mut got) = (9, Vec::new());
        while let Ok(batch) = rx.try_recv() {
            assert_eq!(batch.after, after);
            let bytes = batch.bytes.as_ref().expect("broadcast with its bytes");
            assert!(bytes.len() <= MAX_INLINE_BATCH);
            got.extend_from_slice(bytes);
            after = batch.last;
        }
        assert_eq!(after, 110);
        assert_eq!(got, f);
    }

    #[test]
    fn frames_without_ids_or_ends_are_not_cut() {
        assert_eq!(cuts(b"event: state\ndata: {}\n\n", 10), None);
        assert_eq!(cuts(b"id: 3\ndata: {}", 10), None);
    }
}
