// Issue 21 in the page: a subagent's rows nested under the call that started it (one block,
// its one-line summary on the call's row, closed by default like bodies, opened by a click),
// offline and in an exported file of a session transcript with its subagents' folder; a call
// and its result in different colours; a turn end with its own duration on its summary.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { ROOT, SHOTS, launch, openPage, openLog, hivetermBinary, serveStatic } from "../lib.mjs";

const BIN = hivetermBinary();
let browser, server, dir;
before(async () => {
  browser = await launch();
  server = await serveStatic();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-nesting-"));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The shown rows: seq, whether nested and how deep, summary, block toggle text. */
async function shownRows(page) {
  return page.$$eval(".live .row", (rows) =>
    rows.map((r) => ({
      seq: Number(r.dataset.seq),
      nested: r.classList.contains("nested"),
      depth: r.style.getPropertyValue("--depth"),
      summary: r.querySelector(".summary-text")?.textContent ?? "",
      block: r.querySelector(".block-toggle")?.textContent ?? null,
    })),
  );
}

/** The call row's block: closed at first, its summary line, then opened by a click: the
 * subagent's rows right after the call's, indented; closed again by a click. */
async function checkBlock(page, call, nestedSeqs, line) {
  let rows = await shownRows(page);
  const callAt = rows.findIndex((r) => r.seq === call && r.block !== null);
  assert.ok(callAt >= 0, `the call #${call} carries its block: ${JSON.stringify(rows.slice(0, 8))}`);
  assert.match(rows[callAt].block, line);
  assert.ok(rows[callAt].block.startsWith("▸"), "closed by default");
  assert.ok(!rows.some((r) => nestedSeqs.includes(r.seq)), "a closed block's rows are not shown");
  await page.click(`.live .row[data-seq="${call}"] .block-toggle`);
  await page.waitForSelector(".live .row.nested");
  rows = await shownRows(page);
  const at = rows.findIndex((r) => r.seq === call && r.block !== null);
  const after = rows.slice(at + 1, at + 1 + nestedSeqs.length);
  assert.deepEqual([...new Set(after.map((r) => r.seq))].slice(0, 3), nestedSeqs.slice(0, 3), "right under the call");
  assert.ok(after.every((r) => r.nested && r.depth === "1"), "indented one step");
  assert.ok(rows[at].block.startsWith("▾"), "open");
  await page.click(`.live .row[data-seq="${call}"] .block-toggle`);
  await page.waitForFunction(() => !document.querySelector(".live .row.nested"));
}

test("offline stream-json: the subagent's forwarded rows are one block under its Agent call", { timeout: 60_000 }, async () => {
  const page = await openPage(browser, server.url);
  await openLog(page, path.join(ROOT, "fixtures/claude-code-2.1.332/subagent.stream.jsonl"));
  await page.waitForSelector(".live .row");
  // Regression: a stream-json subagent has no turn rows, and its block said "… running" after
  // it had finished; its task notification says it completed (the log's summary).
  await page.waitForFunction(() => /✓ done$/.test(document.querySelector('.live .row[data-seq="3"] .block-toggle')?.textContent ?? ""));
  await checkBlock(page, 3, [8, 9, 10, 12, 13, 15, 16], /general-purpose · Survey the repo · 2 tool calls · .* · ✓ done/);
  // The turn end says the run's own time (`result.duration_ms`), with no arrival times.
  const ends = await page.$$eval(".live .row .summary-text", (s) => s.map((e) => e.textContent).filter((t) => t.startsWith("turn ok")));
  assert.ok(ends.includes("turn ok · 310ms"), JSON.stringify(ends));
  await page.click(`.live .row[data-seq="3"] .block-toggle`);
  await page.screenshot({ path: path.join(SHOTS, "nesting-stream.png") });
  assert.deepEqual(page.errors, [], "no page errors");
  await page.context().close();
});

test("a call and its result are drawn in different colours, neither warn nor error", { timeout: 60_000 }, async () => {
  const page = await openPage(browser, server.url);
  await openLog(page, path.join(ROOT, "fixtures/claude-code-2.1.332/file_tools.stream.jsonl"));
  await page.waitForSelector(".live .row.dir-out");
  const colours = await page.evaluate(() => {
    const colour = (sel) => {
      const r = document.querySelector(sel);
      return r ? getComputedStyle(r.querySelector(".summary-text") ?? r).color : null;
    };
    const probe = (cls) => {
      const d = document.createElement("div");
      d.className = `row ${cls}`;
      document.querySelector(".live .window").appendChild(d);
      const c = getComputedStyle(d).color;
      d.remove();
      return c;
    };
    return {
      call: colour(".live .row.level-info.dir-out"),
      result: colour(".live .row.level-info.dir-in"),
      warn: probe("level-warn"),
      error: probe("level-error"),
    };
  });
  assert.ok(colours.call && colours.result, JSON.stringify(colours));
  assert.notEqual(colours.call, colours.result, "a call does not look like its result");
  for (const c of [colours.call, colours.result]) {
    assert.ok(c !== colours.warn && c !== colours.error, JSON.stringify(colours));
  }
  await page.context().close();
});

test("an exported session transcript carries its subagent's rows, nested under the call", { skip: !BIN && "hiveterm not built", timeout: 60_000 }, async () => {
  const out = path.join(dir, "subagent.html");
  execFileSync(BIN, ["export", path.join(ROOT, "fixtures/claude-code-2.1.332/subagent.transcript.jsonl"), "-o", out], { stdio: ["ignore", "ignore", "pipe"] });
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  await page.goto(pathToFileURL(out).href);
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
  // Lines 41–66 are the subagent's own transcript, read from subagents/ beside the session.
  await checkBlock(page, 23, [41, 54, 55], /general-purpose · Survey the repo · 2 tool calls · .* · ✓ done/);
  await page.screenshot({ path: path.join(SHOTS, "nesting-export.png") });
  assert.deepEqual(page.errors, [], "no page errors");
  await context.close();
});

/** What `hiveterm classify` says of a session's main log (its subagents' files read after
 * it): the call each subagent's rows nest under, and those rows' seqs. */
function classified(main) {
  const out = execFileSync(BIN, ["classify", "--subagents", main], { encoding: "utf8", maxBuffer: 64 << 20 });
  const envs = out.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.msgs.length > 0);
  const nested = envs.filter((e) => e.parent !== undefined);
  return { call: nested[0]?.parent, seqs: nested.map((e) => e.seq), last: envs.at(-1).seq };
}

/** Files dropped on the page together, as a browser drops them. */
async function dropFiles(page, files) {
  const named = files.map((f) => [path.basename(f), fs.readFileSync(f, "utf8")]);
  await page.evaluate((named) => {
    const dt = new DataTransfer();
    for (const [name, text] of named) dt.items.add(new File([text], name, { type: "application/x-ndjson" }));
    const zone = document.querySelector("[data-dropzone]");
    zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, named);
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
}

const GEMINI_MAIN = path.join(ROOT, "fixtures/gemini-0.61.0/gemini.subagent.session.jsonl");
const GEMINI_SUB = path.join(ROOT, "fixtures/gemini-0.61.0/6a32b09a-db98-4639-82e6-0e4802f905b6/3379175b-11ed-4f13-84e8-b95f2ccef876.jsonl");
const CLAUDE_MAIN = path.join(ROOT, "fixtures/claude-code-2.1.332/subagent.transcript.jsonl");
const CLAUDE_SUB = path.join(ROOT, "fixtures/claude-code-2.1.332/subagent.transcript/subagents/agent-ae89bd37fdd96fc64.jsonl");

test("a session's files picked or dropped together are one session: its subagents' rows nested as hiveterm classify nests them, kept across a reload", { skip: !BIN && "hiveterm not built", timeout: 90_000 }, async () => {
  // Gemini CLI: the subagent's recording says nothing of whose it is; its file's name does.
  const gemini = classified(GEMINI_MAIN);
  assert.ok(gemini.call && gemini.seqs.length > 3, JSON.stringify(gemini));
  let page = await openPage(browser, server.url);
  // Picked in the "wrong" order: the main recording is read first all the same.
  await page.setInputFiles("#file", [GEMINI_SUB, GEMINI_MAIN]);
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
  assert.equal(await page.$eval("span.title", (e) => e.textContent), "gemini.subagent.session.jsonl + 1 subagent file");
  await page.waitForSelector(`.live .row[data-seq="${gemini.last}"], .live .row .block-toggle`);
  await checkBlock(page, gemini.call, gemini.seqs, /·/);
  await page.click(`.live .row[data-seq="${gemini.call}"] .block-toggle`);
  await page.waitForSelector(".live .row.nested");
  await page.screenshot({ path: path.join(SHOTS, "nesting-two-files.png") });
  // A reload of the tab reopens the same session of files, nested the same.
  await page.reload();
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
  await checkBlock(page, gemini.call, gemini.seqs, /·/);
  assert.deepEqual(page.errors, [], "no page errors");
  await page.context().close();

  // Claude Code: a transcript and its subagents/agent-<id>.jsonl dropped together.
  const claude = classified(CLAUDE_MAIN);
  page = await openPage(browser, server.url);
  await dropFiles(page, [CLAUDE_SUB, CLAUDE_MAIN]);
  await checkBlock(page, claude.call, claude.seqs, /general-purpose · Survey the repo · 2 tool calls · .* · ✓ done/);
  assert.deepEqual(page.errors, [], "no page errors");
  await page.context().close();
});
