//! One-file export on the command line (`hiveterm export`, `hiveterm share … --export`,
//! docs/CLI.md): a log read from any `Read` and a built page ([`Bundle`]) through the
//! `onefile` crate, which holds the pipeline (redact → classify → fold the summary → JSON
//! lines), the DEFLATE and the file's layout, shared with the page's "save as one file".
//! What this module adds is the reading, and compression (the page's wasm, then the rows) on
//! a second thread while classification goes on; the bytes are those of [`onefile::build`]
//! (onefile's tests).

use std::io::{self, Read, Write};
use std::sync::mpsc;

use onefile::{Deflater, Exporter, LEVEL, PIECE, html};
pub use onefile::{Meta, Options, parse_range};

use crate::page::Bundle;

/// What [`export`] reports.
#[derive(Debug, Clone)]
pub struct Written {
    /// The file's facts.
    pub meta: Meta,
    /// Bytes of compressed data.
    pub compressed: usize,
    /// Bytes of the whole HTML file.
    pub html_bytes: usize,
}

/// How much of the input is read at a time.
const CHUNK: usize = 256 * 1024;

/// The page's files, as `onefile` takes them.
pub fn files(page: &Bundle) -> Vec<(&str, &[u8])> {
    page.names()
        .filter_map(|n| Some((n, page.get(n)?)))
        .collect()
}

/// A subagent's file of the session exported ([`export`]'s `subagents`), read after the main
/// log and numbered on ([`onefile::Exporter::next_file`]).
pub struct Subagent {
    /// Its bytes.
    pub input: Box<dyn Read>,
    /// Its name, for messages.
    pub name: String,
    /// The subagent's id, as its file's name says.
    pub agent: Option<String>,
}

/// Exports the log read from `input` (named `name`), then its `subagents`' files, with `page`
/// to `out`.
pub fn export(
    input: &mut dyn Read,
    subagents: Vec<Subagent>,
    name: &str,
    page: &Bundle,
    opts: &Options,
    out: &mut dyn Write,
) -> Result<Written, String> {
    let files = files(page);
    let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(4);
    let (assets, data, classified) = std::thread::scope(|s| {
        // The page's wasm is deflated first, on the compressing thread, while the first
        // pieces are classified.
        let compressor = s.spawn(|| {
            let assets = html::Assets::of(&files);
            let mut z = Deflater::new(LEVEL);
            for piece in rx {
                z.write(&piece);
            }
            (assets, z.finish())
        });
        let classified = classify(input, subagents, name, opts, |piece| tx.send(piece).is_ok());
        drop(tx);
        match compressor.join() {
            Ok((assets, data)) => Ok((assets, data, classified)),
            Err(_) => Err("the compressing thread failed".to_owned()),
        }
    })?;
    let assets = assets?;
    let meta = classified?;
    let html_bytes = html::write(out, &assets, &meta, &data)
        .map_err(|e| format!("cannot write the file: {e}"))?;
    Ok(Written {
        meta,
        compressed: data.len(),
        html_bytes,
    })
}

/// Classifies `input`, handing the kept envelopes as JSON lines to `send` in pieces; the
/// file's facts at the end.
fn classify(
    input: &mut dyn Read,
    subagents: Vec<Subagent>,
    name: &str,
    opts: &Options,
    mut send: impl FnMut(Vec<u8>) -> bool,
) -> Result<Meta, String> {
    let mut ex = Exporter::new(opts.clone());
    let mut sent_ok = true;
    let mut buf = vec![0u8; CHUNK];
    let mut more = read_into(&mut ex, input, name, &mut buf, &mut send, &mut sent_ok)?;
    for mut sub in subagents {
        if !more {
            break;
        }
        ex.next_file(sub.agent.as_deref());
        more = read_into(
            &mut ex,
            &mut sub.input,
            &sub.name,
            &mut buf,
            &mut send,
            &mut sent_ok,
        )?;
    }
    let (meta, rest, _) = ex.finish(name);
    if !rest.is_empty() {
        sent_ok &= send(rest);
    }
    if !sent_ok {
        return Err("the compressing thread stopped".to_owned());
    }
    Ok(meta)
}

/// Reads one file of the export through `ex`, sending pieces as they fill; whether more lines
/// are wanted.
fn read_into(
    ex: &mut Exporter,
    input: &mut dyn Read,
    name: &str,
    buf: &mut [u8],
    send: &mut impl FnMut(Vec<u8>) -> bool,
    sent_ok: &mut bool,
) -> Result<bool, String> {
    loop {
        let n = match input.read(buf) {
            Ok(0) => return Ok(true),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        };
        let more = ex.push(&buf[..n]);
        if let Some(piece) = ex.take(PIECE) {
            *sent_ok &= send(piece);
        }
        if !more {
            return Ok(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &[u8] = b"{\"kind\":\"turn_start\",\"ts\":1.0,\"from\":\"operator\",\"body\":\"go\"}\n\n\
{\"kind\":\"note\",\"ts\":2.0,\"text\":\"stderr: key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\"}\n\
not json\n{\"kind\":\"turn_end\",\"ts\":3.0,\"ok\":true}";

    fn page() -> Bundle {
        let glue = "async function __wbg_init(m){}\nexport { initSync, __wbg_init as default };\n";
        Bundle::new(
            [
                ("index.html", "<!doctype html>"),
                ("app-0123.js", glue),
                ("app-0123_bg.wasm", "\0asm"),
                ("terminal-0123.css", ".row{}"),
                ("worker.js", glue),
                ("worker_bg.wasm", "\0asm"),
                ("mdworker.js", glue),
                ("mdworker_bg.wasm", "\0asm"),
            ]
            .map(|(n, b)| (n.to_owned(), b.as_bytes().to_vec()))
            .to_vec(),
        )
    }

    /// Compressing on another thread while reading gives the bytes of `onefile::build` —
    /// the ones the page's "save as one file" makes.
    #[test]
    fn the_file_is_onefiles_byte_for_byte() {
        let page = page();
        let files = files(&page);
        let assets = html::Assets::of(&files).unwrap();
        for opts in [
            Options::default(),
            Options {
                redact: true,
                range: Some((2, 3)),
                title: Some("t".into()),
                ..Options::default()
            },
        ] {
            let mut cli = Vec::new();
            let w = export(&mut &LOG[..], Vec::new(), "x.jsonl", &page, &opts, &mut cli).unwrap();
            let mut one = Vec::new();
            let b = onefile::build(LOG.chunks(5), "x.jsonl", &assets, &opts, &mut one).unwrap();
            assert_eq!(cli, one);
            assert_eq!((w.html_bytes, w.compressed), (b.html_bytes, b.compressed));
        }
    }
}
