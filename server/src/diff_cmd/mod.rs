//! `hiveterm diff A B [--json] [--db DB]`: two runs side by side — their summaries with each
//! difference, then their steps aligned around each divergence ([`classifier::compare`]).
//! A and B are log paths (a session's subagents' files read with it, as `summary` reads
//! them), or with `--db` session ids of a database (as `share` takes them).
//!
//! Contents: `side` reads a run; `text` the report for a human; `file` the comparison as one
//! HTML file (`-o`). `--json`'s object (and what
//! the text shows) is [`hiveterm::compare::report`]'s, which the compare page's API shares.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use classifier::MAX_LINE_BYTES;
use classifier::compare::align;

use self::side::{from_db, read_path};
use self::text::text;
use hiveterm::compare::report::{Shown, report};

mod file;
mod side;
mod text;

/// Arguments of `hiveterm diff`.
#[derive(clap::Args)]
pub struct Args {
    /// The first run: a log's path, or with --db a session's id.
    a: String,
    /// The second run, the same way.
    b: String,
    /// Print one JSON object (keys in docs/CLI.md) instead of a report for a human.
    #[arg(long)]
    json: bool,
    /// Read A and B as session ids of this database: a SQLite file or a `postgres://` URL.
    #[arg(long)]
    db: Option<String>,
    /// Aligned steps shown before and after each divergence.
    #[arg(long, default_value_t = 2, value_name = "STEPS")]
    context: usize,
    /// Divergences shown with their steps (all are counted).
    #[arg(long, default_value_t = 20, value_name = "N")]
    most: usize,
    /// Longest line classified, in bytes (as `hiveterm classify`).
    #[arg(long, default_value_t = MAX_LINE_BYTES, value_name = "BYTES")]
    max_line_bytes: usize,
    /// Write the comparison as one HTML file that opens with no server (nothing printed on
    /// standard output).
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE.html",
        conflicts_with = "json"
    )]
    output: Option<PathBuf>,
    /// With -o: redact secrets from every string the file holds.
    #[arg(long, requires = "output")]
    redact: bool,
    /// With -o: the title the page shows (default: `A ↔ B`).
    #[arg(long, requires = "output")]
    title: Option<String>,
    /// With -o: take the page from this built directory (`dist/`) instead of the one this
    /// binary carries.
    #[arg(long = "static", value_name = "DIR", requires = "output")]
    static_dir: Option<PathBuf>,
}

/// Runs the command: exit 0 whether or not the runs diverge, 2 on a bad input (said on
/// stderr), 1 when the output cannot be written.
pub fn main(args: &Args) -> ExitCode {
    let sides = match &args.db {
        Some(db) => from_db(db, &args.a, &args.b),
        None => read_path(&args.a, args.max_line_bytes)
            .and_then(|a| Ok((a, read_path(&args.b, args.max_line_bytes)?))),
    };
    let (a, b) = match sides {
        Ok(sides) => sides,
        Err(e) => {
            eprintln!("hiveterm: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(output) = &args.output {
        // A file leaves the machine: a log is named by its file's name, not its path.
        let (mut a, mut b) = (a, b);
        if args.db.is_none() {
            for side in [&mut a, &mut b] {
                if let Some(n) = std::path::Path::new(&side.name).file_name() {
                    side.name = n.to_string_lossy().into_owned();
                }
            }
        }
        let how = file::Made {
            title: args.title.as_deref(),
            redact: args.redact,
            static_dir: args.static_dir.as_ref(),
        };
        return match file::write_file(&a, &b, &how, output) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("hiveterm: {e}");
                ExitCode::from(2)
            }
        };
    }
    let aligned = align(&a.run, &b.run);
    let shown = Shown {
        most: args.most,
        context: args.context,
    };
    let out = if args.json {
        let mut s = serde_json::to_string(&report(&a, &b, &aligned, shown)).unwrap_or_default();
        s.push('\n');
        s
    } else {
        text(&a, &b, &aligned, shown)
    };
    match io::stdout().lock().write_all(out.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hiveterm: cannot write: {e}");
            ExitCode::FAILURE
        }
    }
}
