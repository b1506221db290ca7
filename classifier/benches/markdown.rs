//! `classifier::markdown::render` on a realistic 1 MB body and on hostile 1 MB bodies (and
//! the 50 KB nested quotes that take ammonia over 20 s unguarded). Target: every body renders
//! in under 50 ms.
//!
//! Run: `cargo bench -p classifier --bench markdown` (add `-- --quick` for a fast pass).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "bodies/mod.rs"]
mod bodies;

const MB: usize = 1024 * 1024;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("markdown::render");
    group.sample_size(10);
    let mut cases = vec![
        ("realistic 1 MB".to_owned(), bodies::realistic(MB)),
        ("nested quotes 50 KB".to_owned(), ">".repeat(50 * 1024)),
    ];
    for body in bodies::hostile(MB) {
        cases.push((format!("{} 1 MB", body.name), body.text));
    }
    for (name, text) in &cases {
        group.bench_function(name.as_str(), |b| {
            b.iter(|| classifier::markdown::render(black_box(text)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
