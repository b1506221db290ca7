//! `hiveterm usage --prices FILE` (issue 50): usage with the sessions whose logs state no cost
//! priced again with a user's prices — more of [`Store`]'s methods.
//!
//! The index keeps each session's cost as the server that stored it priced it; another price
//! table needs each such session's tokens by model, which its summary fold holds: each one is
//! folded to its last event (from its nearest checkpoint) and settled with the prices. The
//! stored groups' tokens and sessions stay; their costs are summed again, session by session.

use classifier::CostSource;
use classifier::prices::Prices;

use super::{Store, StoreError};
use crate::index::{By, Cursor, Entry, Query, Sort, UsageGroup};

/// Sessions read a page at a time.
const PAGE: usize = 500;

impl Store {
    /// [`Store::usage`], the costs of the sessions whose logs state none made with `prices`.
    pub async fn usage_priced(
        &self,
        by: By,
        since: Option<f64>,
        prices: &Prices,
    ) -> Result<Vec<UsageGroup>, StoreError> {
        let mut groups = self.usage(by, since).await?;
        for g in &mut groups {
            g.cost = None;
            g.cost_stated = None;
            g.cost_estimated = None;
            g.cost_unknown = 0;
            g.unpriced_models.clear();
        }
        let mut after = None;
        loop {
            let page = self
                .index_page(Query {
                    sort: Sort::Newest,
                    after: after.take(),
                    limit: PAGE,
                    ..Query::default()
                })
                .await?;
            for e in &page {
                let started = e.index.started_at.unwrap_or(e.info.started);
                if since.is_some_and(|t| started < t) {
                    continue;
                }
                let (cost, source, unpriced) = self.cost_of(e, prices).await?;
                let key = key_of(by, e, started);
                let Some(g) = groups.iter_mut().find(|g| g.key == key) else {
                    continue;
                };
                let add = |sum: &mut Option<f64>, c: f64| *sum = Some(sum.unwrap_or(0.0) + c);
                match (cost, source) {
                    (Some(c), CostSource::Estimated) => {
                        add(&mut g.cost, c);
                        add(&mut g.cost_estimated, c);
                    }
                    (Some(c), _) => {
                        add(&mut g.cost, c);
                        add(&mut g.cost_stated, c);
                    }
                    (None, _) => {
                        g.cost_unknown += 1;
                        crate::index::add_models(&mut g.unpriced_models, &unpriced);
                    }
                }
            }
            match page.last() {
                Some(last) if page.len() == PAGE => after = Some(Cursor::after(Sort::Newest, last)),
                _ => break,
            }
        }
        Ok(groups)
    }

    /// A session's cost with `prices`: a stated one as the index has it, any other made again
    /// from its summary (with the models of no price when it is unknown).
    async fn cost_of(
        &self,
        e: &Entry,
        prices: &Prices,
    ) -> Result<(Option<f64>, CostSource, Vec<String>), StoreError> {
        if let Some(c) = e.index.cost.filter(|_| !e.index.cost_estimated) {
            return Ok((Some(c), CostSource::Stated, Vec::new()));
        }
        let fold = self.fold_at(&e.info.id, e.info.last_seq).await?;
        let mut s = fold.summary.summary_head(0);
        s.settle_cost(prices);
        let source = s.cost_source.unwrap_or(CostSource::Unknown);
        Ok((s.cost_usd, source, s.unpriced_models))
    }
}

/// A session's group, as the usage SQL keys it ([`crate::index::usage_sql`]).
fn key_of(by: By, e: &Entry, started: f64) -> Option<String> {
    match by {
        By::Day => Some(day(started)),
        By::Agent => e.index.agent.clone(),
        By::Model => e.index.model.clone(),
        By::Project => e.index.project.clone(),
    }
}

/// The UTC day (`YYYY-MM-DD`) of unix seconds `t` (Howard Hinnant's civil-from-days).
fn day(t: f64) -> String {
    let days = (t / 86_400.0).floor() as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let of_era = days - era * 146_097;
    let year_of_era = (of_era - of_era / 1460 + of_era / 36_524 - of_era / 146_096) / 365;
    let of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * of_year + 2) / 153;
    let day = of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn issue_50_days_are_the_sqls() {
        for (t, want) in [
            (0.0, "1970-01-01"),
            (86_399.9, "1970-01-01"),
            (1_796_004_904.7, "2026-11-30"),
            (951_782_400.0, "2000-02-29"),
            (-1.0, "1969-12-31"),
        ] {
            assert_eq!(super::day(t), want, "{t}");
        }
    }
}
