//! The row vocabulary: the icons that mark a row's structure ([`icon`]), the rows that open
//! and close turns (made here, and only here), and how to read a row back: [`row_kind`] and
//! [`tool_of`].
//!
//! The wire carries no kind tag (a [`TermMsg`] is six fields), so whoever needs to know what
//! a row is — the page's turn times, its in-flight banner, its tool filter, a summary fold —
//! asks these functions rather than matching icons and summaries of its own. They read what
//! this module's makers (and [`crate::tools`]' tool-call rows) write, and the golden test
//! holds them to every row of every real fixture. Icons are compared without U+FE0F (the
//! emoji variation selector), so `✏️` and `✏` are the same icon.

use crate::msg::{Level, TermMsg};

/// The icons of structural rows, as rows carry them. Tool-call rows carry one of
/// [`TOOLS`](icon::TOOLS).
pub mod icon {
    /// `◆ TURN ← …`: a turn starts.
    pub const TURN_START: &str = "◆";
    /// `✅ turn ok`: a turn ended well.
    pub const TURN_OK: &str = "✅";
    /// `❌ turn fail — …`: a turn failed.
    pub const TURN_FAIL: &str = "❌";
    /// `⏹ interrupted by user`: the user stopped the turn.
    pub const INTERRUPTED: &str = "⏹";
    /// A tool's result (`← output`).
    pub const TOOL_RESULT: &str = "←";
    /// An error row: a tool error, an API error message, an unreadable line.
    pub const ERROR: &str = "✗";
    /// A shape nobody recognises (the raw JSON).
    pub const UNRECOGNISED: &str = "!";
    /// The model's thinking.
    pub const THINKING: &str = "💭";
    /// Thinking-token ticks.
    pub const THINKING_TOKENS: &str = "🧠";
    /// A subagent task started or ended.
    pub const TASK: &str = "⌁";
    /// An image in a message.
    pub const IMAGE: &str = "🖼\u{fe0f}";
    /// The generic tool icon (an MCP tool, an unknown built-in).
    pub const TOOL: &str = "🔧";
    /// The page's live preview of a message still being written (never a stored row).
    pub const WRITING: &str = "✍";

    /// Every icon a tool-call row can carry (the per-tool icons of [`crate::tools`]).
    pub const TOOLS: &[&str] = &[
        "📖",
        "✏\u{fe0f}",
        "📝",
        "📓",
        "📂",
        "🔍",
        "🖥\u{fe0f}",
        "🛑",
        "🗒\u{fe0f}",
        "🤖",
        "🌐",
        "🔎",
        "🧰",
        "🧩",
        "📤",
        "📥",
        "⏰",
        "⏱\u{fe0f}",
        "🌿",
        "📡",
        "📋",
        "🔀",
        "📑",
        "❓",
        "🗺\u{fe0f}",
        "🧭",
        "✍\u{fe0f}",
        "🏷\u{fe0f}",
        "🪢",
        "✂\u{fe0f}",
        "ℹ\u{fe0f}",
        "✅",
        "📜",
        "↻",
        "⏹\u{fe0f}",
        "▶\u{fe0f}",
        "🔄",
        "📦",
        "💬",
        "👁\u{fe0f}",
        TOOL,
    ];

    /// Whether two icons are the same, ignoring U+FE0F.
    pub fn same(a: &str, b: &str) -> bool {
        a.chars()
            .filter(|&c| c != '\u{fe0f}')
            .eq(b.chars().filter(|&c| c != '\u{fe0f}'))
    }
}

/// What a row is, structurally. Read with [`row_kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// `◆ TURN ← …` (or `◆ TURN`): a turn starts; its body is the prompt.
    TurnStart,
    /// `✅ turn ok`: the turn ended well.
    TurnOk,
    /// `❌ turn fail — <why>` (or `❌ turn fail`): the turn ended in failure.
    TurnFail,
    /// `⏹ interrupted by user`: the user stopped the turn (not a turn start).
    Interrupted,
    /// A tool call: the tool's icon and `<tool> <salient args>`; [`tool_of`] names the tool.
    /// Outbound: the page draws it in the call colour.
    ToolCall,
    /// A tool's (good) result: `←` and the output (a failed one is an error row, `✗`).
    /// Inbound: the page draws it muted.
    ToolResult,
    /// `⚙ conversation reset`: the conversation before it was cleared (the page folds the
    /// rows before it away).
    ConversationReset,
    /// `⚙ status · compacting`: the agent began compacting its context. While it is a live
    /// session's newest row, the page counts the seconds up on it (`⚙ compact · 12s…`);
    /// the next status row (`compact success`) replaces it.
    Compacting,
    /// Anything else: text, thinking, tool results, notes, system and error rows.
    Other,
}

impl RowKind {
    /// A turn end, good or bad.
    pub fn is_turn_end(self) -> bool {
        matches!(self, RowKind::TurnOk | RowKind::TurnFail)
    }

    /// No turn is running after this row: a turn end or an interruption. (In stream-json a
    /// `result` may still follow an interruption: that is one more turn end, not a new turn.)
    pub fn ends_turn(self) -> bool {
        matches!(
            self,
            RowKind::TurnOk | RowKind::TurnFail | RowKind::Interrupted
        )
    }
}

/// Summary prefix of a turn-start row.
const TURN: &str = "TURN";
/// Summary of a good turn end.
const TURN_OK: &str = "turn ok";
/// Summary (prefix) of a failed turn end.
const TURN_FAIL: &str = "turn fail";
/// Summary of an interruption.
const INTERRUPTED: &str = "interrupted by user";
/// Summary of a conversation reset.
const RESET: &str = "⚙ conversation reset";
/// Summary of the status row that says the agent is compacting.
const COMPACTING: &str = "⚙ status · compacting";
/// The coalesce key of the status rows.
pub(crate) const STATUS_KEY: &str = "status";

/// `⚙ conversation reset` (info): the conversation before it was cleared.
pub(crate) fn reset_row() -> TermMsg {
    TermMsg::new(Level::Info, RESET)
}

/// `⚙ status · compacting` (debug), coalesced with the other status rows.
pub(crate) fn compacting_row() -> TermMsg {
    TermMsg::new(Level::Debug, COMPACTING).coalesce(STATUS_KEY)
}

/// `◆ TURN ← from` (`◆ TURN` when `from` is blank) with the prompt as its body (none when
/// blank).
pub(crate) fn turn_start_row(from: &str, body: &str) -> TermMsg {
    let summary = if from.trim().is_empty() {
        TURN.to_owned()
    } else {
        [TURN, " ← ", from].concat()
    };
    let row = TermMsg::new(Level::Info, summary).icon(icon::TURN_START);
    if body.trim().is_empty() {
        row
    } else {
        row.body(body)
    }
}

/// A turn start's row as a prompt that opens no turn (one inside a turn already open, or under
/// a harness, which owns the turn rows): `prompt ← from`, no icon, the prompt still its body.
pub(crate) fn as_prompt(mut row: TermMsg) -> TermMsg {
    row.icon = None;
    row.summary = row.summary.replacen("TURN ←", "prompt ←", 1);
    row
}

/// `✅ turn ok` (info); a `result` line's turn end adds its figures as the body.
pub(crate) fn turn_ok_row() -> TermMsg {
    TermMsg::new(Level::Info, TURN_OK).icon(icon::TURN_OK)
}

/// `❌ turn fail — <why>` (error); `❌ turn fail` when `why` is blank. Only the first line of
/// `why` is kept.
pub(crate) fn turn_fail_row(why: Option<&str>) -> TermMsg {
    let why = why.map(str::trim).and_then(|w| w.lines().next());
    let summary = match why {
        Some(why) if !why.is_empty() => [TURN_FAIL, " — ", why].concat(),
        _ => TURN_FAIL.to_owned(),
    };
    TermMsg::new(Level::Error, summary).icon(icon::TURN_FAIL)
}

/// A turn end's row with the turn's own duration, when its line says (`result.duration_ms`,
/// a harness's): `turn ok · 375ms`, `turn fail · 1.4s — <why>`. The page shows it on the
/// summary instead of the gap between two arrival times ([`turn_duration`] reads it back).
pub(crate) fn timed(mut row: TermMsg, ms: Option<f64>) -> TermMsg {
    let Some(d) = ms.and_then(crate::time::millis) else {
        return row;
    };
    let head = match turn_kind(&row) {
        RowKind::TurnOk => TURN_OK,
        RowKind::TurnFail => TURN_FAIL,
        _ => return row,
    };
    row.summary = [head, " · ", &d, &row.summary[head.len()..]].concat();
    row
}

/// The turn's own duration a turn-end row's summary carries (`375ms`), when its line said
/// one ([`RowKind::TurnOk`]/[`RowKind::TurnFail`] rows only).
pub fn turn_duration(msg: &TermMsg) -> Option<&str> {
    let head = match turn_kind(msg) {
        RowKind::TurnOk => TURN_OK,
        RowKind::TurnFail => TURN_FAIL,
        _ => return None,
    };
    let rest = msg.summary[head.len()..].strip_prefix(" · ")?;
    Some(rest.split(" — ").next().unwrap_or(rest))
}

/// `⏹ interrupted by user` (warn).
pub(crate) fn interrupted_row() -> TermMsg {
    TermMsg::new(Level::Warn, INTERRUPTED).icon(icon::INTERRUPTED)
}

/// What `msg` is, read from its icon (without U+FE0F), summary and level — exactly the rows
/// this crate makes: a turn row is only ever one of this module's makers', a tool call only a
/// tool-call row (info, one of [`icon::TOOLS`]).
pub fn row_kind(msg: &TermMsg) -> RowKind {
    let Some(ic) = msg.icon.as_deref() else {
        return if msg.level == Level::Info && msg.summary == RESET {
            RowKind::ConversationReset
        } else if msg.level == Level::Debug
            && msg.summary == COMPACTING
            && msg.coalesce_key.as_deref() == Some(STATUS_KEY)
        {
            RowKind::Compacting
        } else {
            RowKind::Other
        };
    };
    match turn_kind(msg) {
        RowKind::Other
            if msg.level == Level::Info && icon::TOOLS.iter().any(|t| icon::same(ic, t)) =>
        {
            RowKind::ToolCall
        }
        RowKind::Other if msg.level == Level::Info && ic == icon::TOOL_RESULT => {
            RowKind::ToolResult
        }
        kind => kind,
    }
}

/// [`row_kind`] for a reader that counts only turn rows (the summary fold): the same answer,
/// but [`RowKind::Other`] for a tool call, and the summary looked at before the icon, so the
/// usual row costs a byte or two of comparison.
pub(crate) fn turn_kind(msg: &TermMsg) -> RowKind {
    let s = msg.summary.as_str();
    let kind = match s.as_bytes().first() {
        Some(b'T') if s == TURN || s.starts_with("TURN ← ") => RowKind::TurnStart,
        Some(b't') if s == TURN_OK || s.starts_with("turn ok · ") => RowKind::TurnOk,
        Some(b't')
            if s == TURN_FAIL || s.starts_with("turn fail — ") || s.starts_with("turn fail · ") =>
        {
            RowKind::TurnFail
        }
        Some(b'i') if msg.level == Level::Warn && s == INTERRUPTED => RowKind::Interrupted,
        _ => return RowKind::Other,
    };
    let want = match kind {
        RowKind::TurnStart => icon::TURN_START,
        RowKind::TurnOk => icon::TURN_OK,
        RowKind::TurnFail => icon::TURN_FAIL,
        _ => icon::INTERRUPTED,
    };
    match msg.icon.as_deref() {
        Some(ic) if icon::same(ic, want) => kind,
        _ => RowKind::Other,
    }
}

/// The tool a tool-call row called, as its summary names it (`Read`, `send*`,
/// `github:create_issue`): the summary's first word without a trailing `()`. `None` for any
/// other row. What the page's tool filter lists.
pub fn tool_of(msg: &TermMsg) -> Option<&str> {
    if row_kind(msg) != RowKind::ToolCall {
        return None;
    }
    let word = msg.summary.split_whitespace().next()?;
    Some(word.strip_suffix("()").unwrap_or(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(msg: TermMsg, kind: RowKind, tool: Option<&str>) {
        assert_eq!(row_kind(&msg), kind, "{msg:?}");
        let turn = match kind {
            RowKind::ToolCall
            | RowKind::ToolResult
            | RowKind::ConversationReset
            | RowKind::Compacting => RowKind::Other,
            other => other,
        };
        assert_eq!(turn_kind(&msg), turn, "{msg:?}");
        assert_eq!(tool_of(&msg), tool, "{msg:?}");
    }

    #[test]
    fn the_makers_rows_read_back() {
        check(turn_start_row("operator", "go"), RowKind::TurnStart, None);
        check(turn_start_row(" ", ""), RowKind::TurnStart, None);
        check(turn_ok_row(), RowKind::TurnOk, None);
        check(turn_fail_row(Some("boom\nmore")), RowKind::TurnFail, None);
        check(turn_fail_row(None), RowKind::TurnFail, None);
        check(interrupted_row(), RowKind::Interrupted, None);
        check(reset_row(), RowKind::ConversationReset, None);
        check(TermMsg::new(Level::Debug, RESET), RowKind::Other, None);
        check(compacting_row(), RowKind::Compacting, None);
        check(TermMsg::new(Level::Debug, COMPACTING), RowKind::Other, None);
        check(
            TermMsg::new(Level::Info, COMPACTING).coalesce(STATUS_KEY),
            RowKind::Other,
            None,
        );
        assert_eq!(
            turn_fail_row(Some("boom\nmore")).summary,
            "turn fail — boom"
        );
    }

    #[test]
    fn turn_ends_carry_their_own_duration() {
        for (row, ms, summary, dur) in [
            (turn_ok_row(), Some(375.0), "turn ok · 375ms", Some("375ms")),
            (turn_ok_row(), Some(1400.0), "turn ok · 1.4s", Some("1.4s")),
            (turn_ok_row(), None, "turn ok", None),
            (
                turn_fail_row(Some("boom · bang")),
                Some(2500.0),
                "turn fail · 2.5s — boom · bang",
                Some("2.5s"),
            ),
            (
                turn_fail_row(None),
                Some(10.0),
                "turn fail · 10ms",
                Some("10ms"),
            ),
            (turn_fail_row(Some("x")), None, "turn fail — x", None),
            (interrupted_row(), Some(5.0), "interrupted by user", None),
        ] {
            let kind = row_kind(&row);
            let row = timed(row, ms);
            assert_eq!(row.summary, summary);
            assert_eq!(row_kind(&row), kind, "{summary}");
            assert_eq!(turn_duration(&row), dur, "{summary}");
        }
        let look_alike = TermMsg::new(Level::Info, "turn ok · 3s").icon("📖");
        assert_eq!(turn_duration(&look_alike), None);
    }

    #[test]
    fn look_alikes_are_not_structural() {
        let row = |icon: &str, level: Level, summary: &str| {
            TermMsg::new(level, summary).icon(icon.to_owned())
        };
        // A hyperhive ack_until call carries ✅; kill carries ⏹️.
        check(
            row("✅", Level::Info, "ack_until* 12:00"),
            RowKind::ToolCall,
            Some("ack_until*"),
        );
        check(
            row("⏹\u{fe0f}", Level::Info, "kill* a1"),
            RowKind::ToolCall,
            Some("kill*"),
        );
        check(row("◆", Level::Info, "TURNIP"), RowKind::Other, None);
        check(TermMsg::new(Level::Info, "turn ok"), RowKind::Other, None);
        check(
            row("⏹", Level::Error, "interrupted by user"),
            RowKind::Other,
            None,
        );
        check(
            row("🖼\u{fe0f}", Level::Info, "image · png"),
            RowKind::Other,
            None,
        );
        check(row("←", Level::Info, "ok"), RowKind::ToolResult, None);
        check(row("←", Level::Debug, "ok"), RowKind::Other, None);
        check(row("📖", Level::Debug, "Read x"), RowKind::Other, None);
        // A turn row's words under another icon are not a turn row.
        check(
            row("📖", Level::Info, "TURN ← x"),
            RowKind::ToolCall,
            Some("TURN"),
        );
        check(row("✗", Level::Warn, "turn ok"), RowKind::Other, None);
    }

    #[test]
    fn icons_compare_without_the_variation_selector() {
        check(
            TermMsg::new(Level::Info, "Edit a.rs · -1 +1").icon("✏"),
            RowKind::ToolCall,
            Some("Edit"),
        );
        check(
            TermMsg::new(Level::Info, "TodoWrite()").icon("🗒\u{fe0f}"),
            RowKind::ToolCall,
            Some("TodoWrite"),
        );
        check(
            TermMsg::new(Level::Info, "turn ok").icon("✅\u{fe0f}"),
            RowKind::TurnOk,
            None,
        );
        assert!(icon::same("✏\u{fe0f}", "✏"));
        assert!(!icon::same("✏", "📝"));
    }
}
