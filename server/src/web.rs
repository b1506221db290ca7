//! The page: its built files (the ones the binary carries, `crate::page`, or `dist/` or
//! `--static DIR` on disk), `index.html` for `/`, `/s/{id}`, `/compare/{a}/{b}`, `/usage` and
//! any other path that is not a file (the page routes itself), and the CSP on HTML.
//!
//! The built page asks for its assets relative to itself (trunk's `public_url = "./"`), so a
//! page at `/s/{id}` asks for `/s/app-….js`, and one at `/s/{id}/` for `/s/{id}/app-….js`.
//! The rule, for any path outside `/api`: a path that names a built file is that file;
//! otherwise the longest tail of its segments that names one is (`/s/x/worker.js` →
//! `worker.js`); otherwise it is `index.html`. `index.html` itself is only ever served as the
//! page (with its script hashes). So a session whose id is a built file's name (`worker.js`)
//! is shadowed at `/s/{id}` by that file.
//!
//! Without a built page, `/` answers a minimal HTML list of the sessions and `/s/{id}` a
//! note pointing at the API, so the server is useful before the page exists.
//!
//! The CSP allows only this origin, inline styles, WebAssembly, and — hashed one by one —
//! the inline `<script>`s of `index.html` (trunk's loader), read each time it is served.

use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};
use tower_http::services::ServeDir;

pub(crate) mod files;

use crate::page::hashed;
use crate::state::AppState;

/// The policy for every HTML answer; inline script hashes are added to `script-src`.
/// Nothing may frame the page (`frame-ancestors`), embed plugins, change the base URL or
/// submit forms.
pub const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; script-src 'self' 'wasm-unsafe-eval'";

/// The page routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/s/{id}", get(session_page))
        .route("/compare/{a}/{b}", get(compare_page))
        .route("/usage", get(index))
        .fallback(files)
        .layer(middleware::from_fn(html_headers))
}

/// Adds the base CSP (and `nosniff`) to HTML answers that do not carry one.
async fn html_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let headers = res.headers_mut();
    let html = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if html && !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

/// The built `index.html`, if there is one.
pub(crate) async fn built_index(state: &AppState) -> Option<String> {
    if let Some(page) = &state.config().page {
        return page.index_html().map(str::to_owned);
    }
    tokio::fs::read_to_string(state.config().static_dir.join("index.html"))
        .await
        .ok()
}

/// `index.html` with its CSP.
pub(crate) fn serve_index(html: String) -> Response {
    let csp = csp_for(&html);
    let mut res = Html(html).into_response();
    if let Ok(v) = HeaderValue::from_str(&csp) {
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

async fn index(State(state): State<AppState>) -> Response {
    match built_index(&state).await {
        Some(html) => serve_index(html),
        None => listing(&state).await,
    }
}

/// `/compare/{a}/{b}`: the page, which shows the two sessions side by side (or, unbuilt, a
/// note pointing at the API).
async fn compare_page(
    State(state): State<AppState>,
    Path((a, b)): Path<(String, String)>,
    req: Request,
) -> Response {
    if let Some(res) = built_file(&state, req).await {
        return res;
    }
    match built_index(&state).await {
        Some(html) => serve_index(html),
        None => {
            let (a, b) = (escape(&a), escape(&b));
            Html(format!(
                "<!doctype html><meta charset=utf-8><title>hiveterm · {a} ↔ {b}</title>\
                 <p>The page is not built. The comparison: \
                 <a href=\"/api/compare/{a}/{b}\">JSON</a>. <a href=\"/\">All sessions</a>.</p>"
            ))
            .into_response()
        }
    }
}

async fn session_page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    req: Request,
) -> Response {
    if let Some(res) = built_file(&state, req).await {
        return res;
    }
    match built_index(&state).await {
        Some(html) => serve_index(html),
        None => {
            let id = escape(&id);
            Html(format!(
                "<!doctype html><meta charset=utf-8><title>hiveterm · {id}</title>\
                 <p>The page is not built (no <code>index.html</code> in the static directory). \
                 Its events: <a href=\"/api/sessions/{id}/events/history\">history</a>, \
                 <a href=\"/api/sessions/{id}/state\">state</a>. <a href=\"/\">All sessions</a>.</p>"
            ))
            .into_response()
        }
    }
}

/// The built file a path names: the path itself, else the longest tail of its segments that
/// names one (an asset asked for relative to a page below the root); `None` if there is none.
/// `index.html` is left out: it is served as the page, by [`serve_index`]. The tails are
/// matched against [`files::Files`], an in-memory list, so a path of thousands of segments or one
/// of a 256-byte segment costs no file system call; only a match is read from disk.
pub(crate) async fn built_file(state: &AppState, req: Request) -> Option<Response> {
    use tower::ServiceExt as _;
    if let Some(page) = &state.config().page {
        return page.respond(&req);
    }
    let dir = &state.config().static_dir;
    let name = state.files().find(dir, req.uri().path())?;
    let mut tail = Request::builder()
        .method(req.method().clone())
        .uri(format!("/{name}"));
    for (k, v) in req.headers() {
        tail = tail.header(k, v);
    }
    let tail = tail.body(axum::body::Body::empty()).ok()?;
    let serve = ServeDir::new(dir).append_index_html_on_directories(false);
    let mut res = match serve.oneshot(tail).await {
        Ok(res) => res.into_response(),
        Err(never) => match never {},
    };
    if res.status() == StatusCode::NOT_FOUND {
        return None;
    }
    // Trunk names the app's own files by content hash; the worker's loader and anything
    // else keep their names across builds, so a browser must ask again each time.
    let cache = if hashed(&name) {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    Some(res)
}

/// Built files (see the module's rule); a path that names none gets `index.html` (the page
/// routes itself).
async fn files(State(state): State<AppState>, req: Request) -> Response {
    if let Some(res) = built_file(&state, req).await {
        return res;
    }
    match built_index(&state).await {
        Some(html) => serve_index(html),
        None => (
            StatusCode::NOT_FOUND,
            Html("<!doctype html><p>Not found.</p>"),
        )
            .into_response(),
    }
}

/// The minimal page before the real one is built: the sessions, newest first.
async fn listing(state: &AppState) -> Response {
    if state.config().token.is_some() {
        return Html(
            "<!doctype html><meta charset=utf-8><title>hiveterm</title><h1>hiveterm</h1>\
             <p>Sessions are listed at <code>/api/sessions?token=…</code>.</p>",
        )
        .into_response();
    }
    let sessions = match state
        .store()
        .sessions(None, crate::index::api::SESSIONS_DEFAULT)
        .await
    {
        Ok(s) => s,
        Err(e) => return crate::error::AppError::from(e).into_response(),
    };
    let mut html = String::from(
        "<!doctype html><meta charset=utf-8><title>hiveterm</title><h1>hiveterm sessions</h1><ul>",
    );
    for s in sessions {
        let state = if s.live { "live" } else { "ended" };
        html.push_str(&format!(
            "<li><a href=\"/s/{id}\">{title}</a> · {id} · {state} · {n} events</li>",
            id = escape(&s.id),
            title = escape(&s.title),
            n = s.last_seq,
        ));
    }
    html.push_str("</ul>");
    Html(html).into_response()
}

/// Text escaped for HTML.
pub use onefile::html::escape;

/// The CSP for a page: [`CSP`] plus a `'sha256-…'` source per inline script.
pub fn csp_for(html: &str) -> String {
    let mut csp = CSP.to_owned();
    for script in inline_scripts(html) {
        let digest = Sha256::digest(script.as_bytes());
        csp.push_str(&format!(" 'sha256-{}'", base64(&digest)));
    }
    csp
}

/// The contents of `<script>` elements without a `src` attribute.
fn inline_scripts(html: &str) -> Vec<&str> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(start) = lower[at..].find("<script").map(|i| i + at) {
        let Some(open_end) = lower[start..].find('>').map(|i| i + start + 1) else {
            break;
        };
        let Some(close) = lower[open_end..].find("</script").map(|i| i + open_end) else {
            break;
        };
        let tag = &lower[start..open_end];
        let has_src = tag
            .split(|c: char| c.is_ascii_whitespace())
            .any(|attr| attr.starts_with("src=") || attr == "src");
        if !has_src {
            out.push(&html[open_end..close]);
        }
        at = close;
    }
    out
}

/// Standard base64 with padding (the one the export's layout uses).
pub(crate) use onefile::base64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csp_hashes_inline_scripts_only() {
        let html = r#"<html><head><script type="module">import init from '/app.js';init();</script>
<script src="/other.js"></script></head></html>"#;
        let csp = csp_for(html);
        // sha256 of the inline module script's text, as a browser computes it.
        let digest = Sha256::digest(b"import init from '/app.js';init();");
        assert!(csp.starts_with(CSP), "{csp}");
        assert!(
            csp.ends_with(&format!(" 'sha256-{}'", base64(&digest))),
            "{csp}"
        );
        assert_eq!(csp.matches("sha256-").count(), 1, "{csp}");
        assert_eq!(csp_for("<p>no scripts</p>"), CSP);
    }

    #[test]
    fn escape_escapes_markup() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
