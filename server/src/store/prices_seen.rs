//! Stored estimates made again when the server starts with another price table (issue 50):
//! a session's index columns are made when it changes, with the prices of the server that
//! stores the change; a server started with other prices (another `--prices FILE`, or none
//! after one) would otherwise list the sessions it has not touched since at the old prices.
//!
//! The prices the stored estimates were made with are the `meta` key `prices`
//! ([`crate::prices::fingerprint`]). When the server's differ, every session whose cost is not
//! stated by its log is priced again from its stored tokens by model (`tokens_by_model`, the
//! summary's), with no fold: its cost, whether it is an estimate, and the models of no price
//! (`unpriced_models`) are set again. A cost the log states is never touched. Each backend
//! gives its statements, in the transaction of its start-up work, through [`Reprice`].

use classifier::prices::{ModelTokens, Prices};

use super::error::StoreError;
use crate::index::{list_of, list_text};

/// A session whose cost its log does not state, and what its estimate is made of.
pub(crate) struct Unstated {
    pub id: String,
    /// The `tokens_by_model` column's text.
    pub tokens_by_model: Option<String>,
}

/// A backend's statements for [`reprice_if_changed`], all in one transaction.
pub(crate) trait Reprice {
    /// The fingerprint of the prices the stored estimates were made with (`meta` `prices`).
    async fn stored_prices(&mut self) -> Result<Option<String>, StoreError>;
    /// Every session with tokens by model whose cost is not stated (unknown or estimated).
    async fn unstated(&mut self) -> Result<Vec<Unstated>, StoreError>;
    /// Sets a session's cost, whether it is an estimate, and its models of no price.
    async fn set_cost(
        &mut self,
        id: &str,
        cost: Option<f64>,
        unpriced: Option<String>,
    ) -> Result<(), StoreError>;
    /// Records the fingerprint the stored estimates are now made with.
    async fn set_prices(&mut self, fingerprint: &str) -> Result<(), StoreError>;
}

/// When the stored estimates were made with prices other than `prices`: each session whose
/// log states no cost priced again from its stored tokens. Answers how many sessions were
/// priced again (`None`: the prices were the same).
pub(crate) async fn reprice_if_changed(
    db: &mut impl Reprice,
    prices: &Prices,
) -> Result<Option<usize>, StoreError> {
    let want = crate::prices::fingerprint(prices);
    if db.stored_prices().await?.as_deref() == Some(want.as_str()) {
        return Ok(None);
    }
    let sessions = db.unstated().await?;
    for s in &sessions {
        let tokens: Vec<ModelTokens> = list_of(s.tokens_by_model.as_deref());
        let (cost, unpriced) = crate::prices::estimate(&tokens, prices);
        db.set_cost(&s.id, cost, list_text(&unpriced)).await?;
    }
    db.set_prices(&want).await?;
    Ok(Some(sessions.len()))
}

/// Logs a committed [`reprice_if_changed`].
pub(crate) fn log_repriced(repriced: Option<usize>) {
    if let Some(n) = repriced.filter(|&n| n > 0) {
        tracing::info!("priced {n} sessions again with this server's prices");
    }
}

/// The statement that selects [`Reprice::unstated`]'s sessions.
pub(crate) const UNSTATED_SQL: &str = "SELECT id, tokens_by_model FROM sessions \
     WHERE tokens_by_model IS NOT NULL AND (cost IS NULL OR cost_estimated <> 0)";

/// [`Reprice::set_cost`]'s statement; `ph(n)` writes placeholder `n`: 1 the id, 2 the cost,
/// 3 whether it is an estimate (0 or 1), 4 the models of no price.
pub(crate) fn set_cost_sql(ph: impl Fn(usize) -> String) -> String {
    format!(
        "UPDATE sessions SET cost = {}, cost_estimated = {}, unpriced_models = {} WHERE id = {}",
        ph(2),
        ph(3),
        ph(4),
        ph(1)
    )
}
