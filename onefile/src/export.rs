//! [`Exporter`]: a log's lines → the kept envelopes as JSON lines, the summary, the
//! redactions.

use classifier::event::line_event;
use classifier::redact::Redactor;
use classifier::{
    ClassifyCtx, EndHold, Line, LineReader, SummaryFold, TermEnvelope, classify_log_event_at,
};

use crate::meta::{Meta, Options, Report};

/// A log's lines → the kept envelopes as JSON lines, the summary, the redactions. Feed it
/// bytes cut anywhere ([`push`](Self::push)), take the JSON lines as they come
/// ([`take`](Self::take)), then [`finish`](Self::finish).
#[derive(Debug)]
pub struct Exporter {
    reader: LineReader,
    lines: Lines,
}

/// What the lines make, apart from the reader that frames them (so a line handed out by the
/// reader can be stepped while it is borrowed).
#[derive(Debug)]
struct Lines {
    opts: Options,
    ctx: ClassifyCtx,
    fold: SummaryFold,
    envelopes: u64,
    bytes: u64,
    report: Report,
    /// One redaction for the whole log (a secret over several lines goes whole).
    redactor: Redactor,
    out: Vec<u8>,
    /// Lines of the session's files before this one (its subagents' files come after the
    /// main log, numbered on: [`Exporter::next_file`]).
    base: u64,
    /// The last kept envelope while the end of the file would add rows to it (a Gemini
    /// recording's last turn ends with its file), as [`classifier::LogClassifier`] holds it.
    hold: EndHold,
}

impl Exporter {
    /// An export with `opts`.
    pub fn new(opts: Options) -> Exporter {
        Exporter {
            reader: LineReader::with_limit(opts.max_line_bytes.max(1)),
            lines: Lines {
                opts,
                ctx: ClassifyCtx::new(),
                fold: SummaryFold::new(),
                envelopes: 0,
                bytes: 0,
                report: Report::default(),
                redactor: Redactor::new(),
                out: Vec::new(),
                base: 0,
                hold: EndHold::default(),
            },
        }
    }

    /// The next bytes of the log; whether more are wanted (not once a range is complete).
    pub fn push(&mut self, chunk: &[u8]) -> bool {
        let Exporter { reader, lines } = self;
        reader.push(chunk, |line| lines.step(line));
        self.wants_more()
    }

    fn wants_more(&self) -> bool {
        self.lines
            .opts
            .range
            .is_none_or(|(_, b)| self.lines.base + self.reader.lines_seen() < b)
    }

    /// Ends this file and goes on to the next of the same session, a subagent's (`agent`:
    /// its id, when its file's name says): its lines numbered on after the lines so far, as
    /// [`classifier::LogClassifier::next_file`] does.
    pub fn next_file(&mut self, agent: Option<&str>) {
        if self.wants_more() {
            let Exporter { reader, lines } = self;
            reader.finish(|line| lines.step(line));
        }
        self.end_file();
        self.lines.base += self.reader.lines_seen();
        self.reader = LineReader::with_limit(self.lines.opts.max_line_bytes.max(1));
        self.lines.ctx = self.lines.ctx.next_file(agent);
    }

    /// The file read so far ends: the envelope held for its end goes out, with the rows the
    /// end adds when the range reaches the file's last line (else as it is).
    fn end_file(&mut self) {
        let seen = self.lines.base + self.reader.lines_seen();
        let whole = self.lines.opts.range.is_none_or(|(_, b)| seen <= b);
        let Lines {
            ctx,
            fold,
            hold,
            out,
            bytes,
            envelopes,
            ..
        } = &mut self.lines;
        let mut write = |env| write(out, bytes, envelopes, &env);
        if whole {
            hold.finish(ctx, Some(fold), &mut write);
        } else {
            hold.release(&mut write);
        }
    }

    /// The JSON lines made so far, if at least `min` bytes.
    pub fn take(&mut self, min: usize) -> Option<Vec<u8>> {
        let out = &mut self.lines.out;
        (!out.is_empty() && out.len() >= min).then(|| std::mem::take(out))
    }

    /// The redactions so far.
    pub fn report(&self) -> &Report {
        &self.lines.report
    }

    /// Ends the log (a last line without a newline counts when wanted): the file's facts,
    /// the JSON lines not taken yet, and the redactions.
    pub fn finish(mut self, name: &str) -> (Meta, Vec<u8>, Report) {
        if self.wants_more() {
            let Exporter { reader, lines } = &mut self;
            reader.finish(|line| lines.step(line));
        }
        self.end_file();
        let Exporter { reader, lines: l } = self;
        let seen = l.base + reader.lines_seen();
        let lines = match l.opts.range {
            Some((_, b)) => seen.min(b),
            None => seen,
        };
        let meta = Meta {
            format: 1,
            title: l.opts.title.clone().unwrap_or_else(|| name.to_owned()),
            name: name.to_owned(),
            lines,
            envelopes: l.envelopes,
            bytes: l.bytes,
            range: l.opts.range,
            redactions: l.opts.redact.then_some(l.report.count),
            summary: l.fold.summary(),
            notes: crate::meta::exported_notes(&l.opts),
        };
        (meta, l.out, l.report)
    }
}

/// One line: redacted, classified, kept or not. Lines past the range are not looked at
/// (so what is counted does not depend on how the input was cut).
impl Lines {
    fn step(&mut self, line: Line) {
        let Lines {
            opts,
            ctx,
            fold,
            envelopes,
            bytes,
            report,
            redactor,
            out,
            base,
            hold,
        } = self;
        let number = *base + line.number;
        if opts.range.is_some_and(|(_, b)| number > b) {
            return;
        }
        let line = if opts.redact {
            let r = redactor.redact_line(&line.bytes);
            if r.findings.is_empty() {
                line
            } else {
                report.add(number, &r.findings);
                Line {
                    bytes: r.line.into_owned(),
                    ..line
                }
            }
        } else {
            line
        };
        let event = line_event(&line);
        let env = classify_log_event_at(&event, ctx, number);
        if opts.range.is_some_and(|(a, _)| number < a) {
            return;
        }
        fold.add(&event.event, &env);
        hold.pass(env, ctx, |env| write(out, bytes, envelopes, &env));
    }
}

/// `env` as one JSON line onto `out`, counted, unless it has no rows (an agent-state event).
fn write(out: &mut Vec<u8>, bytes: &mut u64, envelopes: &mut u64, env: &TermEnvelope) {
    if env.msgs.is_empty() {
        return;
    }
    let at = out.len();
    // Serialising an envelope cannot fail (no maps with non-string keys, no I/O).
    let _ = serde_json::to_writer(&mut *out, env);
    out.push(b'\n');
    *bytes += (out.len() - at) as u64;
    *envelopes += 1;
}
