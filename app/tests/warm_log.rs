//! The classifier worker's warm-up sample (`src/worker/warm_log.jsonl.zst`) is the fixture it
//! names, byte for byte, compressed: regenerate it with
//! `zstd -19 -c fixtures/claude-code-2.1.332/tool_errors.stream.jsonl`.

#[test]
fn the_warm_up_sample_is_the_fixture_compressed() {
    let sample = include_bytes!("../src/worker/warm_log.jsonl.zst");
    let fixture = include_bytes!("../../fixtures/claude-code-2.1.332/tool_errors.stream.jsonl");
    let plain = classifier::zstd::decompress(sample)
        .expect("a zstd stream")
        .expect("one that reads to its end");
    assert!(
        plain == fixture,
        "the warm-up sample is not the fixture: regenerate it"
    );
}
