//! `hiveterm classify [PATH|-] [--pretty] [--subagents]`: a log in, one envelope per non-blank
//! line out; with `--subagents`, the session's subagents' files beside it
//! ([`hiveterm::session_files`]) read after it, numbered on (as `summary` and `export` read them).

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;

use classifier::{JsonWriter, Level, LogClassifier, MAX_LINE_BYTES, TermEnvelope, zstd};

/// Arguments of `hiveterm classify`.
#[derive(clap::Args)]
pub struct Args {
    /// The log to read; `-` or nothing reads standard input.
    path: Option<PathBuf>,
    /// Print rows for a human instead of JSON envelopes.
    #[arg(long)]
    pretty: bool,
    /// Also read the session's subagents' files beside the log (Claude Code's
    /// `<session>/subagents/agent-*.jsonl`, Gemini's `<session id>/` recordings) after it: their
    /// envelopes numbered on after its lines, each with the `parent` of the call that started
    /// it. Without it, exactly one envelope per non-blank line of the log.
    #[arg(long)]
    subagents: bool,
    /// Longest line classified, in bytes; a longer line is one error row saying how long it
    /// was.
    #[arg(long, default_value_t = MAX_LINE_BYTES, value_name = "BYTES")]
    max_line_bytes: usize,
}

/// How much of the input is read at a time.
const CHUNK: usize = 256 * 1024;

/// The log at `path` (standard input for none or `-`) and its name for messages; a
/// zstd-compressed log (a Codex rollout idle long enough to become `.jsonl.zst`) is read
/// decompressed, known by its first bytes whatever its name ([`decompressed`]).
pub(crate) fn open(path: Option<&PathBuf>) -> Result<(Box<dyn Read>, String), String> {
    let (input, name): (Box<dyn Read>, String) = match path {
        None => (Box::new(io::stdin().lock()), "standard input".to_owned()),
        Some(p) if p.as_os_str() == "-" => {
            (Box::new(io::stdin().lock()), "standard input".to_owned())
        }
        Some(p) => {
            let file = File::open(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            (Box::new(file), p.display().to_string())
        }
    };
    let input = decompressed(input).map_err(|e| format!("cannot read {name}: {e}"))?;
    Ok((input, name))
}

/// `input` as it is, or decompressed when it starts with a zstd frame
/// ([`classifier::zstd`]: every frame in turn).
pub(crate) fn decompressed(mut input: Box<dyn Read>) -> io::Result<Box<dyn Read>> {
    let mut head = Vec::with_capacity(zstd::MAGIC.len());
    while head.len() < zstd::MAGIC.len() {
        let mut byte = [0u8; 4];
        let want = zstd::MAGIC.len() - head.len();
        match input.read(&mut byte[..want]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&byte[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let compressed = zstd::is_zstd(&head);
    let whole: Box<dyn Read> = Box::new(io::Cursor::new(head).chain(input));
    if !compressed {
        return Ok(whole);
    }
    Ok(Box::new(zstd::Decompressed::new(whole)?))
}

pub fn run(args: &Args) -> Result<(), String> {
    let (mut input, name) = open(args.path.as_ref())?;
    let stdout = io::stdout();
    let colour = args.pretty && stdout.is_terminal();
    let mut sink = Sink {
        out: stdout.lock(),
        buf: Vec::with_capacity(2 * CHUNK),
        json: JsonWriter::new(),
        pretty: args.pretty,
        colour,
    };
    let mut log = LogClassifier::with_limit(args.max_line_bytes.max(1));
    let session = args.path.as_ref().filter(|_| args.subagents);
    pump_session(session, (&mut input, &name), &mut log, |env| {
        sink.emit(&env)
    })
    .and_then(|()| sink.flush().map_err(|e| (Failure::Write(e), String::new())))
    .or_else(|(failure, name)| match failure {
        Failure::Write(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Failure::Write(e) => Err(format!("cannot write: {e}")),
        Failure::Read(e) => Err(format!("cannot read {name}: {e}")),
    })
}

/// [`pump`]s the main log (`main`: its reader and name), then each subagent's file of the
/// session at `path` ([`hiveterm::session_files`]) through [`LogClassifier::next_file`]; a
/// failure names the file it came from.
pub(crate) fn pump_session(
    path: Option<&PathBuf>,
    main: (&mut dyn Read, &str),
    log: &mut LogClassifier,
    mut emit: impl FnMut(TermEnvelope) -> io::Result<()>,
) -> Result<(), (Failure, String)> {
    pump(main.0, log, &mut emit).map_err(|f| (f, main.1.to_owned()))?;
    for file in hiveterm::session_files::subagent_files(path) {
        let (mut input, name) = open(Some(&file.path)).map_err(|e| {
            (
                Failure::Read(io::Error::other(e)),
                file.path.display().to_string(),
            )
        })?;
        *log = std::mem::take(log).next_file(file.agent.as_deref());
        pump(&mut input, log, &mut emit).map_err(|f| (f, name))?;
    }
    Ok(())
}

/// Why classifying stopped early.
pub(crate) enum Failure {
    Read(io::Error),
    Write(io::Error),
}

/// Where envelopes go: JSON lines, or rows for a human, gathered in `buf` and written to `out`
/// [`CHUNK`] bytes or more at a time.
struct Sink<W: Write> {
    out: W,
    buf: Vec<u8>,
    json: JsonWriter,
    pretty: bool,
    colour: bool,
}

impl<W: Write> Sink<W> {
    fn emit(&mut self, env: &TermEnvelope) -> io::Result<()> {
        if self.pretty {
            write_pretty(&mut self.buf, env, self.colour)?;
        } else {
            // The bytes of `serde_json::to_writer`, written straight into the buffer (a growing
            // row's body escaped once: `classifier::JsonWriter`).
            self.json.write(env, &mut self.buf);
            self.buf.push(b'\n');
        }
        if self.buf.len() >= CHUNK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }
}

/// Envelopes classified before they are written: as many as a batch of lines parsed at once.
const WRITE_BATCH: usize = LogClassifier::BATCH_LINES;

/// Reads `input` to its end through `log`, handing each line's envelope to `emit`; stops at
/// the first error `emit` returns.
pub(crate) fn pump(
    input: &mut dyn Read,
    log: &mut LogClassifier,
    mut emit: impl FnMut(TermEnvelope) -> io::Result<()>,
) -> Result<(), Failure> {
    let mut buf = vec![0u8; CHUNK];
    let mut envs = Vec::new();
    let mut result = Ok(());
    // After a write error, later envelopes are dropped and reading stops.
    let mut send = |result: &mut io::Result<()>, env: TermEnvelope| {
        if result.is_ok() {
            *result = emit(env);
        }
    };
    let mut write = |envs: &mut Vec<TermEnvelope>, result: &mut io::Result<()>| {
        for env in envs.drain(..) {
            send(result, env);
        }
    };
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Read(e)),
        };
        // Envelopes are classified, then written, a few at a time: the classifier's code and
        // the writer's do not take turns in the instruction cache at every line, and the rows
        // written are still in the data cache (a whole read's rows held until its end were
        // not: Gemini stream-json −3 % CPU, its L1 misses −18 %).
        log.feed(&buf[..n], |env| {
            envs.push(env);
            if envs.len() >= WRITE_BATCH {
                write(&mut envs, &mut result);
            }
        });
        write(&mut envs, &mut result);
        if result.is_err() {
            break;
        }
    }
    log.finish(|env| send(&mut result, env));
    result.map_err(Failure::Write)
}

/// One line per row: line number, level, icon, summary; bodies indented below, cut short.
fn write_pretty(out: &mut impl Write, env: &TermEnvelope, colour: bool) -> io::Result<()> {
    const BODY_LINES: usize = 12;
    for msg in &env.msgs {
        let (on, off) = match (colour, msg.level) {
            (false, _) => ("", ""),
            (true, Level::Debug) => ("\x1b[2m", "\x1b[0m"),
            (true, Level::Info) => ("", ""),
            (true, Level::Warn) => ("\x1b[33m", "\x1b[0m"),
            (true, Level::Error) => ("\x1b[31m", "\x1b[0m"),
        };
        let seq = env.seq.unwrap_or(0);
        let icon = msg.icon.as_deref().unwrap_or(" ");
        writeln!(
            out,
            "{on}{seq:>6} {:<5} {icon} {}{off}",
            msg.level.as_str(),
            msg.summary
        )?;
        if let Some(body) = &msg.body {
            let total = body.lines().count();
            for line in body.lines().take(BODY_LINES) {
                writeln!(out, "{on}{:>14}│ {line}{off}", "")?;
            }
            if total > BODY_LINES {
                writeln!(
                    out,
                    "{on}{:>14}│ … {} more lines{off}",
                    "",
                    total - BODY_LINES
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::decompressed;

    /// A Codex rollout compressed by the `zstd` tool (level 19), and the rollout itself.
    const ZST: &[u8] = include_bytes!("../tests/data/codex_resume_1_first.session.jsonl.zst");
    const PLAIN: &[u8] =
        include_bytes!("../../fixtures/codex-0.171.0/codex_resume_1_first.session.jsonl");

    fn read_all(input: Vec<u8>) -> Vec<u8> {
        let mut out = Vec::new();
        decompressed(Box::new(std::io::Cursor::new(input)))
            .expect("opens")
            .read_to_end(&mut out)
            .expect("reads");
        out
    }

    #[test]
    fn a_zstd_log_is_read_decompressed_and_a_plain_one_as_it_is() {
        assert_ne!(ZST, PLAIN);
        assert_eq!(read_all(ZST.to_vec()), PLAIN);
        assert_eq!(read_all(PLAIN.to_vec()), PLAIN);
        // Frames appended one after another are read in turn.
        assert_eq!(read_all([ZST, ZST].concat()), [PLAIN, PLAIN].concat());
        // Shorter than the magic, and empty.
        assert_eq!(read_all(b"{}".to_vec()), b"{}");
        assert_eq!(read_all(Vec::new()), b"");
    }

    #[test]
    fn a_broken_zstd_log_is_an_error_not_a_panic() {
        let cut = ZST[..ZST.len() / 2].to_vec();
        let mut out = Vec::new();
        let result = decompressed(Box::new(std::io::Cursor::new(cut)))
            .and_then(|mut r| r.read_to_end(&mut out));
        assert!(result.is_err());
    }
}
