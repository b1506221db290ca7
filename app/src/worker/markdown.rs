//! The markdown worker's loop (`src/bin/mdworker.rs` calls [`run`]): each `Render` of
//! [`crate::worker::protocol::ToMarkdown`] answered with a `Rendered`, the body rendered by
//! [`classifier::markdown::render`] (pulldown-cmark, then ammonia), so the page's own wasm
//! carries no renderer ([`crate::markdown::render`] is the page's side).

/// Starts listening for markdown bodies to render (the markdown worker only).
pub fn run() {
    #[cfg(target_arch = "wasm32")]
    {
        use crate::worker::protocol::port::{receive, reply, scope};
        use crate::worker::protocol::{FromMarkdown, ToMarkdown};
        use wasm_bindgen::JsCast;
        use wasm_bindgen::prelude::*;
        use web_sys::MessageEvent;

        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            if let Some((ToMarkdown::Render { id, text }, _)) = receive(&ev) {
                let html = classifier::markdown::render(&text);
                reply(&FromMarkdown::Rendered { id, html }, None);
            }
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        reply(&FromMarkdown::Ready, None);
    }
}
