use super::*;

#[test]
fn ranges_parse_and_bad_ones_say_why() {
    assert_eq!(parse_range("3-7"), Ok((3, 7)));
    assert_eq!(parse_range("5-5"), Ok((5, 5)));
    for bad in ["", "7", "0-3", "7-3", "a-b", "3-", "-3"] {
        assert!(parse_range(bad).is_err(), "{bad}");
    }
}

#[test]
fn base64_matches_rfc4648_vectors() {
    for (input, expect) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(base64(input.as_bytes()), expect, "{input}");
    }
}

fn text() -> Vec<u8> {
    (0..200_000u32)
        .flat_map(|i| format!("{{\"seq\":{i},\"msgs\":[]}}\n").into_bytes())
        .collect()
}

#[test]
fn deflate_round_trips_in_pieces() {
    let text = text();
    let mut z = Deflater::new(LEVEL);
    for piece in text.chunks(70_001) {
        z.write(piece);
    }
    let packed = z.finish();
    assert!(
        packed.len() < text.len() / 5,
        "{} of {}",
        packed.len(),
        text.len()
    );
    let back = miniz_oxide::inflate::decompress_to_vec(&packed).expect("inflates");
    assert_eq!(back, text);
}

/// The CLI compresses pieces of [`PIECE`] bytes on another thread, the page's worker
/// whatever its reads give: the same bytes either way.
#[test]
fn deflate_bytes_do_not_depend_on_the_pieces() {
    let text = text();
    let whole = {
        let mut z = Deflater::new(LEVEL);
        z.write(&text);
        z.finish()
    };
    for cut in [1, 4093, 65_536, 1_000_003] {
        let mut z = Deflater::new(LEVEL);
        for piece in text.chunks(cut) {
            z.write(piece);
        }
        assert_eq!(z.finish(), whole, "pieces of {cut}");
    }
}

fn classify_all(input: &[u8], opts: &Options, cut: usize) -> (Meta, Vec<serde_json::Value>) {
    let mut ex = Exporter::new(opts.clone());
    let mut out = Vec::new();
    for chunk in input.chunks(cut) {
        let more = ex.push(chunk);
        out.extend(ex.take(0).unwrap_or_default());
        if !more {
            break;
        }
    }
    let (meta, rest, _) = ex.finish("t");
    out.extend(rest);
    let envs = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (meta, envs)
}

const LOG: &[u8] = b"{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}\n\n\
{\"kind\":\"status_changed\",\"ts\":1.5,\"status\":\"busy\"}\n\
{\"kind\":\"note\",\"ts\":2.0,\"text\":\"stderr: key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}\n\
not json\n{\"kind\":\"turn_end\",\"ts\":3.0,\"ok\":true}";

/// The embedded envelopes are `hiveterm classify`'s, without the rowless ones.
#[test]
fn envelopes_are_the_classifiers_with_rows() {
    let (meta, envs) = classify_all(LOG, &Options::default(), LOG.len());
    let mut want = Vec::new();
    let mut log = classifier::LogClassifier::new();
    log.feed(LOG, |e| want.push(e));
    log.finish(|e| want.push(e));
    let want: Vec<_> = want
        .into_iter()
        .filter(|e| !e.msgs.is_empty())
        .map(|e| serde_json::to_value(e).unwrap())
        .collect();
    assert_eq!(envs, want);
    assert_eq!((meta.lines, meta.envelopes, meta.redactions), (6, 4, None));
    assert_eq!(meta.summary.turns_ok, 1);
    assert!(String::from_utf8_lossy(&serde_json::to_vec(&envs).unwrap()).contains("sk-ant-"));
}

#[test]
fn redact_removes_the_secret_and_range_keeps_seqs() {
    let opts = Options {
        redact: true,
        range: Some((4, 5)),
        ..Options::default()
    };
    for cut in [1, 7, LOG.len()] {
        let (meta, envs) = classify_all(LOG, &opts, cut);
        let seqs: Vec<_> = envs.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
        assert_eq!(seqs, vec![4, 5]);
        let text = serde_json::to_string(&envs).unwrap();
        assert!(!text.contains("sk-ant-"), "{text}");
        assert!(text.contains("[REDACTED:"), "{text}");
        assert_eq!(meta.redactions, Some(1));
        assert_eq!(meta.range, Some((4, 5)));
        // Lines past the range are not read, however the input is cut.
        assert_eq!(meta.lines, 5, "cut {cut}");
        // The summary is of the range: no turn started in it.
        assert_eq!((meta.summary.turns, meta.summary.errors), (0, 1));
    }
}

/// The review lists every redaction: its line, its kind, a masked preview, never the
/// secret.
#[test]
fn the_report_lists_each_redaction() {
    let opts = Options {
        redact: true,
        ..Options::default()
    };
    let mut ex = Exporter::new(opts);
    ex.push(LOG);
    let (meta, _, report) = ex.finish("t");
    assert_eq!(meta.redactions, Some(1));
    assert_eq!(
        (report.count, report.events, report.truncated),
        (1, 1, false)
    );
    let item = &report.items[0];
    assert_eq!((item.seq, item.kind.as_str()), (4, "anthropic_key"));
    assert!(!item.preview.contains("AAAAAAAAAA"), "{}", item.preview);
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["items"][0]["seq"], 4);
    assert_eq!(json["count"], 1);
    // Without redaction, nothing is reported.
    let mut ex = Exporter::new(Options::default());
    ex.push(LOG);
    assert_eq!(ex.finish("t").2, Report::default());
}

fn note(id: u64, from: u64, to: u64, text: &str) -> crate::Note {
    crate::Note {
        id,
        from,
        to,
        text: text.into(),
        author: format!("author of {id}"),
        created_at: 1.0,
        reader: None,
        updated_at: None,
    }
}

/// Issue 46.4: a comment link's reader's note says so in the file's meta (`reader`: the
/// link's id and title), whatever author it gives; the owner's carries no `reader` (the
/// same bytes as before readers were marked).
#[test]
fn issue_46_4_a_readers_note_is_marked_in_the_export() {
    let mut forged = note(2, 1, 1, "approved");
    forged.author = "Ann".into();
    forged.reader = Some(crate::Reader {
        link: 7,
        title: Some("review".into()),
    });
    let mut owner = note(1, 1, 1, "mine");
    owner.author = "Ann".into();
    let opts = Options {
        notes: vec![owner, forged],
        ..Options::default()
    };
    let (meta, _) = classify_all(LOG, &opts, LOG.len());
    let json: serde_json::Value = serde_json::to_value(&meta).unwrap();
    assert_eq!(json["notes"][0].get("reader"), None, "{json}");
    assert_eq!(
        json["notes"][1]["reader"],
        serde_json::json!({"link": 7, "title": "review"})
    );
}

/// The file carries the notes given, ordered by `from`: within its range only, redacted
/// with the rows (they sit in the meta, whose `<` are escaped: `html.rs`'s tests); none
/// given, no `notes` key (a file without notes is the same bytes as before notes were carried).
#[test]
fn notes_ride_in_the_meta_within_the_range_and_redacted() {
    const KEY: &str = "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    let notes = vec![
        note(3, 5, 6, "the end"),
        note(
            1,
            1,
            4,
            &format!("the key {KEY} leaked </script><script>alert(1)</script>"),
        ),
        note(2, 4, 4, "*misread* the test"),
    ];
    let check = |opts: Options, want: &[u64], redacted: bool| {
        let (meta, _) = classify_all(LOG, &opts, LOG.len());
        let ids: Vec<u64> = meta.notes.iter().map(|n| n.id).collect();
        assert_eq!(ids, want, "range {:?}", opts.range);
        let json = serde_json::to_string(&meta).unwrap();
        assert_eq!(json.contains(KEY), !redacted && want.contains(&1), "{json}");
    };
    check(
        Options {
            notes: notes.clone(),
            ..Options::default()
        },
        &[1, 2, 3],
        false,
    );
    check(
        Options {
            notes: notes.clone(),
            redact: true,
            ..Options::default()
        },
        &[1, 2, 3],
        true,
    );
    check(
        Options {
            notes: notes.clone(),
            range: Some((4, 6)),
            ..Options::default()
        },
        &[2, 3],
        false,
    );
    check(
        Options {
            notes,
            range: Some((1, 4)),
            redact: true,
            ..Options::default()
        },
        &[1, 2],
        true,
    );
    let (meta, _) = classify_all(LOG, &Options::default(), LOG.len());
    assert!(!serde_json::to_string(&meta).unwrap().contains("notes"));
}

/// Issue 45 item 7 = issue 46 item 10: the one-file export (the CLI's `export --redact` and
/// the page's "redact secrets") of a log and a note holding `(DB_PASSWORD=hunter2-…)`: the
/// value is gone from the rows and the note, the brackets and the words stay.
#[test]
fn issue_45_7_a_redacted_export_hides_db_password_in_parentheses() {
    const VALUE: &str = "hunter2-9fQ2xLm7Rk4t";
    let log = format!(
        "{{\"kind\":\"note\",\"ts\":1.0,\"text\":\"I set it (DB_PASSWORD={VALUE}) and [API_KEY={VALUE}]\"}}\n\
         plain text (token={VALUE}) here\n"
    );
    let opts = Options {
        redact: true,
        notes: vec![note(
            1,
            1,
            2,
            &format!("see (DB_PASSWORD={VALUE}), rotate it"),
        )],
        ..Options::default()
    };
    let (meta, envs) = classify_all(log.as_bytes(), &opts, log.len());
    let rows = serde_json::to_string(&envs).unwrap();
    let meta = serde_json::to_string(&meta).unwrap();
    assert!(
        !rows.contains(VALUE) && !meta.contains(VALUE),
        "{rows} {meta}"
    );
    assert!(
        rows.contains("I set it (DB_PASSWORD=[REDACTED:password]) and [API_KEY=[REDACTED:secret]]"),
        "{rows}"
    );
    assert!(rows.contains("(token=[REDACTED:secret]) here"), "{rows}");
    assert!(
        meta.contains("see (DB_PASSWORD=[REDACTED:password]), rotate it"),
        "{meta}"
    );
}
