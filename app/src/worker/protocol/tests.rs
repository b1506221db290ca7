use super::*;

/// Every message, encoded and decoded, is itself; its JSON is the pinned one.
fn both_ways<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(msg: &T, json: &str) {
    assert_eq!(encode(msg), json);
    assert_eq!(decode::<T>(json).as_ref(), Some(msg), "{json}");
}

#[test]
fn page_to_classifier_worker() {
    both_ways(
        &ToWorker::File {
            job: 3,
            parts: Vec::new(),
        },
        r#"{"file":{"job":3}}"#,
    );
    both_ways(
        &ToWorker::File {
            job: 4,
            parts: vec![(120.0, Some("a1".into())), (300.0, None)],
        },
        r#"{"file":{"job":4,"parts":[[120.0,"a1"],[300.0,null]]}}"#,
    );
    both_ways(&ToWorker::Shown { job: 3 }, r#"{"shown":{"job":3}}"#);
    both_ways(&ToWorker::Cancel, r#""cancel""#);
    both_ways(
        &ToWorker::Bodies {
            job: 2,
            want: vec![(7, 0), (u64::MAX, 4)],
        },
        r#"{"bodies":{"job":2,"want":[[7,0],[18446744073709551615,4]]}}"#,
    );
    both_ways(
        &ToWorker::Search {
            job: 1,
            id: 9,
            query: "é \"q\"".into(),
        },
        r#"{"search":{"job":1,"id":9,"query":"é \"q\""}}"#,
    );
    both_ways(
        &ToWorker::Save(Save {
            url: Some("/api/sessions/s/events/raw?token=t".into()),
            name: "s".into(),
            title: "t".into(),
            own_title: String::new(),
            redact: true,
            links: vec!["./app-1.js".into()],
            notes: Vec::new(),
        }),
        r#"{"save":{"url":"/api/sessions/s/events/raw?token=t","name":"s","title":"t","own_title":"","redact":true,"links":["./app-1.js"]}}"#,
    );
    both_ways(
        &ToWorker::Save(Save {
            name: "s".into(),
            notes: vec![onefile::Note {
                id: 2,
                from: 3,
                to: 4,
                text: "*why*".into(),
                author: "Ann".into(),
                created_at: 1.5,
                reader: None,
                updated_at: None,
            }],
            ..Save::default()
        }),
        r#"{"save":{"url":null,"name":"s","title":"","own_title":"","redact":false,"links":[],"notes":[{"id":2,"from":3,"to":4,"text":"*why*","author":"Ann","reader":null,"created_at":1.5,"updated_at":null}]}}"#,
    );
    both_ways(
        &ToWorker::Save(Save::default()),
        r#"{"save":{"url":null,"name":"","title":"","own_title":"","redact":false,"links":[]}}"#,
    );
}

#[test]
fn classifier_worker_to_page() {
    both_ways(&FromWorker::Ready, r#""ready""#);
    both_ways(
        &FromWorker::Rows(Rows {
            job: 1,
            read: 131_072,
            total: 154_000_000,
            lines: 40,
            done: false,
            summary: r#"{"turns":1}"#.into(),
            phases: vec![1.5, 0.0, 2.25],
        }),
        r#"{"rows":{"job":1,"read":131072,"total":154000000,"lines":40,"done":false,"summary":"{\"turns\":1}","phases":[1.5,0.0,2.25]}}"#,
    );
    both_ways(
        &FromWorker::Bodies {
            job: 1,
            found: vec![(3, 1, "line\n\u{1b}[0m <b>".into())],
        },
        r#"{"bodies":{"job":1,"found":[[3,1,"line\n\u001b[0m <b>"]]}}"#,
    );
    both_ways(
        &FromWorker::Hits {
            job: 1,
            id: 2,
            hits: vec![(5, 0), (9, 3)],
            done: true,
        },
        r#"{"hits":{"job":1,"id":2,"hits":[[5,0],[9,3]],"done":true}}"#,
    );
    both_ways(
        &FromWorker::Error {
            job: Some(4),
            message: "gone".into(),
        },
        r#"{"error":{"job":4,"message":"gone"}}"#,
    );
    both_ways(
        &FromWorker::Error {
            job: None,
            message: "no".into(),
        },
        r#"{"error":{"job":null,"message":"no"}}"#,
    );
    both_ways(
        &FromWorker::Saving { read: 1, total: 2 },
        r#"{"saving":{"read":1,"total":2}}"#,
    );
    both_ways(
        &FromWorker::Saved(Saved {
            rows: 5,
            lines: 6,
            bytes: 7,
            redact: true,
            report: "{}".into(),
        }),
        r#"{"saved":{"rows":5,"lines":6,"bytes":7,"redact":true,"report":"{}"}}"#,
    );
}

#[test]
fn page_and_markdown_worker() {
    both_ways(
        &ToMarkdown::Render {
            id: 1,
            text: "**hi**".into(),
        },
        r#"{"render":{"id":1,"text":"**hi**"}}"#,
    );
    both_ways(&FromMarkdown::Ready, r#""ready""#);
    both_ways(
        &FromMarkdown::Rendered {
            id: 1,
            html: "<p><strong>hi</strong></p>".into(),
        },
        r#"{"rendered":{"id":1,"html":"<p><strong>hi</strong></p>"}}"#,
    );
}

#[test]
fn what_is_not_a_message_is_none() {
    for json in [
        "",
        "null",
        "{}",
        r#""nope""#,
        r#""file""#,
        r#"{"file":{"job":-1}}"#,
        r#"{"bodies":{"job":1,"want":[[1]]}}"#,
        "[1,2]",
    ] {
        assert_eq!(decode::<ToWorker>(json), None, "{json}");
    }
    // Each side reads only its own kinds.
    assert_eq!(decode::<FromWorker>(r#"{"file":{"job":1}}"#), None);
    assert_eq!(decode::<ToWorker>(r#""ready""#), None);
    assert_eq!(
        decode::<FromMarkdown>(r#"{"render":{"id":1,"text":""}}"#),
        None
    );
}
