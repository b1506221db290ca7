//! The one door by which agent text becomes HTML: pulldown-cmark, then ammonia with its
//! default allowlist (never widened).

/// Renders untrusted markdown to HTML that is safe to insert into a page.
pub fn render(text: &str) -> String {
    let parser = pulldown_cmark::Parser::new(text);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    ammonia::clean(&html)
}
