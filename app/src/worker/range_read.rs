//! One byte range of the log read again into one reused JS buffer (wasm only), for the search
//! of the bodies ([`crate::worker::body_search`]): the range's own `Blob.stream()` read by a
//! BYOB reader, as the job reads the log ([`crate::worker::job`]). `FileReaderSync` made a new
//! `ArrayBuffer` at every read, and a search of a 154 MB log left tens of MB of them for V8 to
//! collect some time later (the renderer went over its 350 MB budget after a search).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{ArrayBuffer, Uint8Array};
use web_sys::{Blob, ReadableStreamByobReader};

use crate::worker::job::{message_of, read_result};
use crate::worker::read_ahead::CHUNK;

/// What a read brought ([`read_result`]), or why not.
type Came = Result<(bool, Option<Uint8Array>), String>;

/// Reads one range at a time into one buffer of [`CHUNK`] bytes.
pub struct RangeRead {
    /// The buffer, while no read holds it.
    buffer: Option<ArrayBuffer>,
    /// The read in flight.
    flight: Option<Flight>,
    /// Called when a read comes (the worker schedules a step).
    on_read: Rc<dyn Fn()>,
}

/// A range being read: its stream's reader, where it is, and what the last read brought.
struct Flight {
    reader: ReadableStreamByobReader,
    from: u64,
    to: u64,
    /// Bytes of the range in the buffer so far.
    filled: u32,
    got: Rc<RefCell<Option<Came>>>,
}

impl RangeRead {
    /// Nothing read yet; `on_read` is called whenever a read comes.
    pub fn new(on_read: Rc<dyn Fn()>) -> RangeRead {
        RangeRead {
            buffer: None,
            flight: None,
            on_read,
        }
    }

    /// Whether a range is being read and its next bytes have not come.
    pub fn waiting(&self) -> bool {
        self.flight
            .as_ref()
            .is_some_and(|f| f.got.borrow().is_none())
    }

    /// Whether a range is being read (its bytes not all taken).
    pub fn busy(&self) -> bool {
        self.flight.is_some()
    }

    /// Starts reading bytes `from..to` (at most [`CHUNK`]) of `blob`.
    pub fn start(&mut self, blob: &Blob, from: u64, to: u64) -> Result<(), String> {
        debug_assert!(to - from <= CHUNK as u64 && self.flight.is_none());
        let slice = blob
            .slice_with_f64_and_f64(from as f64, to as f64)
            .map_err(|e| message_of(&e))?;
        let reader = ReadableStreamByobReader::new(&slice.stream()).map_err(|e| message_of(&e))?;
        let buffer = self
            .buffer
            .take()
            .unwrap_or_else(|| ArrayBuffer::new(CHUNK as u32));
        let flight = Flight {
            reader,
            from,
            to,
            filled: 0,
            got: Rc::new(RefCell::new(None)),
        };
        flight.read(buffer, self.on_read.clone());
        self.flight = Some(flight);
        Ok(())
    }

    /// The range read, once all of it came: `(from, to)`, its bytes copied into `out`. `None`
    /// while it is still coming (the rest is asked for).
    pub fn take(&mut self, out: &mut Vec<u8>) -> Result<Option<(u64, u64)>, String> {
        let Some(f) = self.flight.as_mut() else {
            return Ok(None);
        };
        let Some(came) = f.got.borrow_mut().take() else {
            return Ok(None);
        };
        let (ended, view) = match came {
            Ok(came) => came,
            Err(e) => {
                self.flight = None;
                return Err(e);
            }
        };
        if let Some(v) = &view
            && !ended
        {
            f.filled += v.length();
        }
        let buffer = view.map(|v| v.buffer());
        // The file ended before the range did (it changed): what came is the range.
        if !ended && f.filled < (f.to - f.from) as u32 {
            let buffer = buffer.ok_or("a read gave no buffer back")?;
            f.read(buffer, self.on_read.clone());
            return Ok(None);
        }
        let (from, filled) = (f.from, f.filled);
        self.flight = None;
        copy(buffer.as_ref(), filled, out);
        if let Some(b) = buffer.filter(|b| b.byte_length() as usize == CHUNK) {
            self.buffer = Some(b);
        }
        Ok(Some((from, from + u64::from(filled))))
    }
}

impl Flight {
    /// Asks for the rest of the range into `buffer` (after the bytes filled).
    fn read(&self, buffer: ArrayBuffer, on_read: Rc<dyn Fn()>) {
        let want = (self.to - self.from) as u32;
        let view =
            Uint8Array::new_with_byte_offset_and_length(&buffer, self.filled, want - self.filled);
        let p = self.reader.read_with_array_buffer_view(&view);
        let got = self.got.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let r = wasm_bindgen_futures::JsFuture::from(p).await;
            *got.borrow_mut() = Some(r.map_err(|e| message_of(&e)).map(|r| read_result(&r)));
            on_read();
        });
    }
}

impl Drop for RangeRead {
    fn drop(&mut self) {
        if let Some(f) = &self.flight {
            let _ = f.reader.cancel();
        }
    }
}

/// Copies the first `n` bytes of `buffer` (none without one) into `out`.
fn copy(buffer: Option<&ArrayBuffer>, n: u32, out: &mut Vec<u8>) {
    out.resize(n as usize, 0);
    if let Some(buffer) = buffer.filter(|_| n > 0) {
        Uint8Array::new_with_byte_offset_and_length(buffer, 0, n).copy_to(out);
    }
}
