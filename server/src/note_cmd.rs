//! `hiveterm note`: makes, lists and deletes the notes of a session in a server's database
//! (see `hiveterm::notes`), beside the server or without it, as `hiveterm share` does.

use hiveterm::Store;
use hiveterm::notes::{self, NoteInput};

/// Arguments of `hiveterm note`.
#[derive(clap::Args)]
pub struct Args {
    /// The session.
    session: String,
    /// The rows the note is on: `A-B` (seqs, as in a `#seq=A-B` link) or one seq `A`.
    #[arg(required_unless_present_any = ["list", "delete"])]
    range: Option<String>,
    /// The note's text (markdown); `-` reads it from standard input.
    #[arg(required_unless_present_any = ["list", "delete"])]
    text: Option<String>,
    /// Who wrote it (default: none).
    #[arg(long, default_value = "")]
    author: String,
    /// List the session's notes, one JSON object a line, ordered by their first row.
    #[arg(long, conflicts_with_all = ["range", "text", "delete"])]
    list: bool,
    /// Delete the note with this id (from `--list`).
    #[arg(long, value_name = "ID", conflicts_with_all = ["range", "text"])]
    delete: Option<u64>,
    /// The database: a SQLite file or a `postgres://` URL (as `hiveterm serve --db`).
    #[arg(long, env = "HIVETERM_DB", default_value = "hiveterm.db")]
    db: String,
}

pub fn run(args: &Args) -> Result<(), String> {
    crate::share_cmd::on_store(&args.db, async |store| command(store, args).await)
}

/// `A-B` or `A` as `(A, B)`.
fn parse_range(range: &str) -> Result<(u64, u64), String> {
    let bad = || format!("a range is A-B or A (seqs, e.g. 12-15), not {range:?}");
    let (a, b) = range.split_once('-').unwrap_or((range, range));
    let a = a.trim().parse().map_err(|_| bad())?;
    let b = b.trim().parse().map_err(|_| bad())?;
    Ok((a, b))
}

async fn command(store: &Store, args: &Args) -> Result<(), String> {
    let session = args.session.as_str();
    let info = store
        .session_info(session)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no session {session}"))?;
    if args.list {
        let list = store.notes(session).await.map_err(|e| e.to_string())?;
        for note in &list {
            println!(
                "{}",
                serde_json::to_string(note).map_err(|e| e.to_string())?
            );
        }
        if list.is_empty() {
            eprintln!("no notes on session {session}");
        }
        return Ok(());
    }
    if let Some(id) = args.delete {
        let note = notes::delete(store, session, id)
            .await
            .map_err(|e| e.to_string())?;
        eprintln!(
            "note {id} (rows {}-{} of session {session}) is deleted",
            note.from, note.to
        );
        return Ok(());
    }
    let (from, to) = parse_range(args.range.as_deref().unwrap_or_default())?;
    let mut text = args.text.clone().unwrap_or_default();
    if text == "-" {
        text.clear();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| format!("standard input: {e}"))?;
    }
    let input = NoteInput {
        from,
        to: Some(to),
        text,
        author: Some(args.author.clone()),
    };
    let note = notes::create(store, session, info.last_seq, input, None, hiveterm::now())
        .await
        .map_err(|e| e.to_string())?;
    eprintln!(
        "note {} on rows {}-{} of session {session}",
        note.id, note.from, note.to
    );
    println!(
        "{}",
        serde_json::to_string(&note).map_err(|e| e.to_string())?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn ranges() {
        let check = |input: &str, expect: Result<(u64, u64), ()>| {
            assert_eq!(super::parse_range(input).map_err(drop), expect, "{input}");
        };
        check("3-7", Ok((3, 7)));
        check("4", Ok((4, 4)));
        check(" 2 - 2 ", Ok((2, 2)));
        check("7-3", Ok((7, 3)));
        check("a-b", Err(()));
        check("-3", Err(()));
        check("", Err(()));
    }
}
