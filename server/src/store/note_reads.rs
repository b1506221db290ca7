//! The store's reads of notes beyond a session's whole list: one note, a page
//! ([`NotePage`]), whichever backend.

use super::note::{Note, NoteKey, NotePage};
use super::{Backend, Store, StoreError};

impl Store {
    /// Note `id` of `session`, if there is one.
    pub async fn note(&self, session: &str, id: u64) -> Result<Option<Note>, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.note(session, id).await,
            Backend::Postgres(db) => db.note(session, id).await,
        }
    }

    /// A page of `session`'s notes after `after`, those whose range ends by `head`
    /// ([`NotePage`]).
    pub async fn notes_page(
        &self,
        session: &str,
        after: Option<NoteKey>,
        head: u64,
    ) -> Result<NotePage, StoreError> {
        match &*self.backend {
            Backend::Sqlite(db) => db.notes_page(session, after, head).await,
            Backend::Postgres(db) => db.notes_page(session, after, head).await,
        }
    }
}
