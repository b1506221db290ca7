//! The query strings the routes take, typed: [`Params<T>`], an extractor that reads the
//! request's query into a serde struct and refuses it as `400` `{"error": "…"}` (an
//! [`AppError`], like every other answer) with the messages `docs/API.md` gives; and the
//! structs themselves.
//!
//! A key given twice counts once, its last value (as when the query was read into a map).
//! Unknown keys (`token`, a cache-buster) are ignored.

use axum::extract::{FromRequestParts, Query};
use axum::http::Uri;
use axum::http::request::Parts;
use serde::Deserialize;
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde_json::Value;

use crate::error::AppError;

/// The query of a request, read into `T`; a query `T` does not take is `400`.
pub(crate) struct Params<T>(pub T);

impl<T: DeserializeOwned> Params<T> {
    /// The query of `uri`, read into `T`.
    pub(crate) fn from_uri(uri: &Uri) -> Result<Params<T>, AppError> {
        let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(uri)
            .map_err(|e| AppError::BadRequest(e.body_text()))?;
        // Collected into a map in order: a repeated key keeps its last value.
        let map: serde_json::Map<String, Value> = pairs
            .into_iter()
            .map(|(k, v)| (k, Value::String(v)))
            .collect();
        serde_json::from_value(Value::Object(map))
            .map(Params)
            .map_err(|e| AppError::BadRequest(e.to_string()))
    }
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, AppError> {
        Params::from_uri(&parts.uri)
    }
}

/// A deserializer of an optional whole number for key `$key`, refusing anything else with
/// "`$key` must be a whole number".
macro_rules! whole_number {
    ($name:ident, $key:literal) => {
        fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
            let text = String::deserialize(d)?;
            text.parse::<u64>()
                .map(Some)
                .map_err(|_| D::Error::custom(concat!($key, " must be a whole number")))
        }
    };
}

whole_number!(limit_number, "limit");
whole_number!(before_number, "before");

/// `?token=` (the API's token check).
#[derive(Deserialize)]
pub(crate) struct TokenParams {
    pub token: Option<String>,
}

/// `GET /api/sessions?limit&before`.
#[derive(Deserialize)]
pub(crate) struct SessionsParams {
    #[serde(default, deserialize_with = "limit_number")]
    pub limit: Option<u64>,
    /// A `next_before`: `started~id`.
    #[serde(default, deserialize_with = "cursor")]
    pub before: Option<(f64, String)>,
    /// A `next` (read for `sort`: `crate::index::Cursor`).
    pub cursor: Option<String>,
    /// `newest` (the default), `cost`, `errors`.
    pub sort: Option<String>,
    /// Filters (`crate::index`).
    pub agent: Option<String>,
    pub project: Option<String>,
    pub status: Option<String>,
    /// A substring of the title.
    pub q: Option<String>,
}

/// `GET /api/usage?by&since`.
#[derive(Deserialize)]
pub(crate) struct UsageParams {
    /// `day` (the default), `agent`, `model`, `project`.
    pub by: Option<String>,
    /// A day (`YYYY-MM-DD`), an RFC 3339 time or unix seconds.
    pub since: Option<String>,
}

fn cursor<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(f64, String)>, D::Error> {
    let text = String::deserialize(d)?;
    text.split_once('~')
        .and_then(|(t, id)| Some((t.parse::<f64>().ok()?, id.to_owned())))
        .filter(|(t, _)| t.is_finite())
        .map(Some)
        .ok_or_else(|| D::Error::custom("before must be a next_before"))
}

/// `…/events/history?before&limit`.
#[derive(Deserialize)]
pub(crate) struct HistoryParams {
    #[serde(default, deserialize_with = "before_number")]
    pub before: Option<u64>,
    #[serde(default, deserialize_with = "limit_number")]
    pub limit: Option<u64>,
}

/// `…/events/stream?after`: text, read only when no `Last-Event-ID` is sent (which wins; a
/// bad `after` beside a good header is not an error), see `crate::sse::after_of`.
#[derive(Deserialize)]
pub(crate) struct StreamParams {
    pub after: Option<String>,
}

/// `POST …/events?title`.
#[derive(Deserialize)]
pub(crate) struct PostParams {
    pub title: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read<T: DeserializeOwned>(uri: &str) -> Result<T, String> {
        Params::<T>::from_uri(&uri.parse().unwrap())
            .map(|Params(t)| t)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn numbers_cursors_and_repeated_keys() {
        let h: HistoryParams = read("/h?limit=5&before=9&token=x").unwrap();
        assert_eq!((h.before, h.limit), (Some(9), Some(5)));
        let h: HistoryParams = read("/h").unwrap();
        assert_eq!((h.before, h.limit), (None, None));
        let h: HistoryParams = read("/h?limit=1&limit=7").unwrap();
        assert_eq!(h.limit, Some(7), "the last value wins");
        for (uri, message) in [
            ("/h?limit=x", "limit must be a whole number"),
            ("/h?limit=", "limit must be a whole number"),
            ("/h?before=-1", "before must be a whole number"),
        ] {
            assert_eq!(read::<HistoryParams>(uri).err().as_deref(), Some(message));
        }
        let s: SessionsParams = read("/s?before=12.5~run-1").unwrap();
        assert_eq!(s.before, Some((12.5, "run-1".to_owned())));
        for uri in ["/s?before=nonsense", "/s?before=inf~x"] {
            assert_eq!(
                read::<SessionsParams>(uri).err().as_deref(),
                Some("before must be a next_before")
            );
        }
        let t: TokenParams = read("/a?token=a&token=b").unwrap();
        assert_eq!(t.token.as_deref(), Some("b"));
        let p: PostParams = read("/p?title=a%00b").unwrap();
        assert_eq!(p.title.as_deref(), Some("a\0b"));
    }
}
