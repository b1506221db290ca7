//! `<Row>` for each row shape against the expected HTML, in headless Chromium
//! (wasm-bindgen-test; run by scripts/test-page.sh with TZ=UTC).
#![cfg(target_arch = "wasm32")]

use std::sync::Arc;

use app::markdown::render::Renderer;
use app::model::state::{Row as RowData, TurnTime};
use app::view::row::Row;
use classifier::{BodyFormat, Level, TermMsg};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn data(seq: u64, idx: u32, msg: TermMsg, turn: Option<TurnTime>) -> RowData {
    RowData {
        uid: 1,
        seq: Some(seq),
        idx,
        ts: Some(1_764_468_000.0),
        tool: classifier::tool_of(&msg).map(Into::into),
        msg,
        turn: turn.map(Box::new),
        lazy: None,
        parent: None,
        depth: 0,
    }
}

/// A markdown renderer that answers at once, as the worker would
/// ([`Renderer::with_backend`]).
fn md_now() -> Renderer {
    let me = std::rc::Rc::new(std::cell::Cell::new(None::<Renderer>));
    let m = me.clone();
    let r = Renderer::with_backend(move |id, body| {
        if let Some(r) = m.get() {
            r.answer(id, classifier::markdown::render(&body));
        }
    });
    me.set(Some(r));
    r
}

/// Renders a row and returns its outer HTML without Leptos's empty comment markers.
/// Markdown is rendered at once ([`md_now`]).
fn render(row: RowData, open: bool, query: &str) -> String {
    render_full(row, open, query, false, md_now())
}

/// [`render`], with the whole body drawn when `full`, markdown rendered by `md` (the page
/// hands the rows its renderer by context).
fn render_full(row: RowData, open: bool, query: &str, full: bool, md: Renderer) -> String {
    let doc = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let row = Arc::new(row);
    let query = query.to_owned();
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_context(md);
        view! { <Row row=row.clone() pos=0 open=open query=query.clone() full=full /> }
    });
    let html = host.first_element_child().unwrap().outer_html();
    drop(handle);
    host.remove();
    let mut out = html;
    while let Some(a) = out.find("<!--") {
        let b = out[a..].find("-->").map(|b| a + b + 3).unwrap_or(out.len());
        out.replace_range(a..b, "");
    }
    out
}

fn check(row: RowData, open: bool, query: &str, want: &str) {
    assert_eq!(render(row, open, query), want);
}

#[wasm_bindgen_test]
fn flat_row_with_icon() {
    check(
        data(
            3,
            0,
            TermMsg::new(Level::Info, "Read src/lib.rs").icon("📖"),
            None,
        ),
        false,
        "",
        r##"<div class="row level-info dir-out" data-seq="3" data-idx="0" data-pos="0"><span class="row-glyph">📖</span><span class="summary-text">Read src/lib.rs</span><a class="row-link" href="#3" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></div>"##,
    );
}

#[wasm_bindgen_test]
fn flat_row_without_icon_has_no_glyph_cell() {
    check(
        data(4, 1, TermMsg::new(Level::Debug, "harness note"), None),
        false,
        "",
        r##"<div class="row level-debug" data-seq="4" data-idx="1" data-pos="0"><span class="summary-text">harness note</span><a class="row-link" href="#4" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></div>"##,
    );
}

#[wasm_bindgen_test]
fn turn_start_with_body_is_details_with_time_outside_summary() {
    check(
        data(
            1,
            0,
            TermMsg::new(Level::Info, "TURN ← operator")
                .icon("◆")
                .body("fix the build"),
            Some(TurnTime::Start {
                ts: 1_764_468_000.0,
            }),
        ),
        false,
        "",
        r##"<details class="row level-info" data-seq="1" data-idx="0" data-pos="0"><summary><span class="row-glyph">◆</span><span class="summary-text">TURN ← operator</span><span class="turn-time">02:00:00</span><a class="row-link" href="#1" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></summary><pre class="body plain">fix the build</pre></details>"##,
    );
}

#[wasm_bindgen_test]
fn turn_end_shows_time_and_duration() {
    check(
        data(
            9,
            0,
            TermMsg::new(Level::Error, "turn fail — claude exited 1").icon("❌"),
            Some(TurnTime::End {
                ts: 1_764_468_090.5,
                dur: Some(90.5),
            }),
        ),
        false,
        "",
        r##"<div class="row level-error" data-seq="9" data-idx="0" data-pos="0"><span class="row-glyph">❌</span><span class="summary-text">turn fail — claude exited 1</span><span class="turn-time">02:01:30 · 1m 31s</span><a class="row-link" href="#9" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></div>"##,
    );
}

#[wasm_bindgen_test]
fn empty_summary_markdown_row_is_flat_with_md_body() {
    check(
        data(
            5,
            0,
            TermMsg::new(Level::Info, "").body_as("hello *there*", BodyFormat::Markdown),
            None,
        ),
        false,
        "",
        "<div class=\"row level-info\" data-seq=\"5\" data-idx=\"0\" data-pos=\"0\"><div class=\"md\"><p>hello <em>there</em></p>\n</div><a class=\"row-link\" href=\"#5\" data-pos=\"0\" title=\"link to this row (c copies it)\" aria-label=\"link to this row\"></a></div>",
    );
}

#[wasm_bindgen_test]
fn markdown_body_with_summary_expands_open_per_preference() {
    check(
        data(
            6,
            0,
            TermMsg::new(Level::Info, "send* → alice · 1L")
                .icon("📤")
                .body_as("**hi**", BodyFormat::Markdown),
            None,
        ),
        true,
        "",
        "<details class=\"row level-info dir-out\" data-seq=\"6\" data-idx=\"0\" data-pos=\"0\" open=\"\"><summary><span class=\"row-glyph\">📤</span><span class=\"summary-text\">send* → alice · 1L</span><a class=\"row-link\" href=\"#6\" data-pos=\"0\" title=\"link to this row (c copies it)\" aria-label=\"link to this row\"></a></summary><div class=\"md\"><p><strong>hi</strong></p>\n</div></details>",
    );
}

#[wasm_bindgen_test]
fn diff_body_colours_added_and_removed_lines() {
    check(
        data(
            7,
            0,
            TermMsg::new(Level::Info, "Edit src/a.rs · -1 +1")
                .icon("✏️")
                .body_as("-old\n+new\n same", BodyFormat::Diff),
            None,
        ),
        false,
        "",
        "<details class=\"row level-info dir-out\" data-seq=\"7\" data-idx=\"0\" data-pos=\"0\"><summary><span class=\"row-glyph\">✏️</span><span class=\"summary-text\">Edit src/a.rs · -1 +1</span><a class=\"row-link\" href=\"#7\" data-pos=\"0\" title=\"link to this row (c copies it)\" aria-label=\"link to this row\"></a></summary><pre class=\"body diff\"><span class=\"diff-del\">-old\n</span><span class=\"diff-add\">+new\n</span><span class=\"diff-ctx\"> same\n</span></pre></details>",
    );
}

#[wasm_bindgen_test]
fn long_error_result_is_closed_details_with_plain_body() {
    check(
        data(
            8,
            2,
            TermMsg::new(Level::Error, "3l · error: boom").body("error: boom\nat a\nat b"),
            None,
        ),
        false,
        "",
        "<details class=\"row level-error\" data-seq=\"8\" data-idx=\"2\" data-pos=\"0\"><summary><span class=\"summary-text\">3l · error: boom</span><a class=\"row-link\" href=\"#8\" data-pos=\"0\" title=\"link to this row (c copies it)\" aria-label=\"link to this row\"></a></summary><pre class=\"body plain\">error: boom\nat a\nat b</pre></details>",
    );
}

#[wasm_bindgen_test]
fn warn_row() {
    check(
        data(10, 0, TermMsg::new(Level::Warn, "stderr: careful"), None),
        false,
        "",
        r##"<div class="row level-warn" data-seq="10" data-idx="0" data-pos="0"><span class="summary-text">stderr: careful</span><a class="row-link" href="#10" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></div>"##,
    );
}

#[wasm_bindgen_test]
fn search_hits_are_marked_as_text() {
    check(
        data(
            11,
            0,
            TermMsg::new(Level::Info, "Grep <b>TODO</b>").icon("🔎"),
            None,
        ),
        false,
        "todo",
        r##"<div class="row level-info dir-out" data-seq="11" data-idx="0" data-pos="0"><span class="row-glyph">🔎</span><span class="summary-text">Grep &lt;b&gt;<mark>TODO</mark>&lt;/b&gt;</span><a class="row-link" href="#11" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></div>"##,
    );
}

#[wasm_bindgen_test]
fn html_in_summary_and_plain_body_stays_text() {
    let html = render(
        data(
            12,
            0,
            TermMsg::new(Level::Info, "<img src=x onerror=alert(1)>")
                .body("<script>alert(1)</script>"),
            None,
        ),
        true,
        "",
    );
    assert!(!html.contains("<img"), "{html}");
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("&lt;script&gt;"), "{html}");
}

#[wasm_bindgen_test]
fn markdown_is_escaped_plain_text_until_its_html_arrives() {
    // A worker that has not answered yet: the body as text, never as markup.
    let asked = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let log = asked.clone();
    let md = Renderer::with_backend(move |id, body| log.borrow_mut().push((id, body)));
    let body = "pending <b>*not yet*</b>";
    let row = || {
        data(
            14,
            0,
            TermMsg::new(Level::Info, "").body_as(body, BodyFormat::Markdown),
            None,
        )
    };
    assert_eq!(
        render_full(row(), false, "", false, md),
        "<div class=\"row level-info\" data-seq=\"14\" data-idx=\"0\" data-pos=\"0\"><div class=\"md pending\">pending &lt;b&gt;*not yet*&lt;/b&gt;</div><a class=\"row-link\" href=\"#14\" data-pos=\"0\" title=\"link to this row (c copies it)\" aria-label=\"link to this row\"></a></div>",
    );
    let (id, text) = asked.borrow()[0].clone();
    assert_eq!(text, body);
    // Answered: drawn again, the row shows the HTML at once (cached).
    md.answer(id, classifier::markdown::render(&text));
    let html = render_full(row(), false, "", false, md);
    assert!(
        html.contains("<div class=\"md\"><p>pending &lt;b&gt;<em>not yet</em>&lt;/b&gt;</p>"),
        "{html}"
    );
    assert_eq!(asked.borrow().len(), 1, "asked once");
}

#[wasm_bindgen_test]
fn a_closed_rows_markdown_is_not_rendered() {
    let asked = std::rc::Rc::new(std::cell::Cell::new(0));
    let n = asked.clone();
    let md = Renderer::with_backend(move |_, _| n.set(n.get() + 1));
    let html = render_full(
        data(
            15,
            0,
            TermMsg::new(Level::Info, "Agent explore")
                .icon("⌁")
                .body_as("closed *body*", BodyFormat::Markdown),
            None,
        ),
        false,
        "",
        false,
        md,
    );
    assert!(
        html.contains("<div class=\"md pending\">closed *body*</div>"),
        "{html}"
    );
    assert_eq!(asked.get(), 0);
}

#[wasm_bindgen_test]
fn markdown_links_open_safely_and_scripts_are_dropped() {
    let html = render(
        data(
            13,
            0,
            TermMsg::new(Level::Info, "").body_as(
                "[a](https://example.com) [b](javascript:alert(1)) <script>x()</script>",
                BodyFormat::Markdown,
            ),
            None,
        ),
        false,
        "",
    );
    assert!(html.contains(r#"rel="noopener noreferrer""#), "{html}");
    assert!(!html.contains("javascript:"), "{html}");
    assert!(!html.contains("<script"), "{html}");
}

#[wasm_bindgen_test]
fn huge_body_is_cut_with_a_show_all_control_and_whole_when_full() {
    let line = "y".repeat(99) + "\n";
    let body = line.repeat(3_000); // 300,000 bytes: over the 128 KiB drawn at first
    let msg = || TermMsg::new(Level::Info, "3000l · yyy…").body(body.clone());
    let shown = line.repeat(app::model::text::BODY_SHOWN_BYTES / 100);
    check(
        data(4, 0, msg(), None),
        false,
        "",
        &format!(
            "<details class=\"row level-info\" data-seq=\"4\" data-idx=\"0\" data-pos=\"0\"><summary><span class=\"summary-text\">3000l · yyy…</span><a class=\"row-link\" href=\"#4\" data-pos=\"0\" title=\"link to this row (c copies it)\" aria-label=\"link to this row\"></a></summary><pre class=\"body plain\">{shown}</pre><button class=\"show-all\" data-pos=\"0\">show all 3,000 lines (300 KB)</button></details>"
        ),
    );
    assert_eq!(
        render_full(data(4, 0, msg(), None), false, "", true, md_now()),
        format!(
            "<details class=\"row level-info\" data-seq=\"4\" data-idx=\"0\" data-pos=\"0\"><summary><span class=\"summary-text\">3000l · yyy…</span><a class=\"row-link\" href=\"#4\" data-pos=\"0\" title=\"link to this row (c copies it)\" aria-label=\"link to this row\"></a></summary><pre class=\"body plain\">{body}</pre></details>"
        )
    );
}

#[wasm_bindgen_test]
fn a_body_left_in_the_file_is_pending_until_read() {
    // A closed row does not ask for it; an open one shows an empty pending block.
    let mut row = data(9, 1, TermMsg::new(Level::Info, "3l · cargo test"), None);
    row.lazy = Some(3);
    check(
        row.clone(),
        false,
        "",
        r##"<details class="row level-info" data-seq="9" data-idx="1" data-pos="0"><summary><span class="summary-text">3l · cargo test</span><a class="row-link" href="#9" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></summary><pre class="body pending" style="height: 60px;"></pre></details>"##,
    );
    check(
        row,
        true,
        "",
        r##"<details class="row level-info" data-seq="9" data-idx="1" data-pos="0" open=""><summary><span class="summary-text">3l · cargo test</span><a class="row-link" href="#9" data-pos="0" title="link to this row (c copies it)" aria-label="link to this row"></a></summary><pre class="body pending" style="height: 60px;"></pre></details>"##,
    );
}

/// Issue 21: a call is `dir-out`, a result `dir-in` (the classifier's `row_kind`), an error
/// neither; a subagent's row is `nested` with its depth; a call that started a subagent ends
/// with its block's toggle.
#[wasm_bindgen_test]
fn direction_nesting_and_block_marks() {
    let class = |html: &str| {
        html[html.find("class=\"").unwrap() + 7..]
            .split('"')
            .next()
            .unwrap()
            .to_owned()
    };
    let result = data(4, 0, TermMsg::new(Level::Info, "ok").icon("←"), None);
    assert_eq!(class(&render(result, false, "")), "row level-info dir-in");
    let error = data(4, 0, TermMsg::new(Level::Error, "boom").icon("✗"), None);
    assert_eq!(class(&render(error, false, "")), "row level-error");
    let mut nested = data(9, 0, TermMsg::new(Level::Info, "Read a").icon("📖"), None);
    nested.parent = Some(3);
    nested.depth = 2;
    let html = render(nested, false, "");
    assert_eq!(class(&html), "row level-info dir-out nested");
    assert!(html.contains("style=\"--depth:2\""), "{html}");
    let doc = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = doc.create_element("div").unwrap().unchecked_into();
    doc.body().unwrap().append_child(&host).unwrap();
    let call = Arc::new(data(
        3,
        0,
        TermMsg::new(Level::Info, "Agent a [x]").icon("🤖"),
        None,
    ));
    let handle = leptos::mount::mount_to(host.clone(), move || {
        provide_context(md_now());
        view! { <Row row=call.clone() pos=0 open=false block=Some(("x · a · 1 tool call · ✓ done".to_owned(), false)) /> }
    });
    let html = host.inner_text();
    drop(handle);
    host.remove();
    assert!(html.contains("▸ ⌁ x · a · 1 tool call · ✓ done"), "{html}");
}
