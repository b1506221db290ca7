//! What leaves the page: share links and "save as one file".
//!
//! - [`link`]: where a live view reads (a session, or a share link `/p/<token>` in
//!   read-only postmortem mode), what a share link is, what a dead one says (pure);
//!   [`dead_link`]: that message in place of the rows.
//! - [`form`]: the share button's options, request, answer and steps (pure);
//!   [`button`]: the share button of a live session and its dialog.
//! - [`save_form`]: "save as one file"'s options, steps and file name (pure);
//!   [`save_button`]: its button, dialog and download.
//! - [`redaction_review`]: the redactions both show for review.
//! - [`compare_link`]: a comparison link's page (`/p/<token>/compare`), read-only.

pub mod button;
pub mod compare_link;
pub mod dead_link;
pub mod form;
pub mod link;
pub mod redaction_review;
pub mod save_button;
pub mod save_form;
