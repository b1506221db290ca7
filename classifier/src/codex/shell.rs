//! What Codex writes about commands and patches, read back: the command as the user would
//! type it ([`unwrap_command`], [`unwrap_argv`]), a tool output's exit code and text
//! ([`exec_output`], [`patch_output`]), and a patch's files and line counts ([`Patch`]).

use crate::field::Field;
use std::borrow::Cow;

/// The shells whose `-c` / `-lc` wrapper is taken off a command.
const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash"];

/// `cmd` as the user would type it: `/bin/bash -lc 'echo ok'` → `echo ok` (a command string
/// split as a POSIX shell splits it; `cmd` itself when it does not split, or is no such
/// wrapper).
pub(crate) fn unwrap_command(cmd: &str) -> Cow<'_, str> {
    if let Some(script) = quoted_script(cmd) {
        return Cow::Borrowed(script);
    }
    split_command(cmd)
}

/// [`unwrap_command`] by splitting `cmd` into words.
fn split_command(cmd: &str) -> Cow<'_, str> {
    // A wrapper is three or four words ([`inner`]): a longer command is not split further.
    match split_words(cmd, 4) {
        Some(mut argv) => match inner(&argv) {
            Some(i) => Cow::Owned(argv.swap_remove(i)),
            None => Cow::Borrowed(cmd),
        },
        None => Cow::Borrowed(cmd),
    }
}

/// The script of the wrapper Codex writes nearly every command as, `<shell> -lc '<script>'`
/// (or `-c`, `-cl`; or in double quotes), read in place when its quotes hold nothing the shell
/// reads inside them (no `'` in single quotes; no `"` or `\` in double quotes): the script is
/// then the quotes' bytes as they are, what [`split_command`] gives, without copying them a
/// word at a time. Any other spelling: `None`.
fn quoted_script(cmd: &str) -> Option<&str> {
    let (shell, rest) = cmd.split_once(' ')?;
    if !SHELLS.contains(&shell.rsplit('/').next()?) {
        return None;
    }
    let rest = ["-lc ", "-c ", "-cl "]
        .iter()
        .find_map(|flag| rest.strip_prefix(flag))?;
    let quote = rest.chars().next().filter(|q| matches!(q, '\'' | '"'))?;
    let script = rest[1..].strip_suffix(quote)?;
    let plain = match quote {
        '\'' => !script.contains('\''),
        _ => !script.contains(['"', '\\']),
    };
    plain.then_some(script)
}

/// An argv as the user would type it: the script of a `bash -lc <script>`, else the words
/// joined by spaces, each quoted when the shell would need it.
pub(crate) fn unwrap_argv(argv: &[String]) -> String {
    if let Some(i) = inner(argv) {
        return argv[i].clone();
    }
    argv.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

/// The index of the script in `[shell, -c|-lc|-l -c, script]`.
fn inner(argv: &[String]) -> Option<usize> {
    let name = argv.first()?.rsplit('/').next().unwrap_or("");
    if !SHELLS.contains(&name) {
        return None;
    }
    match argv.get(1).map(String::as_str) {
        Some("-c" | "-lc" | "-cl") if argv.len() == 3 => Some(2),
        Some("-l") if argv.len() == 4 && argv[2] == "-c" => Some(3),
        _ => None,
    }
}

/// A word quoted for a POSIX shell when it needs quoting.
fn quote(w: &str) -> Cow<'_, str> {
    let plain = !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    if plain {
        Cow::Borrowed(w)
    } else {
        Cow::Owned(format!("'{}'", w.replace('\'', r"'\''")))
    }
}

/// `s` split into words as a POSIX shell does (quotes and backslashes; no expansion);
/// `None` for an unterminated quote or a trailing backslash, or when it has more than `max`
/// words (found before the end: the split stops there). Plain runs and quoted texts are
/// copied whole; only the shell's own bytes, all ASCII, are looked at one by one.
pub(crate) fn split_words(s: &str, max: usize) -> Option<Vec<String>> {
    /// Bytes that end a plain run.
    fn special(b: u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\n' | b'\'' | b'"' | b'\\')
    }
    let b = s.as_bytes();
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b' ' | b'\t' | b'\n' => {
                if in_word {
                    if words.len() == max {
                        return None;
                    }
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                i += 1;
            }
            b'\'' => {
                in_word = true;
                let len = memchr::memchr(b'\'', &b[i + 1..])?;
                word.push_str(&s[i + 1..i + 1 + len]);
                i += len + 2;
            }
            b'"' => {
                in_word = true;
                i += 1;
                loop {
                    let at = i + memchr::memchr2(b'"', b'\\', &b[i..])?;
                    word.push_str(&s[i..at]);
                    if b[at] == b'"' {
                        i = at + 1;
                        break;
                    }
                    match *b.get(at + 1)? {
                        c @ (b'$' | b'`' | b'"' | b'\\') => {
                            word.push(char::from(c));
                            i = at + 2;
                        }
                        b'\n' => i = at + 2,
                        // The backslash stays; the character after it starts the next run.
                        _ => {
                            word.push('\\');
                            i = at + 1;
                        }
                    }
                }
            }
            b'\\' => {
                in_word = true;
                let next = s[i + 1..].chars().next()?;
                if next != '\n' {
                    word.push(next);
                }
                i += 1 + next.len_utf8();
            }
            _ => {
                in_word = true;
                let len = b[i..]
                    .iter()
                    .position(|&c| special(c))
                    .unwrap_or(b.len() - i);
                word.push_str(&s[i..i + len]);
                i += len;
            }
        }
    }
    if in_word {
        if words.len() == max {
            return None;
        }
        words.push(word);
    }
    Some(words)
}

/// What an `exec_command` / `shell` output says: exit code (`None` while still running or
/// not said) and the command's own output.
#[derive(Debug, PartialEq)]
pub(crate) struct Output<'a> {
    pub(crate) exit: Option<i64>,
    pub(crate) text: Cow<'a, str>,
    /// Still running (`Process running with session ID …`).
    pub(crate) running: bool,
}

/// Reads an `exec_command` output (`Chunk ID…\nWall time…\nProcess exited with code N\n…
/// Output:\n<text>`), an older `shell` output (`{"output": …, "metadata": {"exit_code": N}}`)
/// or anything else (all of it is the text, no exit code).
pub(crate) fn exec_output(s: &str) -> Output<'_> {
    if s.starts_with('{')
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(s)
        && let Some(text) = v.field("output").and_then(serde_json::Value::as_str)
    {
        let exit = v
            .field("metadata")
            .and_then(|m| m.field("exit_code"))
            .and_then(serde_json::Value::as_i64);
        return Output {
            exit,
            text: Cow::Owned(text.to_owned()),
            running: false,
        };
    }
    let Some((head, text)) = header(s) else {
        return Output {
            exit: None,
            text: Cow::Borrowed(s),
            running: false,
        };
    };
    let mut exit = None;
    let mut running = false;
    for line in head.lines() {
        if let Some(n) = line.strip_prefix("Process exited with code ") {
            exit = n.trim().parse().ok();
        } else if line.starts_with("Process running") {
            running = true;
        } else if let Some(n) = line.strip_prefix("Exit code: ") {
            exit = n.trim().parse().ok();
        }
    }
    Output {
        exit,
        text: Cow::Borrowed(text),
        running,
    }
}

/// An `apply_patch` output: `Exit code: N\nWall time…\nOutput:\n<text>`, or a bare message
/// (`apply_patch verification failed: …`, an error).
pub(crate) fn patch_output(s: &str) -> Output<'_> {
    let out = exec_output(s);
    if out.exit.is_none() && !s.trim_start().starts_with("Success") {
        return Output {
            exit: Some(1),
            ..out
        };
    }
    out
}

/// The header lines and the text after an `Output:` line, when `s` has one.
fn header(s: &str) -> Option<(&str, &str)> {
    if let Some(text) = s.strip_prefix("Output:\n") {
        return Some(("", text));
    }
    let at = s.find("\nOutput:\n")?;
    Some((&s[..at], &s[at + "\nOutput:\n".len()..]))
}

/// An `apply_patch` patch (`*** Begin Patch` … `*** End Patch`): its files and line counts.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Patch {
    /// `(verb, path)`: `add`, `update`, `delete`, `move` (a rename's new path).
    pub(crate) files: Vec<(&'static str, String)>,
    pub(crate) removed: usize,
    pub(crate) added: usize,
}

impl Patch {
    pub(crate) fn parse(s: &str) -> Patch {
        let mut p = Patch::default();
        for line in s.lines() {
            if let Some(rest) = line.strip_prefix("*** ") {
                for (prefix, verb) in [
                    ("Add File: ", "add"),
                    ("Update File: ", "update"),
                    ("Delete File: ", "delete"),
                    ("Move to: ", "move"),
                ] {
                    if let Some(path) = rest.strip_prefix(prefix) {
                        p.files.push((verb, path.trim().to_owned()));
                    }
                }
            } else if line.starts_with('+') {
                p.added += 1;
            } else if line.starts_with('-') {
                p.removed += 1;
            }
        }
        p
    }

    /// `apply_patch a.rs, b.md (+N more) · -R +A`; `apply_patch · -R +A` without files.
    pub(crate) fn summary(&self) -> String {
        files_summary(
            self.files.iter().map(|(verb, path)| match *verb {
                "add" => format!("+{path}"),
                "delete" => format!("-{path}"),
                "move" => format!("→ {path}"),
                _ => path.clone(),
            }),
            Some((self.removed, self.added)),
        )
    }
}

/// `apply_patch <first three files> (+N more)` + ` · -R +A` when counted.
pub(crate) fn files_summary(
    files: impl Iterator<Item = String>,
    counts: Option<(usize, usize)>,
) -> String {
    let files: Vec<String> = files.collect();
    let mut s = "apply_patch".to_owned();
    for (i, f) in files.iter().take(3).enumerate() {
        s.push_str(if i == 0 { " " } else { ", " });
        s.push_str(&crate::text::truncate_chars(
            &crate::text::fold_whitespace(f),
            80,
        ));
    }
    if files.len() > 3 {
        s.push_str(&format!(" (+{} more)", files.len() - 3));
    }
    if let Some((r, a)) = counts {
        s.push_str(&format!(" · -{r} +{a}"));
    }
    s
}

/// A patch as a diff body: without its `*** Begin Patch` / `*** End Patch` lines.
pub(crate) fn patch_body(s: &str) -> String {
    s.lines()
        .filter(|l| !matches!(l.trim_end(), "*** Begin Patch" | "*** End Patch"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wrapper read in place is the wrapper split: every shell word, flag and quote of a
    /// few, around every script of up to four of the bytes a shell reads specially (and a
    /// plain one), and a few words before and after.
    #[test]
    fn a_quoted_script_reads_as_its_split() {
        let alphabet = ["a", "'", "\"", "\\", "$", " ", "\n", "é"];
        let mut scripts = vec![String::new()];
        for len in 1..=4 {
            let mut n = 0usize;
            while n < alphabet.len().pow(len) {
                let mut s = String::new();
                let mut m = n;
                for _ in 0..len {
                    s.push_str(alphabet[m % alphabet.len()]);
                    m /= alphabet.len();
                }
                scripts.push(s);
                n += 1;
            }
        }
        let mut fast = 0;
        for shell in [
            "bash",
            "/bin/bash",
            "/usr/bin/zsh",
            "sh",
            "fish",
            "'bash'",
            "",
        ] {
            for flag in ["-lc", "-c", "-cl", "-l", "-lc -c", "", "-lc "] {
                for quote in ["'", "\""] {
                    for script in &scripts {
                        for tail in ["", " x", "\n"] {
                            let cmd = format!("{shell} {flag} {quote}{script}{quote}{tail}");
                            let got = unwrap_command(&cmd);
                            assert_eq!(got, split_command(&cmd), "{cmd:?}");
                            fast += usize::from(quoted_script(&cmd).is_some());
                        }
                    }
                }
            }
        }
        // (Most of the plain scripts are read in place.)
        assert!(fast > 10_000, "{fast}");
    }
}
