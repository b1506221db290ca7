//! The summary so far as the fold hands it out ([`SummaryFold::summary_head`],
//! [`SummaryFold::summary_changes`]): its cost does not grow with the files or the subagents of
//! the log, so it can be taken after every chunk of a big one (issue 24).

use super::SummaryFold;
use super::report::{SubagentEnd, Summary};

impl SummaryFold {
    /// The summary so far with at most `files` of its changed files listed (the others
    /// counted in `files_changed_more`): what it costs does not grow with the files a log
    /// changes, so it can be taken after every chunk of a big log (issue 24).
    pub fn summary_head(&self, files: usize) -> Summary {
        let mut s = self.head_without_subagents(files);
        s.by_subagent = self.summary.by_subagent.clone();
        s
    }

    /// [`SummaryFold::summary_head`], with only the subagents whose end is not the one `sent`
    /// holds for them (an entry per subagent, in order, made as the summaries were sent), and
    /// `sent` brought up to date: what changed in the subagents' ends since the last summary
    /// sent (issue 24: a log with thousands of subagents sent them all with every chunk).
    pub fn summary_changes(&self, files: usize, sent: &mut Vec<Option<SubagentEnd>>) -> Summary {
        let mut s = self.head_without_subagents(files);
        sent.resize(self.summary.by_subagent.len(), None);
        for (a, was) in self.summary.by_subagent.iter().zip(sent.iter_mut()) {
            if a.ended != *was {
                *was = a.ended;
                s.by_subagent.push(a.clone());
            }
        }
        s
    }

    /// The summary so far, as [`SummaryFold::summary_head`] says, with no subagent listed:
    /// its cost does not grow with the files or subagents of the log.
    fn head_without_subagents(&self, files: usize) -> Summary {
        let Summary {
            agent,
            agent_version,
            lines_not_understood,
            turns,
            turns_ok,
            turns_failed,
            turns_interrupted,
            tool_calls,
            tool_calls_more,
            tools_more,
            tool_errors,
            errors,
            warnings,
            first_error_seq,
            started_at,
            ended_at,
            duration_s: _,
            cost_usd,
            cost_source: _,
            unpriced_models: _,
            tokens_by_model: _,
            input_tokens,
            output_tokens,
            cache_read_tokens,
            cache_creation_tokens,
            models,
            models_more,
            subagents,
            by_subagent: _,
            files_changed: _,
            files_changed_more: _,
            files_changed_at_most: _,
        } = &self.summary;
        let kept = self.kept.files();
        let listed: Vec<String> = kept.listed().iter().take(files).cloned().collect();
        let mut s = Summary {
            agent: agent.clone(),
            agent_version: agent_version.clone(),
            lines_not_understood: *lines_not_understood,
            turns: *turns,
            turns_ok: *turns_ok,
            turns_failed: *turns_failed,
            turns_interrupted: *turns_interrupted,
            tool_calls: tool_calls.clone(),
            tool_calls_more: *tool_calls_more,
            tools_more: *tools_more,
            tool_errors: *tool_errors,
            errors: *errors,
            warnings: *warnings,
            first_error_seq: *first_error_seq,
            started_at: *started_at,
            ended_at: *ended_at,
            duration_s: None,
            cost_usd: *cost_usd,
            cost_source: None,
            unpriced_models: Vec::new(),
            tokens_by_model: Vec::new(),
            input_tokens: *input_tokens,
            output_tokens: *output_tokens,
            cache_read_tokens: *cache_read_tokens,
            cache_creation_tokens: *cache_creation_tokens,
            models: models.clone(),
            models_more: *models_more,
            subagents: *subagents,
            by_subagent: Vec::new(),
            files_changed_more: kept.count() - listed.len() as u64,
            files_changed_at_most: kept.at_most(),
            files_changed: listed,
        };
        let t = if self.results > 0 {
            self.result_tokens
        } else {
            self.message_tokens
        };
        s.input_tokens = t.input;
        s.output_tokens = t.output;
        s.cache_read_tokens = t.cache_read;
        s.cache_creation_tokens = t.cache_creation;
        self.codex.finish(&mut s);
        self.gemini.finish(&mut s);
        self.opencode.finish(&mut s);
        self.priced(&mut s);
        // To the millisecond: log times are no finer, and the difference of two unix times
        // in f64 is not exact.
        s.duration_s = s
            .started_at
            .zip(s.ended_at)
            .map(|(a, b)| ((b - a) * 1000.0).round() / 1000.0);
        s
    }
}
