//! The one door by which agent text becomes HTML: pulldown-cmark (tables, strikethrough, task
//! lists), then ammonia with its default allowlist — never widened, only narrowed.
//!
//! What [`render`] guarantees, whatever the input:
//! - Safe HTML: everything goes through ammonia's default allowlist (no scripts, no event
//!   handlers); links carry `rel="noopener noreferrer"` and stay clickable only to `http`,
//!   `https` and `mailto` targets and in-page anchors ([`LINK_SCHEMES`]). A link whose text
//!   is not its target is followed by the target's host (`docs (evil.example)`).
//! - Nothing remote: no `<img>` at all (a tracking pixel would leak a shared link). A markdown
//!   image shows as its alt text; `img` is also removed from ammonia's allowlist.
//! - Raw HTML in the markdown is shown, escaped, as text (an HTML block as a code block), never
//!   interpreted: agent output quoting `<script>` or `<details>` reads as written.
//! - Escape sequences and control characters are stripped first ([`crate::sanitize`]).
//! - Bounded time (under 50 ms for any body up to 1 MB, release; see `benches/markdown.rs`):
//!   ammonia's HTML parser is slow (a few MB/s) and quadratic in nesting depth, and
//!   pulldown-cmark slows down on long runs of brackets, so only the first
//!   [`MAX_MARKDOWN_BYTES`] are parsed as markdown, a line opening more than [`MAX_PREFIX`]
//!   quotes or list items is not, at most [`MAX_DEPTH`] elements nest and at most
//!   [`MAX_ELEMENTS`] are made. From the first place past any limit the rest of the text is
//!   shown as an escaped plain-text block, after a note saying why.

use pulldown_cmark::{CodeBlockKind, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

/// How much of a body (in bytes, after stripping) is rendered as markdown; the rest is shown as
/// plain text.
pub const MAX_MARKDOWN_BYTES: usize = 32 * 1024;

/// How deeply elements may nest (blockquotes, lists, items, emphasis, links, … all count).
pub const MAX_DEPTH: usize = 32;

/// How many quote and list markers may open one line (`> > - x` has three).
pub const MAX_PREFIX: usize = 12;

/// How many elements (paragraphs, items, emphasis, links, cells, …) one body may make.
pub const MAX_ELEMENTS: usize = 2048;

/// Renders untrusted markdown to HTML that is safe to insert into a page.
pub fn render(text: &str) -> String {
    let mut text = text.to_owned();
    crate::text::sanitize(&mut text);
    let (head, mut rest, mut why) = split_at_budget(&text);

    let mut events: Vec<Event<'_>> = Vec::new();
    let mut open: Vec<TagEnd> = Vec::new();
    let mut elements = 0;
    // The link being read: its target (when it is worth showing) and its text so far.
    let mut link: Option<(Option<String>, String)> = None;
    let parser = Parser::new_ext(head, options()).into_offset_iter();
    for (event, range) in parser {
        if let Some((_, text)) = &mut link
            && let Event::Text(t) | Event::Code(t) = &event
        {
            text.push_str(t);
        }
        match event {
            Event::Start(Tag::Link {
                link_type,
                ref dest_url,
                ..
            }) if open.len() < MAX_DEPTH && elements < MAX_ELEMENTS => {
                let shown = !matches!(link_type, LinkType::Autolink | LinkType::Email);
                link = Some((shown.then(|| dest_url.to_string()), String::new()));
                elements += 1;
                open.push(TagEnd::Link);
                events.push(event);
            }
            Event::End(TagEnd::Link) => {
                if let Some(end) = open.pop() {
                    events.push(Event::End(end));
                }
                if let Some((Some(target), text)) = link.take()
                    && let Some(shown) = target_shown(&target, &text)
                {
                    events.push(Event::Text(CowStr::from(format!(" ({shown})"))));
                }
            }
            // Images: the alt text (the events inside) stays, the image goes.
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
            Event::Start(tag) => {
                if open.len() >= MAX_DEPTH || elements >= MAX_ELEMENTS {
                    rest = &text[range.start..];
                    why = if open.len() >= MAX_DEPTH {
                        "nested too deeply"
                    } else {
                        "too many elements"
                    };
                    break;
                }
                elements += 1;
                let tag = match tag {
                    Tag::HtmlBlock => Tag::CodeBlock(CodeBlockKind::Indented),
                    tag => tag,
                };
                open.push(tag.to_end());
                events.push(Event::Start(tag));
            }
            Event::End(_) => {
                if let Some(end) = open.pop() {
                    events.push(Event::End(end));
                }
            }
            Event::Html(html) | Event::InlineHtml(html) => events.push(Event::Text(html)),
            Event::TaskListMarker(done) => {
                events.push(Event::Text(CowStr::Borrowed(if done {
                    "☑ "
                } else {
                    "☐ "
                })));
            }
            event => events.push(event),
        }
    }
    // Close what the cut left open, innermost first.
    events.extend(open.into_iter().rev().map(Event::End));

    let mut html = String::with_capacity(head.len() + head.len() / 4);
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    let mut out = cleaner().clean(&html).to_string();
    if !rest.trim().is_empty() {
        plain_tail(&mut out, rest, why);
    }
    out
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Ammonia's defaults, narrowed: no images; links only to `http`, `https` and `mailto`
/// targets and to anchors of the page itself (`#…`; any other relative URL loses its `href`).
fn cleaner() -> ammonia::Builder<'static> {
    let mut b = ammonia::Builder::default();
    b.rm_tags(["img"])
        .link_rel(Some("noopener noreferrer"))
        .url_schemes(LINK_SCHEMES.iter().copied().collect())
        .url_relative(ammonia::UrlRelative::Custom(Box::new(in_page_only)));
    b
}

/// The schemes a link may have and stay clickable.
pub const LINK_SCHEMES: &[&str] = &["http", "https", "mailto"];

/// A relative URL stays only when it is an anchor of the page itself.
fn in_page_only(url: &str) -> Option<std::borrow::Cow<'_, str>> {
    url.starts_with('#')
        .then_some(std::borrow::Cow::Borrowed(url))
}

/// What to show after a link whose text is not its target: the host of an `http(s)` link
/// (the text `docs` hiding `https://evil.example/…` reads `docs (evil.example)`), the address
/// of a `mailto:` one; `None` when the text already says it (or the link is not clickable).
fn target_shown(target: &str, text: &str) -> Option<String> {
    let url = url::Url::parse(target).ok()?;
    let text = text.trim().to_ascii_lowercase();
    let bare = |s: &str| {
        let s = s.trim().to_ascii_lowercase();
        let s = s
            .split_once("://")
            .map_or(s.as_str(), |(_, rest)| rest)
            .to_owned();
        s.trim_end_matches('/').to_owned()
    };
    let shown = match url.scheme() {
        "http" | "https" => url.host_str()?.to_owned(),
        "mailto" => url.path().to_owned(),
        _ => return None,
    };
    let said = text == shown.to_ascii_lowercase()
        || bare(&text) == bare(target)
        || text == target.to_ascii_lowercase()
        || text.strip_prefix("mailto:").unwrap_or(&text) == shown.to_ascii_lowercase();
    (!said && !shown.is_empty()).then_some(shown)
}

/// Splits `text` into the part rendered as markdown and the rest; with why there is a rest.
/// The cut falls at the start of the first line with too many quote or list markers, or else
/// at the size limit (at a line end when there is one in the budget's last half).
fn split_at_budget(text: &str) -> (&str, &str, &'static str) {
    let mut cut = text.len().min(MAX_MARKDOWN_BYTES);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut start = 0;
    for line in text[..cut].split_inclusive('\n') {
        if prefix_markers(line) > MAX_PREFIX {
            return (&text[..start], &text[start..], "nested too deeply");
        }
        start += line.len();
    }
    if cut == text.len() {
        return (text, "", "");
    }
    if let Some(nl) = text[cut / 2..cut].rfind('\n') {
        cut = cut / 2 + nl + 1;
    }
    (&text[..cut], &text[cut..], "too long")
}

/// How many block quote and list item markers open `line` (an over-estimate is fine: it only
/// decides where plain text starts).
fn prefix_markers(line: &str) -> usize {
    let b = line.as_bytes();
    let (mut i, mut markers) = (0, 0);
    loop {
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        let after = |j: usize| {
            b.get(j)
                .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        };
        match b.get(i) {
            Some(b'>') => i += 1,
            Some(b'-' | b'*' | b'+') if after(i + 1) => i += 1,
            Some(_)
                if (1..=9).contains(&digits)
                    && matches!(b.get(i + digits), Some(b'.' | b')'))
                    && after(i + digits + 1) =>
            {
                i += digits + 1
            }
            _ => return markers,
        }
        markers += 1;
    }
}

/// Appends `rest` as an escaped plain-text block, after a note saying why.
fn plain_tail(out: &mut String, rest: &str, why: &str) {
    out.reserve(rest.len() + rest.len() / 8 + 128);
    out.push_str("<p><em>(the remaining ");
    out.push_str(&rest.len().to_string());
    out.push_str(" bytes are shown as plain text: ");
    out.push_str(why);
    out.push_str(")</em></p>\n<pre><code>");
    escape_into(out, rest);
    if !rest.ends_with('\n') {
        out.push('\n');
    }
    out.push_str("</code></pre>\n");
}

/// Appends `text` with `&`, `<` and `>` escaped: safe as an element's content. One `memchr3`
/// scan, runs copied whole.
fn escape_into(out: &mut String, text: &str) {
    let mut done = 0;
    for i in memchr::memchr3_iter(b'&', b'<', b'>', text.as_bytes()) {
        out.push_str(&text[done..i]);
        out.push_str(match text.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            _ => "&gt;",
        });
        done = i + 1;
    }
    out.push_str(&text[done..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `input` renders to exactly `expect`.
    fn check(input: &str, expect: &str) {
        assert_eq!(render(input), expect, "render({input:?})");
    }

    #[test]
    fn renders_markdown() {
        check(
            "**bold** and *em*",
            "<p><strong>bold</strong> and <em>em</em></p>\n",
        );
        check("~~gone~~", "<p><del>gone</del></p>\n");
        check("# Title", "<h1>Title</h1>\n");
        check("- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
        check("`a<b`", "<p><code>a&lt;b</code></p>\n");
        check(
            "```rust\nfn x() {}\n```",
            "<pre><code>fn x() {}\n</code></pre>\n",
        );
        check(
            "| a | b |\n|---|--:|\n| 1 | 2 |",
            "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>\n\
             <tr><td>1</td><td>2</td></tr>\n</tbody></table>\n",
        );
        check("", "");
    }

    #[test]
    fn task_lists_show_as_boxes() {
        check(
            "- [x] done\n- [ ] todo",
            "<ul>\n<li>☑ done</li>\n<li>☐ todo</li>\n</ul>\n",
        );
    }

    #[test]
    fn links_are_noopener_and_never_javascript() {
        check(
            "[spec](https://example.com/a?b=c)",
            "<p><a href=\"https://example.com/a?b=c\" rel=\"noopener noreferrer\">spec</a> \
             (example.com)</p>\n",
        );
        check(
            "<https://example.com>",
            "<p><a href=\"https://example.com\" rel=\"noopener noreferrer\">https://example.com</a></p>\n",
        );
        check(
            "[x](javascript:alert(1))",
            "<p><a rel=\"noopener noreferrer\">x</a></p>\n",
        );
        check(
            "[x](JaVaScRiPt:alert(1))",
            "<p><a rel=\"noopener noreferrer\">x</a></p>\n",
        );
        check(
            "[x](data:text/html;base64,PHNjcmlwdD4=)",
            "<p><a rel=\"noopener noreferrer\">x</a></p>\n",
        );
    }

    #[test]
    fn only_web_mail_and_in_page_links_stay_clickable() {
        let dead = |text: &str| format!("<p><a rel=\"noopener noreferrer\">{text}</a></p>\n");
        for target in [
            "file:///etc/passwd",
            "ftp://example.com/x",
            "vbscript:x",
            "tel:+15551234",
            "ssh://host",
            "/api/sessions/x/end",
            "../s/other",
            "//evil.example/x",
            "s/other",
        ] {
            check(&format!("[x]({target})"), &dead("x"));
        }
        check(
            "[up](#top)",
            "<p><a href=\"#top\" rel=\"noopener noreferrer\">up</a></p>\n",
        );
        check(
            "[write](mailto:bob@example.com)",
            "<p><a href=\"mailto:bob@example.com\" rel=\"noopener noreferrer\">write</a> \
             (bob@example.com)</p>\n",
        );
        check(
            "<bob@example.com>",
            "<p><a href=\"mailto:bob@example.com\" rel=\"noopener noreferrer\">bob@example.com</a></p>\n",
        );
    }

    #[test]
    fn a_link_whose_text_is_not_its_target_shows_its_host() {
        check(
            "[the docs](https://evil.example/login)",
            "<p><a href=\"https://evil.example/login\" rel=\"noopener noreferrer\">the docs</a> \
             (evil.example)</p>\n",
        );
        // A text that looks like another URL is the phishing case.
        check(
            "[https://github.com/x](https://github.com.evil.example/x)",
            "<p><a href=\"https://github.com.evil.example/x\" rel=\"noopener noreferrer\">\
             https://github.com/x</a> (github.com.evil.example)</p>\n",
        );
        check(
            "[docs](https://user@evil.example:8443/)",
            "<p><a href=\"https://user@evil.example:8443/\" rel=\"noopener noreferrer\">docs</a> \
             (evil.example)</p>\n",
        );
        // Text that says the target (or its host): nothing added.
        for (text, target) in [
            ("https://example.com/a", "https://example.com/a"),
            ("example.com/a", "https://example.com/a"),
            ("example.com", "https://example.com/"),
            ("EXAMPLE.com", "https://example.com/path"),
        ] {
            check(
                &format!("[{text}]({target})"),
                &format!("<p><a href=\"{target}\" rel=\"noopener noreferrer\">{text}</a></p>\n"),
            );
        }
        // Not clickable: no host to show.
        check(
            "[docs](javascript:alert(1))",
            "<p><a rel=\"noopener noreferrer\">docs</a></p>\n",
        );
        check(
            "[`code` text](https://example.org/x)",
            "<p><a href=\"https://example.org/x\" rel=\"noopener noreferrer\"><code>code</code> \
             text</a> (example.org)</p>\n",
        );
    }

    #[test]
    fn images_become_their_alt_text() {
        check(
            "![a pixel](https://tracker.example/p.gif)",
            "<p>a pixel</p>\n",
        );
        check("![](https://tracker.example/p.gif)", "<p></p>\n");
        check(
            "![inline](data:image/png;base64,iVBORw0KGgo=)",
            "<p>inline</p>\n",
        );
        check(
            "![ref *alt*][r]\n\n[r]: https://tracker.example/p.gif",
            "<p>ref <em>alt</em></p>\n",
        );
        check(
            "[![badge](https://img.example/b.svg)](https://example.com)",
            "<p><a href=\"https://example.com\" rel=\"noopener noreferrer\">badge</a> \
             (example.com)</p>\n",
        );
    }

    #[test]
    fn raw_html_is_shown_not_run() {
        check(
            "<script>alert(1)</script>",
            "<pre><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></pre>\n",
        );
        check(
            "hi <img src=x onerror=alert(1)> there",
            "<p>hi &lt;img src=x onerror=alert(1)&gt; there</p>\n",
        );
        check(
            "<a href=\"javascript:alert(1)\">x</a> y",
            "<p>&lt;a href=\"javascript:alert(1)\"&gt;x&lt;/a&gt; y</p>\n",
        );
        check(
            "<details><summary>s</summary>\n\nbody\n\n</details>",
            "<pre><code>&lt;details&gt;&lt;summary&gt;s&lt;/summary&gt;\n</code></pre>\n\
             <p>body</p>\n<pre><code>&lt;/details&gt;</code></pre>\n",
        );
    }

    #[test]
    fn escapes_and_controls_are_stripped_first() {
        check("\x1b[31m**red**\x1b[0m", "<p><strong>red</strong></p>\n");
        check(
            "\x1b]8;;https://evil.example\x07link\x1b]8;;\x07",
            "<p>link</p>\n",
        );
        check("a\0b\x07c", "<p>abc</p>\n");
        check("10%\r100%", "<p>100%</p>\n");
    }

    #[test]
    fn too_deep_nesting_is_cut_to_plain_text() {
        // Too many markers on one line: that line and the rest are plain text.
        let deep = format!("ok\n\n{} x\nafter", ">".repeat(MAX_PREFIX + 1));
        let html = render(&deep);
        assert!(
            html.starts_with("<p>ok</p>\n<p><em>(the remaining"),
            "{html}"
        );
        assert!(
            html.contains("shown as plain text: nested too deeply"),
            "{html}"
        );
        assert!(
            html.ends_with("&gt;&gt;&gt; x\nafter\n</code></pre>\n"),
            "{html}"
        );
        let ok = "> - 1. ".repeat(MAX_PREFIX / 3) + "x";
        assert_eq!(render(&ok).matches("<blockquote>").count(), MAX_PREFIX / 3);
        // Nesting built over many lines is cut at the element that goes too deep.
        let mut stairs = String::new();
        for k in 0..MAX_DEPTH {
            stairs.push_str(&"  ".repeat(k));
            stairs.push_str("- item\n");
        }
        let html = render(&stairs);
        assert!(
            html.contains("shown as plain text: nested too deeply"),
            "{html}"
        );
        assert_eq!(html.matches("<ul>").count(), html.matches("</ul>").count());
        assert!(html.matches("<ul>").count() < MAX_DEPTH / 2 + 1);
    }

    #[test]
    fn plain_text_is_escaped() {
        let mut out = String::new();
        escape_into(&mut out, "a<b>&c \"q\" é<");
        assert_eq!(out, "a&lt;b&gt;&amp;c \"q\" é&lt;");
        let mut out = String::new();
        plain_tail(&mut out, "<script>x", "too long");
        assert_eq!(
            out,
            "<p><em>(the remaining 9 bytes are shown as plain text: too long)</em></p>\n\
             <pre><code>&lt;script&gt;x\n</code></pre>\n"
        );
    }

    #[test]
    fn too_many_elements_end_in_plain_text() {
        let many = "*a* ".repeat(MAX_ELEMENTS);
        let html = render(&many);
        assert_eq!(html.matches("<em>a</em>").count(), MAX_ELEMENTS - 1);
        assert!(
            html.contains("shown as plain text: too many elements"),
            "{html}"
        );
    }

    #[test]
    fn too_long_bodies_end_in_plain_text() {
        let para = "word ".repeat(100) + "*em*\n\n";
        let long = para.repeat(MAX_MARKDOWN_BYTES / para.len() + 10);
        let html = render(&long);
        assert!(html.contains("shown as plain text: too long"));
        let (md, plain) = html.split_once("shown as plain text").unwrap();
        assert!(md.matches("<em>").count() > 50);
        assert!(!plain.contains("<em>"));
        assert!(plain.contains("word *em*\n\nword word"));
        // The cut falls at a line end: the markdown part ends with a whole paragraph.
        assert!(
            md.contains("<em>em</em></p>\n<p><em>(the remaining "),
            "{md}"
        );
    }
}
