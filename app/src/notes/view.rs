//! The notes' components: the notes under a row ([`NotesUnder`], right after the last row
//! of a note's range, its markdown through the one door, [`Markdown`]), the editor
//! ([`NoteEditor`], opened by `a` or "note…" on the current row or the selected range), and
//! the summary header's "N notes" that steps through them ([`NotesStepper`]). None of them
//! inserts HTML: a note's text is markdown rendered by the markdown worker, or plain text.

use leptos::html;
use leptos::prelude::*;

use crate::browser::local_offset_min;
use crate::markdown::view::Markdown;
use crate::model::nav::SeqRange;
use crate::model::text::date_time;
use crate::notes::handle::NotesHandle;
use crate::notes::model::{Note, Notes, count_line, range_of, reader_label};

/// `row 12` or `rows 12–15`.
pub fn rows_label(range: SeqRange) -> String {
    if range.first == range.last {
        format!("row {}", range.first)
    } else {
        format!("rows {}–{}", range.first, range.last)
    }
}

/// The range of the note link an event hit (`.note-range`'s `data-from`/`data-to`): the
/// row list goes to it.
pub fn note_range(target: Option<web_sys::EventTarget>) -> Option<SeqRange> {
    use wasm_bindgen::JsCast;
    let el = target?.dyn_into::<web_sys::Element>().ok()?;
    let link = el.closest(".note-range").ok()??;
    let seq = |k: &str| link.get_attribute(k)?.parse::<u64>().ok();
    Some(SeqRange::between(seq("data-from")?, seq("data-to")?))
}

/// The notes whose range ends at a row, drawn after it (`pos`: the row's place, so the list
/// measures them with it).
#[component]
pub fn NotesUnder(notes: Vec<Note>, pos: usize) -> impl IntoView {
    let handle = use_context::<NotesHandle>();
    let deletable = handle.is_some_and(|h| h.can_delete_untracked());
    let items = notes
        .into_iter()
        .map(|n| {
            let range = range_of(&n);
            let reader = reader_label(&n);
            let Note {
                id,
                from,
                to,
                text,
                author,
                created_at,
                ..
            } = n;
            let when = (created_at > 0.0).then(|| date_time(created_at, local_offset_min(created_at)));
            let delete = handle.filter(|_| deletable).map(|h| {
                view! {
                    <button class="note-delete" title="delete this note" on:click=move |_| h.delete(id)>
                        "delete"
                    </button>
                }
            });
            let author = (!author.is_empty()).then(|| view! { <span class="note-author">{author}</span> });
            // A comment link's reader's note says so (whatever author it gives).
            let by_reader = reader.is_some();
            let reader = reader.map(|r| view! { <span class="note-reader" title="written by a reader of a comment link">{r}</span> });
            view! {
                <div class="note" class:note-by-reader=by_reader data-note=id.to_string() data-from=from.to_string() data-to=to.to_string()>
                    <div class="note-head">
                        <span class="note-mark" aria-hidden="true">"✎"</span>
                        <a
                            class="note-range"
                            href=format!("#seq={from}-{to}")
                            data-from=from.to_string()
                            data-to=to.to_string()
                        >{rows_label(range)}</a>
                        {author}
                        {reader}
                        {when.map(|w| view! { <span class="note-time">{w}</span> })}
                        {delete}
                    </div>
                    <Markdown body=text />
                </div>
            }
        })
        .collect::<Vec<_>>();
    view! { <div class="notes" data-pos=pos.to_string()>{items}</div> }
}

/// The editor of a new note, while [`NotesHandle::editing`] says which rows it is for:
/// Ctrl+Enter (or "save note") saves, Escape (or "cancel") closes.
#[component]
pub fn NoteEditor() -> impl IntoView {
    let Some(h) = use_context::<NotesHandle>() else {
        return ().into_any();
    };
    let text = RwSignal::new(String::new());
    let author = RwSignal::new(String::new());
    let area = NodeRef::<html::Textarea>::new();
    // A new note starts empty, its text box focused.
    Effect::new(move |_| {
        if h.editing.get().is_some() {
            text.set(String::new());
            h.error.set(None);
            request_animation_frame(move || {
                if let Some(a) = area.get_untracked() {
                    let _ = a.focus();
                }
            });
        }
    });
    let save = move || {
        if let Some(range) = h.editing.get_untracked() {
            h.save(
                range,
                text.get_untracked(),
                author.get_untracked().trim().to_owned(),
            );
        }
    };
    let cancel = move || {
        h.editing.set(None);
        h.error.set(None);
    };
    let on_key = move |e: web_sys::KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            cancel();
        } else if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
            e.prevent_default();
            save();
        }
    };
    (move || {
        h.editing.get().map(|range| {
            let needed = h.author_needed();
            view! {
                <div class="share-dialog note-editor" role="dialog" aria-label="write a note" on:keydown=on_key>
                    <p class="share-what">{format!("A note on {} (markdown; Ctrl+Enter saves)", rows_label(range))}</p>
                    <textarea
                        class="note-text"
                        rows="6"
                        maxlength="65536"
                        placeholder="what happened here"
                        node_ref=area
                        prop:value=move || text.get()
                        on:input=move |e| text.set(event_target_value(&e))
                    ></textarea>
                    <label class="share-opt">
                        {if needed { "your name " } else { "your name (optional) " }}
                        <input
                            type="text"
                            class="note-author-input"
                            maxlength="100"
                            prop:value=move || author.get()
                            on:input=move |e| author.set(event_target_value(&e))
                        />
                    </label>
                    {move || h.error.get().map(|e| view! { <p class="share-error note-error">{e}</p> })}
                    <div class="share-actions">
                        <button class="note-save" on:click=move |_| save()>"save note"</button>
                        <button class="share-cancel note-cancel" on:click=move |_| cancel()>"cancel"</button>
                    </div>
                </div>
            }
        })
    })
    .into_any()
}

/// "N notes" in the summary header, with ‹ › stepping from one note to the next: each goes
/// to its range (`on_goto`) as its link would.
#[component]
pub fn NotesStepper(on_goto: Callback<SeqRange>) -> impl IntoView {
    let Some(h) = use_context::<NotesHandle>() else {
        return ().into_any();
    };
    let count = Memo::new(move |_| h.notes.with(Notes::len));
    let step = move |e: web_sys::MouseEvent, forward: bool| {
        // Inside <summary>: step, without opening or closing the header.
        e.prevent_default();
        let to = h
            .notes
            .with_untracked(|n| n.step(h.at.get_untracked(), forward).cloned());
        if let Some(note) = to {
            h.at.set(Some(note.id));
            on_goto.run(range_of(&note));
        }
    };
    view! {
        <span class="sh-notes" hidden=move || count.get() == 0>
            <button class="notes-prev" title="the previous note" on:click=move |e| step(e, false)>"‹"</button>
            <span class="notes-count" data-k="notes">{move || count_line(count.get())}</span>
            <button class="notes-next" title="the next note" on:click=move |e| step(e, true)>"›"</button>
        </span>
    }
    .into_any()
}
