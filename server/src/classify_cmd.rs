//! `hiveterm classify [PATH|-] [--pretty]`: a log in, one envelope per non-blank line out.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;

use classifier::{ClassifyCtx, Level, LineReader, TermEnvelope};

/// Arguments of `hiveterm classify`.
#[derive(clap::Args)]
pub struct Args {
    /// The log to read; `-` or nothing reads standard input.
    path: Option<PathBuf>,
    /// Print rows for a human instead of JSON envelopes.
    #[arg(long)]
    pretty: bool,
}

/// How much of the input is read at a time.
const CHUNK: usize = 256 * 1024;

pub fn run(args: &Args) -> Result<(), String> {
    let (mut input, name): (Box<dyn Read>, String) = match &args.path {
        None => (Box::new(io::stdin().lock()), "standard input".to_owned()),
        Some(p) if p.as_os_str() == "-" => {
            (Box::new(io::stdin().lock()), "standard input".to_owned())
        }
        Some(p) => {
            let file = File::open(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            (Box::new(file), p.display().to_string())
        }
    };
    let stdout = io::stdout();
    let colour = args.pretty && stdout.is_terminal();
    let mut out = BufWriter::with_capacity(CHUNK, stdout.lock());
    let mut ctx = ClassifyCtx::new();
    let mut reader = LineReader::new();
    let mut buf = vec![0u8; CHUNK];
    let mut write_err: Option<io::Error> = None;
    let mut emit = |env: TermEnvelope| {
        if write_err.is_some() {
            return;
        }
        let res = if args.pretty {
            write_pretty(&mut out, &env, colour)
        } else {
            serde_json::to_writer(&mut out, &env)
                .map_err(io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
        };
        if let Err(e) = res {
            write_err = Some(e);
        }
    };
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        };
        reader.push(&buf[..n], |line| emit(line.classify(&mut ctx)));
    }
    reader.finish(|line| emit(line.classify(&mut ctx)));
    drop(emit);
    match write_err {
        Some(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Some(e) => Err(format!("cannot write: {e}")),
        None => out.flush().or_else(|e| {
            if e.kind() == io::ErrorKind::BrokenPipe {
                Ok(())
            } else {
                Err(format!("cannot write: {e}"))
            }
        }),
    }
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
