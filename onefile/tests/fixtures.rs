//! Every fixture log's export against [`classifier::LogClassifier`].

use onefile::{Exporter, Options};

/// A log's export, fed in pieces of `cut` bytes: its envelopes and its summary.
fn export(log: &[u8], cut: usize) -> (Vec<serde_json::Value>, classifier::Summary) {
    let mut ex = Exporter::new(Options::default());
    let mut out = Vec::new();
    for chunk in log.chunks(cut) {
        ex.push(chunk);
        out.extend(ex.take(0).unwrap_or_default());
    }
    let (meta, rest, _) = ex.finish("t");
    out.extend(rest);
    let envs = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (envs, meta.summary)
}

/// Regression (CI of 2026-12-07): the export of a Gemini recording lost the `✅ turn ok` its
/// file's end adds, so an export opened showed a row fewer than `hiveterm classify`. Every
/// fixture log's export is the classifier's envelopes with rows, its summary the same, however
/// the input is cut.
#[test]
fn every_fixture_exports_the_classifiers_envelopes_and_the_ends_rows() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures");
    let mut seen = 0;
    let mut ended = 0;
    for dir in std::fs::read_dir(root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_none_or(|e| e != "jsonl") {
                continue;
            }
            let log = std::fs::read(&file).unwrap();
            let mut want = Vec::new();
            let mut c = classifier::LogClassifier::new().with_summary();
            c.feed(&log, |e| want.push(e));
            let end = c.ctx().end_pending().is_some();
            c.finish(|e| want.push(e));
            let want: Vec<_> = want
                .into_iter()
                .filter(|e| !e.msgs.is_empty())
                .map(|e| serde_json::to_value(e).unwrap())
                .collect();
            for cut in [7, 4096, log.len().max(1)] {
                let (envs, summary) = export(&log, cut);
                assert_eq!(envs, want, "{} cut {cut}", file.display());
                assert_eq!(summary, c.summary().unwrap(), "{}", file.display());
            }
            seen += 1;
            ended += usize::from(end);
        }
    }
    assert!(seen >= 60, "{seen} fixture logs");
    assert!(ended >= 5, "{ended} logs whose end adds rows");
}
