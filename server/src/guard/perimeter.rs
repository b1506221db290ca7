//! What the perimeter keeps: the names the server answers to ([`Perimeter`]) and the slots of
//! the requests in flight ([`Slots`]), both held by the app's state.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// Most requests handled at once (an SSE stream counts only until its headers are sent).
pub const MAX_IN_FLIGHT: usize = 256;

/// Who the server is and what it takes: read by [`guard`](super::guard) on every request.
#[derive(Debug, Clone, Default)]
pub struct Perimeter {
    /// The bound port: a `Host` naming loopback or an IP literal must carry it. `None`
    /// (before binding, in-process tests) accepts any port.
    pub port: Option<u16>,
    /// Extra names the server is reached by (`--public-name`): `name` (any port) or
    /// `name:port`, compared case-insensitively.
    pub public_names: Vec<String>,
}

/// The in-flight request slots, shared by every clone of the app.
#[derive(Debug, Clone)]
pub struct Slots(pub(super) Arc<Semaphore>);

impl Default for Slots {
    fn default() -> Slots {
        Slots(Arc::new(Semaphore::new(MAX_IN_FLIGHT)))
    }
}
