//! Issue 9's attacks on the perimeter, each against the real router (and a real SQLite
//! file): foreign pages (`Host`, `Origin`, `Sec-Fetch-Site`, `text/plain` forms), an
//! oversized `Content-Length`, the security headers, a 500's body, hostile URLs.
//! The ones that need the real binary are in `binary_attacks.rs`.

mod common;

use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use common::TestDb;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

const NOTE: &[u8] = b"{\"kind\":\"note\",\"text\":\"hello\"}\n";

/// One request, headers exactly as given (no content type added).
async fn raw(
    app: &Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Body,
) -> (StatusCode, HeaderMap, Value) {
    let mut r = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let res = app.clone().oneshot(r.body(body).unwrap()).await.unwrap();
    let (parts, body) = res.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (parts.status, parts.headers, json)
}

async fn post(app: &Router, uri: &str, headers: &[(&str, &str)], body: &[u8]) -> StatusCode {
    raw(app, "POST", uri, headers, Body::from(body.to_vec()))
        .await
        .0
}

async fn last_seq(app: &Router, id: &str) -> Option<u64> {
    let (status, _, s) = raw(
        app,
        "GET",
        &format!("/api/sessions/{id}"),
        &[],
        Body::empty(),
    )
    .await;
    (status == StatusCode::OK).then(|| s["last_seq"].as_u64().unwrap())
}

const NDJSON: (&str, &str) = ("content-type", "application/x-ndjson");

#[tokio::test]
async fn a_foreign_pages_form_or_fetch_cannot_post_events_or_end_a_session() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let events = "/api/sessions/victim/events";
    assert_eq!(post(&app, events, &[NDJSON], NOTE).await, StatusCode::OK);

    // What a page on another origin can send without a preflight: a `text/plain` form or
    // `fetch`, an urlencoded or multipart form, or no type at all (a Blob body).
    for ct in [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    ] {
        let status = post(&app, events, &[("content-type", ct)], NOTE).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct}");
    }
    assert_eq!(
        post(&app, events, &[], NOTE).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    // A POST with an empty body counts too: ending a session (which kills `hiveterm run`'s
    // agent's recording and stops a --follow for good).
    let end = "/api/sessions/victim/end";
    assert_eq!(
        post(&app, end, &[], b"").await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    assert_eq!(
        post(&app, end, &[("content-type", "text/plain")], b"").await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE
    );
    // A JSON type with another site's marks (sent after a preflight the server never
    // grants, or by a browser that lets it through): refused.
    let foreign: &[&[(&str, &str)]] = &[
        &[NDJSON, ("origin", "https://evil.example")],
        &[NDJSON, ("origin", "null")],
        &[NDJSON, ("origin", "http://localhost:9999")],
        &[NDJSON, ("sec-fetch-site", "cross-site")],
        &[NDJSON, ("sec-fetch-site", "same-site")],
        &[("x-hiveterm", "1"), ("sec-fetch-site", "cross-site")],
    ];
    for headers in foreign {
        assert_eq!(
            post(&app, events, headers, NOTE).await,
            StatusCode::FORBIDDEN,
            "{headers:?}"
        );
        assert_eq!(
            post(&app, end, headers, b"").await,
            StatusCode::FORBIDDEN,
            "{headers:?}"
        );
    }
    assert_eq!(last_seq(&app, "victim").await, Some(1), "nothing forged");
    let (_, _, s) = raw(&app, "GET", "/api/sessions/victim", &[], Body::empty()).await;
    assert_eq!(s["live"], true, "not ended");

    // Programs and the page itself keep working: NDJSON or JSON, the client header, the
    // page's own origin.
    let ok: &[&[(&str, &str)]] = &[
        &[NDJSON],
        &[("content-type", "application/json")],
        &[("x-hiveterm", "1")],
        &[
            NDJSON,
            ("host", "127.0.0.1:7171"),
            ("origin", "http://127.0.0.1:7171"),
            ("sec-fetch-site", "same-origin"),
        ],
    ];
    for headers in ok {
        assert_eq!(
            post(&app, events, headers, NOTE).await,
            StatusCode::OK,
            "{headers:?}"
        );
    }
    assert_eq!(last_seq(&app, "victim").await, Some(5));
    assert_eq!(
        post(&app, end, &[("content-type", "application/json")], b"").await,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_rebound_dns_name_cannot_read_or_write() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    assert_eq!(
        post(&app, "/api/sessions/s/events", &[NDJSON], NOTE).await,
        StatusCode::OK
    );
    for host in [
        "evil.example:7171",
        "localhost.evil.example",
        "127.0.0.1.nip.io:7171",
    ] {
        for uri in [
            "/api/sessions",
            "/api/sessions/s/events/history",
            "/api/sessions/s/events/stream",
            "/",
            "/s/s",
        ] {
            let (status, _, body) = raw(&app, "GET", uri, &[("host", host)], Body::empty()).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{host} {uri}");
            assert!(body["error"].as_str().unwrap().contains("Host"), "{body}");
        }
        let status = post(
            &app,
            "/api/sessions/s/events",
            &[NDJSON, ("host", host)],
            NOTE,
        )
        .await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}");
    }
    assert_eq!(last_seq(&app, "s").await, Some(1));
    for host in [
        "127.0.0.1:7171",
        "localhost:7171",
        "[::1]:7171",
        "LOCALHOST:1",
    ] {
        let (status, ..) = raw(
            &app,
            "GET",
            "/api/sessions",
            &[("host", host)],
            Body::empty(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{host}");
    }
}

#[tokio::test]
async fn host_port_and_public_names_are_checked_when_configured() {
    let config = hiveterm::Config {
        perimeter: hiveterm::guard::Perimeter {
            port: Some(7171),
            public_names: vec!["hive.example.com".into()],
        },
        ..hiveterm::Config::default()
    };
    let db = TestDb::with(config, 4);
    let app = hiveterm::app(db.state.clone());
    for (host, ok) in [
        ("127.0.0.1:7171", true),
        ("localhost:7171", true),
        ("[::1]:7171", true),
        ("hive.example.com", true),
        ("127.0.0.1:7172", false),
        ("localhost:8080", false),
        ("evil.example:7171", false),
    ] {
        let (status, ..) = raw(
            &app,
            "GET",
            "/api/sessions",
            &[("host", host)],
            Body::empty(),
        )
        .await;
        assert_eq!(status == StatusCode::OK, ok, "{host}: {status}");
    }
}

#[tokio::test]
async fn another_sites_fetch_cannot_read_the_api() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    let (status, ..) = raw(
        &app,
        "GET",
        "/api/sessions",
        &[("sec-fetch-site", "cross-site"), ("sec-fetch-mode", "cors")],
        Body::empty(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    for headers in [
        &[
            ("sec-fetch-site", "same-origin"),
            ("sec-fetch-mode", "cors"),
        ][..],
        &[
            ("sec-fetch-site", "cross-site"),
            ("sec-fetch-mode", "navigate"),
        ],
        &[],
    ] {
        let (status, ..) = raw(&app, "GET", "/api/sessions", headers, Body::empty()).await;
        assert_eq!(status, StatusCode::OK, "{headers:?}");
    }
}

#[tokio::test]
async fn an_oversized_content_length_is_refused_before_the_body_is_read() {
    let config = hiveterm::Config {
        max_request_bytes: 1000,
        ..hiveterm::Config::default()
    };
    let db = TestDb::with(config, 4);
    let app = hiveterm::app(db.state.clone());
    // A body that never comes: reading any of it would hang.
    let never = Body::from_stream(futures_util::stream::pending::<
        Result<Vec<u8>, std::io::Error>,
    >());
    let answer = tokio::time::timeout(
        Duration::from_secs(5),
        raw(
            &app,
            "POST",
            "/api/sessions/big/events",
            &[NDJSON, ("content-length", "1000000000")],
            never,
        ),
    )
    .await
    .expect("answered without reading the body");
    assert_eq!(answer.0, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(last_seq(&app, "big").await, None);
}

#[tokio::test]
async fn answers_carry_the_security_headers() {
    let db = TestDb::new();
    let dist = db.dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><p>page</p>").unwrap();
    std::fs::write(dist.join("worker_loader.js"), "// loader").unwrap();
    std::fs::write(dist.join("app-0123456789abcdef.js"), "// app").unwrap();
    let app = hiveterm::app(db.state.clone());
    let (_, page, _) = raw(&app, "GET", "/", &[], Body::empty()).await;
    let csp = page["content-security-policy"].to_str().unwrap();
    for directive in [
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    ] {
        assert!(csp.contains(directive), "{csp}");
    }
    for (_, h, _) in [
        raw(&app, "GET", "/", &[], Body::empty()).await,
        raw(&app, "GET", "/api/sessions", &[], Body::empty()).await,
        raw(&app, "GET", "/api/nope", &[], Body::empty()).await,
    ] {
        assert_eq!(h["x-frame-options"], "DENY");
        assert_eq!(h["referrer-policy"], "no-referrer");
        assert_eq!(h["x-content-type-options"], "nosniff");
    }
    let (_, api, _) = raw(&app, "GET", "/api/sessions", &[], Body::empty()).await;
    assert_eq!(api["cache-control"], "no-store");
    let (status, loader, _) = raw(&app, "GET", "/s/x/worker_loader.js", &[], Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(loader["cache-control"], "no-cache", "unhashed: asked again");
    let (_, hashed, _) = raw(&app, "GET", "/app-0123456789abcdef.js", &[], Body::empty()).await;
    assert!(
        hashed["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable"),
        "{hashed:?}"
    );
}

#[tokio::test]
async fn a_500_says_nothing_of_the_failure() {
    let db = TestDb::new();
    let app = hiveterm::app(db.state.clone());
    assert_eq!(
        post(&app, "/api/sessions/s/events", &[NDJSON], NOTE).await,
        StatusCode::OK
    );
    // Break the database under the server: the next write fails inside it.
    db.sql("DROP TABLE rendered");
    let (status, _, body) = raw(
        &app,
        "POST",
        "/api/sessions/s/events",
        &[NDJSON],
        Body::from(NOTE.to_vec()),
    )
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    let error = body["error"].as_str().unwrap();
    assert!(
        !error.contains("rendered") && !error.contains("table"),
        "{error}"
    );
    assert!(error.contains("log"), "{error}");
}

#[tokio::test]
async fn hostile_urls_cost_no_file_checks_and_never_500() {
    let db = TestDb::new();
    let dist = db.dir.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><p>page</p>").unwrap();
    std::fs::write(dist.join("worker.js"), "// worker").unwrap();
    let app = hiveterm::app(db.state.clone());
    // A 256-byte segment (over the file system's name limit) was a 500.
    let long = format!("/s/{}", "a".repeat(256));
    let (status, ..) = raw(&app, "GET", &long, &[], Body::empty()).await;
    assert_eq!(status, StatusCode::OK, "the page");
    let long = format!("/{}/worker.js", "b".repeat(300));
    let (status, h, _) = raw(&app, "GET", &long, &[], Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h["content-type"], "text/javascript");
    // Thousands of segments: one file check each (and a copy of the rest) was seconds.
    let many = "/x".repeat(20_000);
    let t = Instant::now();
    let (status, ..) = raw(&app, "GET", &many, &[], Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    let many = format!("{}/worker.js", "/x".repeat(20_000));
    let (status, h, _) = raw(&app, "GET", &many, &[], Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h["content-type"], "text/javascript");
    // Nothing outside the built files, however the path is spelled.
    for path in [
        "/../Cargo.toml",
        "/s/%2e%2e/test.db",
        "/test.db",
        "/dist/worker.js/..",
    ] {
        let (status, h, _) = raw(&app, "GET", path, &[], Body::empty()).await;
        assert!(
            status == StatusCode::OK
                && h["content-type"].to_str().unwrap().starts_with("text/html")
                || status.is_client_error(),
            "{path}: {status} {h:?}"
        );
    }
}
