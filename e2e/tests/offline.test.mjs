// Offline reading: every real fixture opened in the page (file input and drag-and-drop),
// classified by the wasm classifier in a Web Worker, with no server but a static one.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { ROOT, SHOTS, FIXTURES, openPage, openLog, dropLog, rowFacts, hivetermBinary, classifiedRows, shownText, staticPageHooks, pasteLog, markdownRendered, bodiesRead } from "../lib.mjs";

const env = staticPageHooks();

/** The rows `hiveterm classify` gives for a file, if the binary exists. */
function expectedRows(file) {
  const bin = hivetermBinary();
  return bin ? classifiedRows(bin, file, { alone: true }) : null;
}

function checkShapes(facts, file) {
  assert.ok(facts.length > 0, `${file}: no rows`);
  for (const f of facts) {
    assert.match(f.seq, /^\d+$/, `${file}: data-seq`);
    assert.match(f.idx, /^\d+$/, `${file}: data-idx`);
    assert.equal(f.levels.length, 1, `${file}: exactly one level class: ${f.levels}`);
    assert.ok(["div", "details"].includes(f.tag));
    if (f.summary !== null) assert.ok(!/\d\d:\d\d:\d\d/.test(f.summary) || true);
    assert.notEqual(f.glyph, "!", `${file}: unrecognised-shape row at seq ${f.seq}`);
  }
}

for (const file of FIXTURES) {
  test(`open ${file}`, async () => {
    const page = await openPage(env.browser, env.server.url);
    await openLog(page, path.join(ROOT, file));
    await page.waitForSelector(".live .row");
    const facts = await rowFacts(page);
    checkShapes(facts, file);
    const want = expectedRows(file);
    if (want) {
      const shown = await page.$eval(".shown", (e) => e.textContent);
      assert.equal(shown, shownText(want), `${file}: row count vs hiveterm classify`);
      for (const [i, f] of facts.slice(0, 20).entries()) {
        const w = want[i];
        assert.equal(f.seq, w.seq, `${file} row ${i} seq`);
        assert.equal(f.idx, w.idx, `${file} row ${i} idx`);
        assert.deepEqual(f.levels, [`level-${w.level}`], `${file} row ${i} level`);
        if (w.summary && f.summary !== null) {
          assert.equal(f.summary, w.summary, `${file} row ${i} summary`);
        }
      }
    }
    assert.deepEqual(page.remoteRequests, [], "no remote requests");
    assert.deepEqual(page.errors, [], "no page errors");
    await page.screenshot({ path: path.join(SHOTS, `offline-${path.basename(file, ".jsonl")}.png`) });
    await page.context().close();
  });
}

test("a compressed Codex rollout (.jsonl.zst) opens as its plain lines do", async () => {
  const zst = path.join(ROOT, "server/tests/data/codex_resume_1_first.session.jsonl.zst");
  const plain = "fixtures/codex-0.171.0/codex_resume_1_first.session.jsonl";
  const page = await openPage(env.browser, env.server.url);
  await openLog(page, zst);
  await page.waitForSelector(".live .row");
  const facts = await rowFacts(page);
  checkShapes(facts, "compressed rollout");
  const want = expectedRows(plain);
  if (want) {
    assert.equal(await page.$eval(".shown", (e) => e.textContent), `${want.length} rows`);
    for (const [i, f] of facts.slice(0, 20).entries()) {
      assert.equal(f.seq, want[i].seq, `row ${i} seq`);
      if (want[i].summary && f.summary !== null) assert.equal(f.summary, want[i].summary, `row ${i} summary`);
    }
  }
  // The header names the agent, from the decompressed lines.
  assert.match(await page.$eval(".summary-header .sh-line", (e) => e.textContent), /Codex 0\.171\.0/);
  assert.deepEqual(page.errors, [], "no page errors");
  await page.screenshot({ path: path.join(SHOTS, "offline-codex-zst.png") });
  await page.context().close();
});

test("drag and drop a log onto the page", async () => {
  const page = await openPage(env.browser, env.server.url);
  await page.screenshot({ path: path.join(SHOTS, "start-page.png") });
  const text = fs.readFileSync(path.join(ROOT, "fixtures/hyperhive/file_tools.events.jsonl"), "utf8");
  await dropLog(page, "file_tools.events.jsonl", text);
  const facts = await rowFacts(page);
  checkShapes(facts, "dropped");
  assert.equal(await page.$eval(".banner .title", (e) => e.textContent), "file_tools.events.jsonl");
  // Turn rows show their time in .turn-time, outside the summary.
  const start = facts.find((f) => f.glyph === "◆");
  assert.ok(start, "a turn start row");
  assert.match(start.turnTime ?? "", /^\d\d:\d\d:\d\d$/);
  assert.ok(!/\d\d:\d\d:\d\d/.test(start.summary));
  const end = facts.find((f) => f.glyph === "✅" || f.glyph === "❌");
  if (end) assert.match(end.turnTime ?? "", /^\d\d:\d\d:\d\d · \S+/);
  await page.screenshot({ path: path.join(SHOTS, "dropped-file_tools.png") });
  await page.context().close();
});

test("paste a log", async () => {
  const page = await openPage(env.browser, env.server.url);
  const text = fs.readFileSync(path.join(ROOT, "fixtures/claude-code-2.1.332/basic_markdown.stream.jsonl"), "utf8");
  await pasteLog(page, text);
  await page.waitForSelector('.progress[data-done="1"]');
  // Markdown is rendered by the worker, then set as the body's HTML.
  await markdownRendered(page);
  const facts = await rowFacts(page);
  assert.ok(facts.some((f) => f.mdRendered), "assistant markdown shown, rendered");
  assert.ok(await page.$(".live .md:not(.pending) p"), "as HTML paragraphs");
  await page.context().close();
});

test("reading tools: filters, search, keys, expand, permalink", async () => {
  const page = await openPage(env.browser, env.server.url);
  await openLog(page, path.join(ROOT, "fixtures/claude-code-2.1.332/tool_errors.stream.jsonl"));
  const total = await page.$$eval(".live .row", (r) => r.length);
  // Level filter: only errors.
  for (const l of ["debug", "info", "warn"]) await page.click(`.chip.level-${l} input`);
  const levels = await page.$$eval(".live .row", (rs) => rs.map((r) => [...r.classList].find((c) => c.startsWith("level-"))));
  assert.ok(levels.length > 0 && levels.every((l) => l === "level-error"), `only errors: ${levels}`);
  for (const l of ["debug", "info", "warn"]) await page.click(`.chip.level-${l} input`);
  assert.equal(await page.$$eval(".live .row", (r) => r.length), total);
  // n jumps to the next warning or error and marks it current.
  await page.keyboard.press("n");
  const cur = await page.$eval(".row.current", (r) => [...r.classList].find((c) => c.startsWith("level-")));
  assert.ok(["level-warn", "level-error"].includes(cur));
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /^#\d+$/);
  // j/k move the cursor.
  await page.keyboard.press("j");
  await page.keyboard.press("k");
  assert.equal(await page.$$eval(".row.current", (r) => r.length), 1);
  // e expands every bodied row; e again collapses; the preference persists.
  await page.keyboard.press("e");
  const open = await page.$$eval("details.row", (ds) => ds.every((d) => d.open));
  assert.ok(open, "all open after e");
  assert.equal(await page.evaluate(() => localStorage.getItem("hiveterm.expand-tool-output")), "1");
  await page.keyboard.press("e");
  assert.ok(await page.$$eval("details.row", (ds) => ds.every((d) => !d.open)));
  // / focuses search; matches are highlighted and other rows hidden.
  await page.keyboard.press("/");
  await page.keyboard.type("error");
  await page.waitForFunction(() => document.querySelectorAll(".live mark").length > 0);
  await bodiesRead(page);
  const rowsWithoutHit = await page.$$eval(".live .row", (rs) => rs.filter((r) => !/error/i.test(r.textContent)).length);
  assert.equal(rowsWithoutHit, 0);
  await page.screenshot({ path: path.join(SHOTS, "tools-search.png") });
  await page.context().close();
});

test("light theme follows the system", async () => {
  const page = await openPage(env.browser, env.server.url, { colorScheme: "light" });
  await openLog(page, path.join(ROOT, "fixtures/claude-code-2.1.332/file_tools.stream.jsonl"));
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(bg, "rgb(251, 251, 250)");
  await page.screenshot({ path: path.join(SHOTS, "light-file_tools.png") });
  await page.context().close();
});

// The layout contract (docs/ROWS.md, "What the page adds"): one prefix column for every row. Icons sit in a fixed-width
// .row-glyph cell, so every icon's left edge lines up and every summary after an icon starts at
// the same x, flat <div> rows and <details> summaries alike; an icon-less summary's caret falls
// into the prefix column where the icons are; wrapped continuation lines hang under the body
// (the summary's start), not under the glyph.
test("layout contract: icons and summaries line up, wrapped lines hang", async () => {
  const page = await openPage(env.browser, env.server.url);
  await page.setViewportSize({ width: 440, height: 2400 });
  // Tool calls and results (every result carries its `←`, issue 21), then a log with icon-less
  // expandable rows (an API retry's resumed text).
  const both = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-layout-")), "layout.jsonl");
  fs.writeFileSync(
    both,
    ["file_tools.stream.jsonl", "api_retry.stream.jsonl"]
      .map((f) => fs.readFileSync(path.join(ROOT, "fixtures/claude-code-2.1.332", f), "utf8").trimEnd())
      .join("\n") + "\n",
  );
  await openLog(page, both);
  const m = await page.$$eval(".live .row", (rows) =>
    rows.map((r) => {
      const glyph = r.querySelector(":scope > .row-glyph, :scope > summary > .row-glyph");
      const text = r.querySelector(":scope > .summary-text, :scope > summary > .summary-text");
      const rect = (e) => e?.getBoundingClientRect();
      // The left edge of each line the summary text takes (its boxes grouped by their top):
      // more than one when it wraps.
      const byTop = new Map();
      for (const b of text ? text.getClientRects() : []) {
        const top = Math.round(b.top);
        byTop.set(top, Math.min(byTop.get(top) ?? Infinity, Math.round(b.left)));
      }
      const lines = [...byTop.entries()].sort((a, b) => a[0] - b[0]).map(([, left]) => left);
      return {
        tag: r.tagName.toLowerCase(),
        glyphLeft: glyph ? Math.round(rect(glyph).left) : null,
        textLeft: text ? Math.round(rect(text).left) : null,
        caret: text ? getComputedStyle(text, "::before").content : null,
        lines,
      };
    }),
  );
  const withGlyph = m.filter((r) => r.glyphLeft !== null && r.textLeft !== null);
  const kinds = new Set(withGlyph.map((r) => r.tag));
  assert.ok(kinds.has("div") && kinds.has("details"), `flat and expandable rows with icons: ${[...kinds]}`);
  const same = (xs, what) => assert.ok(Math.max(...xs) - Math.min(...xs) <= 1, `${what}: ${[...new Set(xs)]}`);
  same(withGlyph.map((r) => r.glyphLeft), "icons' left edges");
  same(withGlyph.map((r) => r.textLeft), "summaries after an icon");
  // An icon-less expandable row: its caret (from .summary-text::before) leads the text, in the
  // prefix column where the icons are.
  const bare = m.filter((r) => r.tag === "details" && r.glyphLeft === null && r.textLeft !== null);
  assert.ok(bare.length > 0, "icon-less expandable rows");
  assert.ok(bare.every((r) => r.caret.includes("▸") || r.caret.includes("▾")), "caret from ::before");
  same([...bare.map((r) => r.textLeft), withGlyph[0].glyphLeft], "icon-less summaries start in the prefix column");
  // A summary that wraps, with or without an icon: its continuation lines hang under the body
  // (where summaries after an icon start, within a few px: padding-left 2em vs 0.5em + 1.4em),
  // not back under the glyph.
  const body = withGlyph[0].textLeft;
  const wrapped = m.filter((r) => r.lines.length > 1);
  assert.ok(wrapped.some((r) => r.glyphLeft !== null), "at 440 px some summary after an icon wraps");
  assert.ok(wrapped.some((r) => r.glyphLeft === null), "at 440 px some icon-less summary wraps");
  for (const r of wrapped) {
    for (const left of r.lines.slice(1)) {
      assert.ok(Math.abs(left - body) <= 3, `continuation at ${left} hangs under the body at ${body}`);
    }
  }
  await page.screenshot({ path: path.join(SHOTS, "layout-narrow.png") });
  await page.context().close();
});

// A huge tool output (60,000 lines, 5.5 MB) is drawn cut (the first 128 KiB, whole lines) with
// a "show all" control, so opening it, expanding everything and scrolling past it stay fast;
// the control draws the whole body. Search and filters still see all of it.
test("a huge body is drawn cut, whole on request", async () => {
  const big = Array.from({ length: 60_000 }, (_, i) => `line ${i} ${"x".repeat(80)}`).join("\n");
  const lines = [
    { type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "cat huge.log" } }] } },
    { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: big + "\nneedle at the end" }] } },
  ];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-huge-"));
  const file = path.join(dir, "huge.stream.jsonl");
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  try {
    const page = await openPage(env.browser, env.server.url);
    await openLog(page, file);
    await page.keyboard.press("e");
    await bodiesRead(page);
    const drawn = () => page.$eval("details.row pre.body", (p) => p.textContent.length);
    const cut = await drawn();
    assert.ok(cut > 100_000 && cut <= 128 * 1024, `drawn cut: ${cut}`);
    assert.ok((await page.$eval("details.row pre.body", (p) => p.textContent)).endsWith("\n"), "cut after a whole line");
    const button = await page.$eval(".show-all", (b) => b.textContent);
    assert.equal(button, "show all 60,001 lines (5.5 MB)");
    await page.$eval(".show-all", (b) => b.scrollIntoView({ block: "center" }));
    await page.screenshot({ path: path.join(SHOTS, "huge-body-cut.png") });
    // Search finds what is past the cut (the row stays shown).
    await page.keyboard.press("/");
    await page.keyboard.type("needle at the end");
    await page.waitForFunction(() => /^1 of \d+ rows$/.test(document.querySelector(".shown").textContent));
    await page.keyboard.press("Escape");
    await bodiesRead(page);
    await page.click(".show-all");
    await page.waitForFunction((n) => document.querySelector("details.row pre.body").textContent.length > n, cut);
    assert.equal(await drawn(), big.length + "\nneedle at the end".length);
    assert.equal(await page.$$eval(".show-all", (b) => b.length), 0, "no control once whole");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The rows' bodies are not held by the page: the worker re-reads a row's line from the file
// (from its nearest checkpoint) when the row is shown open. Every body so read equals the one
// `hiveterm classify` gives, and a search finds what is only in a body.
test("bodies read again from the file equal hiveterm classify's", async (t) => {
  const files = FIXTURES.filter((f) => /tool|file/.test(f)).slice(0, 4);
  if (!hivetermBinary()) return t.skip("no hiveterm binary");
  for (const file of files) {
    const want = expectedRows(file);
    const page = await openPage(env.browser, env.server.url);
    await openLog(page, path.join(ROOT, file));
    await page.keyboard.press("e");
    await bodiesRead(page);
    const got = await page.$$eval(".live details.row", (rs) =>
      rs.map((r) => ({ seq: r.dataset.seq, idx: r.dataset.idx, plain: r.querySelector("pre.body.plain")?.textContent ?? null })),
    );
    let compared = 0;
    for (const g of got) {
      const w = want.find((w) => w.seq === g.seq && w.idx === g.idx);
      assert.ok(w, `${file}: row ${g.seq}/${g.idx} in hiveterm classify`);
      if (g.plain !== null && !w.body_format) {
        assert.equal(g.plain, w.body, `${file}: body of ${g.seq}/${g.idx}`);
        compared++;
      }
    }
    assert.ok(got.length === 0 || compared > 0, `${file}: no plain body compared`);
    assert.deepEqual(page.errors, [], "no page errors");
    await page.context().close();
  }
});
