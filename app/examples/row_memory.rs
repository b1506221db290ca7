//! What an offline log leaves in memory, natively (issue 12): the worker's retained data (its
//! checkpoints), what it sends the page per chunk (the [`app::worker::protocol::row_batch`] buffers, beside the
//! JSON they replaced), and the rows the page's list ([`app::model::state::ViewState`]) then holds
//! with their summary text. The browser's figures (wasm heaps, JS heaps) are
//! `scripts/bench-page.sh`'s.
//!
//! Usage: `cargo run --release -p app --example row_memory -- FILE.jsonl`

fn mb(b: usize) -> f64 {
    b as f64 / 1e6
}

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: row_memory FILE.jsonl");
    let bytes = std::fs::read(&path).expect("read the log");

    // The worker: chunks as it reads them, the message each gives the page.
    let mut c = app::worker::classify::Classifier::new();
    let mut batches: Vec<Vec<u8>> = Vec::new();
    let mut sent = 0usize;
    let mut json_sent = 0usize;
    let mut largest = 0usize;
    let mut first = true;
    let mut at = 0;
    while at < bytes.len() {
        let n = if first {
            app::worker::read_ahead::FIRST_CHUNK
        } else {
            app::worker::read_ahead::CHUNK
        };
        first = false;
        let end = (at + n).min(bytes.len());
        let mut envs = c.push(&bytes[at..end]);
        at = end;
        if at == bytes.len() {
            envs.extend(c.finish());
        }
        let lazy = app::worker::protocol::row_batch::strip(&mut envs);
        let json = serde_json::to_string(&envs).unwrap().len() + lazy.len() * 24;
        json_sent += json;
        let buf = app::worker::protocol::row_batch::encode(&envs, &lazy);
        sent += buf.len();
        largest = largest.max(buf.len());
        batches.push(buf);
    }
    let cps: usize = c.checkpoints().iter().map(|cp| cp.ctx.len()).sum();
    println!(
        "log: {path}, {:.1} MB, {} lines, {} batches",
        mb(bytes.len()),
        c.lines(),
        batches.len()
    );
    println!(
        "worker: {} checkpoints, their contexts {:.2} MB of JSON",
        c.checkpoints().len(),
        mb(cps)
    );
    println!(
        "worker -> page: {:.1} MB of row batches in all (as JSON and lazy triples: {:.1} MB), largest batch {:.2} MB",
        mb(sent),
        mb(json_sent),
        mb(largest)
    );
    drop(c);

    // The page: every batch parsed and applied, then the batch dropped.
    let mut state = app::model::state::ViewState::default();
    for buf in batches.drain(..) {
        let (envs, lazy) = app::worker::protocol::row_batch::decode(&buf);
        drop(buf);
        for env in envs {
            app::model::state::apply_lazy(&mut state, env, &lazy);
        }
    }
    let rows = state.len();
    let summary: usize = state.rows().map(|r| r.msg.summary.len()).sum();
    println!(
        "page: {rows} rows, {:.1} MB of summary text ({:.0} B a row); a row's fixed part {} B natively",
        mb(summary),
        summary as f64 / rows.max(1) as f64,
        std::mem::size_of::<app::model::state::Row>()
    );
    // The heap the list's rows hold, counted natively: each row's own allocation (its
    // reference counts and fixed part) and its strings, each allocation rounded up to 16 B as
    // an allocator does (dlmalloc in wasm: 8 B steps plus a 4-8 B header).
    let alloc = |n: usize| if n == 0 { 0 } else { (n + 8).div_ceil(16) * 16 };
    let s = |o: &Option<String>| o.as_ref().map_or(0, |s| alloc(s.capacity()));
    let mut heap = 0usize;
    let mut strings = [0usize; 4];
    for r in state.rows() {
        heap += alloc(std::mem::size_of::<app::model::state::Row>() + 16);
        let parts = [
            alloc(r.msg.summary.capacity()),
            r.msg.icon.as_ref().map_or(0, |i| match i {
                std::borrow::Cow::Owned(i) => alloc(i.capacity()),
                std::borrow::Cow::Borrowed(_) => 0,
            }),
            0, // one shared name per tool (Row::tool)
            s(&r.msg.coalesce_key) + s(&r.msg.body),
        ];
        for (t, p) in strings.iter_mut().zip(parts) {
            *t += p;
        }
    }
    let all = heap + strings.iter().sum::<usize>();
    println!(
        "page: the rows' heap {:.1} MB ({:.0} B a row): rows {:.1} MB, summaries {:.1}, icons {:.1}, tools {:.1} (shared), keys and bodies {:.1}",
        mb(all),
        all as f64 / rows.max(1) as f64,
        mb(heap),
        mb(strings[0]),
        mb(strings[1]),
        mb(strings[2]),
        mb(strings[3])
    );
}
