//! The fields of a message record that are read ([`Record`] and its parts), each as its reader
//! would find it in the line's `Value`.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

/// A chat recording's message record (`type` `user`, `gemini`, `info`, `warning` or `error`):
/// the fields any reader of it reads, each as its reader would find it in the line's
/// [`Value`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Record {
    /// `id`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    /// `type`, when a string.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub(crate) ty: Option<Cow<'static, str>>,
    /// `content`.
    pub(crate) content: Content,
    /// `thoughts`, when an array.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) thoughts: Option<Vec<Thought>>,
    /// `tokens`, when a map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tokens: Option<Tokens>,
    /// `model`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) model: Option<String>,
    /// `toolCalls`, when an array.
    #[serde(rename = "toolCalls", skip_serializing_if = "Option::is_none")]
    pub(crate) tool_calls: Option<Vec<Call>>,
    /// What places the line under a subagent's call, when it says (no recording writes these;
    /// read for the nesting, as for every line).
    #[serde(skip)]
    pub(crate) nest: Nesting,
}

/// A recording's metadata line, of only the fields a recording writes there: `sessionId` and
/// `kind`, when strings.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Meta {
    #[serde(rename = "sessionId", skip_serializing_if = "Option::is_none")]
    pub(crate) session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) kind: Option<String>,
}

/// A recording's `{"$set": …}` update, of nothing else.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Update {
    /// `messages`, when an array: each a record, `None` for one that is no map. Once a message
    /// of the recording was shown, a lean read leaves out their `content` and `thoughts`
    /// (nothing reads them then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) messages: Option<Vec<Option<Record>>>,
    /// `summary` (a subagent's result), as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) summary: Option<Value>,
    /// The `$set` was no map.
    #[serde(skip)]
    pub(crate) not_object: bool,
}

/// The fields of a line that the nesting reads (`crate::nest`), as it reads them.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Nesting {
    /// `parent_tool_use_id`, as written.
    pub(crate) parent_tool_use_id: Option<Value>,
    /// `isSidechain`, when a boolean.
    pub(crate) is_sidechain: Option<bool>,
    /// `agentId`, when a string.
    pub(crate) agent_id: Option<String>,
}

/// A message's `content`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Content {
    /// No `content`, or `null`.
    #[default]
    Nothing,
    /// A string.
    Text(String),
    /// Parts (`{"text": …}`, `{"functionResponse": …}`, …).
    Parts(Vec<Part>),
    /// Any other value, as JSON text.
    Json(String),
}

/// A part of a message's content or of a tool call's `result`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Part {
    /// `text`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<String>,
    /// `functionResponse`, whenever written (of another type than a map: empty).
    #[serde(rename = "functionResponse", skip_serializing_if = "Option::is_none")]
    pub(crate) function_response: Option<FunctionResponse>,
}

/// A part's `functionResponse`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct FunctionResponse {
    /// `id`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    /// `name`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    /// `response`, whenever written (of another type than a map: empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) response: Option<Response>,
}

/// A function response's `response`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Response {
    /// `error`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// `output`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) output: Option<String>,
}

/// One of a model message's `thoughts`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Thought {
    /// `subject`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) subject: Option<String>,
    /// `description`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
}

/// A model message's `tokens`: the counts the summary adds, each when a non-negative integer.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Tokens {
    pub(crate) input: Option<u64>,
    pub(crate) output: Option<u64>,
    pub(crate) cached: Option<u64>,
    pub(crate) thoughts: Option<u64>,
}

/// One of a model message's `toolCalls`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Call {
    /// `id`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    /// `name`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    /// `args`, whatever it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) args: Option<Value>,
    /// `status`, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) status: Option<String>,
    /// `result`'s parts, when an array.
    pub(crate) result: Vec<ResultPart>,
    /// `resultDisplay`.
    #[serde(rename = "resultDisplay")]
    pub(crate) display: Display,
    /// `agentId` (the subagent an `invoke_agent` call ran), when a string.
    #[serde(rename = "agentId", skip_serializing_if = "Option::is_none")]
    pub(crate) agent_id: Option<String>,
}

/// A tool call's `resultDisplay`: a string, or a map of which only `fileDiff` is read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct Display {
    /// The display, when a string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<String>,
    /// Its `fileDiff`, when a map with that string.
    #[serde(rename = "fileDiff", skip_serializing_if = "Option::is_none")]
    pub(crate) file_diff: Option<String>,
}

/// A part of a tool call's `result`: of its `functionResponse`, only the `response` is read
/// (serialised as that alone).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct ResultPart {
    /// `functionResponse.response`, when the part's `functionResponse` is a map that has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) response: Option<Response>,
}

impl Call {
    /// The response of the first `result` part that has one.
    pub(crate) fn response(&self) -> Option<&Response> {
        self.result.iter().find_map(|p| p.response.as_ref())
    }
}

impl Record {
    /// `id`, or `""`.
    pub(crate) fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    /// `type`, or `""`.
    pub(crate) fn ty(&self) -> &str {
        self.ty.as_deref().unwrap_or("")
    }
}

impl Serialize for Content {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Content::Nothing => s.serialize_unit(),
            Content::Text(t) | Content::Json(t) => s.serialize_str(t),
            Content::Parts(parts) => parts.serialize(s),
        }
    }
}
