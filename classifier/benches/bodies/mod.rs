//! Markdown bodies for the benchmark and the hostile tests: one realistic, the rest built to
//! hit known slow paths of markdown and HTML parsers. Each is about `size` bytes.

/// A named body.
pub struct Body {
    pub name: &'static str,
    pub text: String,
}

/// A realistic agent answer (headings, prose with emphasis and links, lists, a table, code
/// fences, quotes, task lists) repeated up to `size` bytes.
pub fn realistic(size: usize) -> String {
    const SECTION: &str = "## Summary of the change\n\n\
The **classifier** now reads lines in chunks; see [the spec](https://example.com/spec#5) and \
`LineReader::push`. It handles *CRLF*, a BOM and ~~quadratic~~ linear growth.\n\n\
- parse each line with `serde_json`\n  - nested: keep the `ClassifyCtx`\n  - [x] done\n  - [ ] todo\n\
- render bodies with **pulldown-cmark** then ammonia\n\n\
1. first\n2. second with a <https://example.org> autolink\n\n\
| file | lines | status |\n|:-----|------:|:------:|\n| lines.rs | 210 | ok |\n| ansi.rs | 180 | ok |\n\n\
```rust\nfn main() {\n    println!(\"hello <world> & friends\");\n}\n```\n\n\
> A quoted remark with `code` and a [link](https://example.com).\n> Second line.\n\n\
Plain paragraph text that goes on for a while, the way an agent explains what it did and why \
it did it, with a footnote-like (1) aside and an image ![diagram](https://example.com/d.png).\n\n";
    repeat_to(SECTION, size)
}

/// Every hostile body, each about `size` bytes.
pub fn hostile(size: usize) -> Vec<Body> {
    let b = |name, text: String| Body { name, text };
    vec![
        b("nested quotes, one line", ">".repeat(size)),
        b("nested quotes, spaced", "> ".repeat(size / 2)),
        b(
            "nested quotes, a line each",
            nested_lines(size, "> ", "quote"),
        ),
        b("nested lists, indented", indented_lists(size)),
        b("nested lists, one line", "- ".repeat(size / 2) + "x"),
        b("nested ordered lists", "1. ".repeat(size / 3) + "x"),
        b("emphasis runs", repeat_to("*a **b ***c ", size)),
        b("bare asterisks", "*".repeat(size)),
        b("unclosed emphasis", repeat_to("*a _b ", size)),
        b("table pipes", "|".repeat(size)),
        b("wide table", wide_table(size)),
        b("open brackets", "[".repeat(size)),
        b("nested links", repeat_to("[a](", size)),
        b("nested images", repeat_to("![", size)),
        b("bracket pairs", repeat_to("[]", size)),
        b("raw html nesting", repeat_to("<div><b><i>", size)),
        b("backticks", repeat_to("`a``", size)),
        b("ansi noise", repeat_to("\x1b[31m*x*\x1b[0m\r", size)),
    ]
}

/// `unit` repeated until the result is at least `size` bytes.
pub fn repeat_to(unit: &str, size: usize) -> String {
    unit.repeat(size.div_ceil(unit.len()))
}

/// Line `k` is `k` copies of `prefix` and then `word`, until `size` bytes.
fn nested_lines(size: usize, prefix: &str, word: &str) -> String {
    let mut s = String::with_capacity(size + 64);
    let mut k = 1;
    while s.len() < size {
        s.push_str(&prefix.repeat(k));
        s.push_str(word);
        s.push('\n');
        k += 1;
    }
    s
}

/// A list item per line, each indented one level deeper than the last.
fn indented_lists(size: usize) -> String {
    let mut s = String::with_capacity(size + 64);
    let mut k = 0;
    while s.len() < size {
        s.push_str(&"  ".repeat(k));
        s.push_str("- item\n");
        k += 1;
    }
    s
}

/// A table with a header of many columns, then many short rows.
fn wide_table(size: usize) -> String {
    let cols = (size / 8).min(20_000);
    let mut s = "|a".repeat(cols) + "|\n" + &"|-".repeat(cols) + "|\n";
    while s.len() < size {
        s.push_str("|x|\n");
    }
    s
}
