//! The body of every non-2xx answer of `/api/…` (docs/API.md, "Conventions": Errors).

use serde::{Deserialize, Serialize};

/// `{"error": "<what was wrong>"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// What was wrong, in words.
    pub error: String,
}
