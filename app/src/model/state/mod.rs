//! The view state as a pure reducer: envelopes in, the list of rows the page shows out.
//!
//! [`apply`] appends one envelope's rows (coalescing in place, de-duplicating by `seq`, turn
//! times paired, bounded), [`prepend`] adds an older page of history, [`set_filter`] changes
//! what is visible. Everything here is plain data, compiled and tested natively; components
//! only read it.
//!
//! - `view_state`: the data ([`ViewState`]) and what components read of it.
//! - `apply`: the reducers that append, filter and clear ([`apply()`], [`apply_lazy`],
//!   [`set_filter`], [`clear`]).
//! - `prepend`: an older page of history put before the rows held ([`prepend()`]).
//! - `blocks`: subagents' blocks under their calls and the earlier conversation folded under a
//!   reset: what a call row shows, opening and closing them.

mod apply;
mod blocks;
mod prepend;
mod view_state;

pub use crate::model::rows::{
    Direction, Filter, Row, Shape, TurnTime, direction, level_index, shape_of,
};
pub use apply::{apply, apply_lazy, clear, set_filter};
pub use prepend::prepend;
pub use view_state::{BODY_MAX_LINES, DEFAULT_MAX_ROWS, LINE_PX, ViewState};

#[cfg(test)]
mod tests;
