// One-file export (`hiveterm export`): every fixture exported and opened from file:// in
// headless Chromium shows exactly the rows `hiveterm classify` gives, with no request but the
// file itself (and the blob: URL of its own worker); a hostile log exported executes nothing
// and loads nothing; --redact and --range hold in the page. Needs the release (or debug)
// hiveterm that carries the page (scripts/test.sh builds the page, then the binary).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { ROOT, SHOTS, FIXTURES, launch, hivetermBinary, classifiedRows, shownText, rowFacts, hostileLog, serveStatic, openPage, openLog, markdownRendered, summaryStrings, summaryFigures } from "../lib.mjs";

const BIN = hivetermBinary();
const HOSTILE = fs.readdirSync(path.join(ROOT, "classifier/tests/hostile"))
  .filter((f) => f.endsWith(".jsonl"))
  .map((f) => `classifier/tests/hostile/${f}`);

let browser, dir;
before(async () => {
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-export-"));
});
after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Exports `file` (a path, or the text of a log when `text` is set) to an HTML file. */
function exportLog(file, args = [], text = null) {
  const out = path.join(dir, `${path.basename(file, ".jsonl")}-${Math.random().toString(36).slice(2)}.html`);
  let input = file;
  if (text !== null) {
    input = path.join(dir, path.basename(file));
    fs.writeFileSync(input, text);
  }
  execFileSync(BIN, ["export", input, "-o", out, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  return out;
}

/** Opens an exported file from disk, recording every request, dialog and error; waits until
 * its rows are all read. */
async function openExport(file, hash = "") {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  page.requests = [];
  page.dialogs = [];
  page.errors = [];
  page.on("request", (r) => page.requests.push(r.url()));
  page.on("dialog", (d) => {
    page.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(m.text());
  });
  await page.goto(url + hash);
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
  page.fileUrl = url;
  return page;
}

/** Every request was the file itself or a blob: URL the file made (its worker). */
function assertNoRequests(page) {
  const other = page.requests.filter((u) => u.split("#")[0] !== page.fileUrl && !u.startsWith("blob:"));
  assert.deepEqual(other, [], "no request besides the file itself and its own blob: worker");
}

const skip = !BIN && "hiveterm not built";

/** The markup of every markdown body drawn, bodies opened (`e`) and rendered by the worker. */
async function markdownBodies(page) {
  await page.keyboard.press("e");
  await markdownRendered(page);
  return page.$$eval(".live .row", (rows) =>
    rows.flatMap((r) => [...r.querySelectorAll(".md")].map((m) => `${r.dataset.seq}/${r.dataset.idx} ${m.innerHTML}`)),
  );
}

test("an export shows the summary header and the markdown bodies exactly as the offline page", { skip, timeout: 90_000 }, async () => {
  const statics = await serveStatic();
  try {
    for (const file of ["fixtures/claude-code-2.1.332/tool_errors.stream.jsonl", "fixtures/hyperhive/file_tools.events.jsonl"]) {
      const s = JSON.parse(execFileSync(BIN, ["summary", "--json", path.join(ROOT, file)], { encoding: "utf8" }));
      const want = summaryStrings(s);
      const page = await openExport(exportLog(path.join(ROOT, file)));
      const got = await summaryFigures(page);
      assert.deepEqual(Object.fromEntries(Object.keys(want).map((k) => [k, got[k]])), want, `${file}: the header`);
      const bodies = await markdownBodies(page);
      assert.ok(bodies.some((b) => /<(p|strong|em|code|ul|ol|h\d)\b/.test(b)), `${file}: rendered markdown: ${bodies.slice(0, 3)}`);
      assertNoRequests(page);
      assert.deepEqual(page.errors, [], `${file}: errors`);
      await page.screenshot({ path: path.join(SHOTS, `export-summary-${path.basename(file, ".jsonl")}.png`) });
      await page.context().close();

      const offline = await openPage(browser, statics.url);
      await openLog(offline, path.join(ROOT, file));
      assert.deepEqual(await summaryFigures(offline), got, `${file}: the same header offline`);
      assert.deepEqual(await markdownBodies(offline), bodies, `${file}: the same bodies offline`);
      await offline.context().close();
    }
  } finally {
    await statics.close();
  }
});

for (const file of FIXTURES) {
  test(`export of ${file} opened from file:// shows hiveterm classify's rows`, { skip, timeout: 60_000 }, async () => {
    const html = exportLog(path.join(ROOT, file));
    const page = await openExport(html);
    const want = classifiedRows(BIN, file);
    const shown = await page.$eval(".shown", (e) => e.textContent);
    assert.equal(shown, shownText(want), `${file}: row count vs hiveterm classify`);
    const facts = await rowFacts(page);
    assert.ok(facts.length > 0, "rows drawn");
    for (const [i, f] of facts.slice(0, 30).entries()) {
      const w = want[i];
      assert.equal(f.seq, w.seq, `${file} row ${i} seq`);
      assert.equal(f.idx, w.idx, `${file} row ${i} idx`);
      assert.deepEqual(f.levels, [`level-${w.level}`], `${file} row ${i} level`);
      if (w.summary && f.summary !== null) assert.equal(f.summary, w.summary, `${file} row ${i} summary`);
    }
    // The last rows too: the end of the list, as a reader pressing G sees it.
    await page.keyboard.press("G");
    await page.waitForTimeout(200);
    const tail = await rowFacts(page);
    const lastShown = tail[tail.length - 1];
    const lastWant = want[want.length - 1];
    assert.equal(`${lastShown.seq}/${lastShown.idx}`, `${lastWant.seq}/${lastWant.idx}`, `${file}: last row`);
    assertNoRequests(page);
    assert.deepEqual(page.errors, [], "no page errors");
    assert.deepEqual(page.dialogs, []);
    await page.screenshot({ path: path.join(SHOTS, `export-${path.basename(file, ".jsonl")}.png`) });
    await page.context().close();
  });
}

/** Opens every body, then checks that nothing ran, loaded or got in. */
async function assertInert(page, what) {
  await page.keyboard.press("e");
  await markdownRendered(page);
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, `${what}: no injected script ran`);
  assert.deepEqual(page.dialogs, [], `${what}: no dialog`);
  assertNoRequests(page);
  // The file's own scripts: the boot module only (the data blocks are gone once read).
  const scripts = await page.$$eval("script", (s) => s.map((e) => e.type || "classic"));
  assert.deepEqual(scripts, ["module"], `${what}: only the boot script`);
  const active = await page.$$eval(".live script, .live iframe, .live object, .live embed, .live style, .live link, .live svg", (e) => e.length);
  assert.equal(active, 0, `${what}: no active elements from the log`);
  const handlers = await page.$$eval("body *", (els) => els.filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length);
  assert.equal(handlers, 0, `${what}: no event-handler attributes`);
  const links = await page.$$eval(".live a:not(.row-link)", (as) => as.map((a) => a.getAttribute("href") ?? ""));
  assert.ok(links.every((h) => !/^\s*javascript:/i.test(h)), `${what}: javascript: links`);
  const text = await page.$eval(".live", (e) => e.textContent);
  assert.ok(!text.includes("\u001b"), `${what}: no raw escape sequences`);
  assert.deepEqual(page.errors.filter((e) => !/Content Security Policy|img-src/.test(e)), [], `${what}: errors`);
}

test("a hostile log exported executes nothing and requests nothing", { skip, timeout: 60_000 }, async () => {
  const html = exportLog("hostile.jsonl", [], hostileLog());
  const page = await openExport(html);
  const shown = await page.$eval(".shown", (e) => e.textContent);
  assert.match(shown, /^\d+ rows$/);
  await assertInert(page, "hostile.jsonl");
  await page.screenshot({ path: path.join(SHOTS, "export-hostile.png") });
  await page.context().close();
});

for (const file of HOSTILE) {
  test(`export of ${file} is inert`, { skip, timeout: 60_000 }, async () => {
    const page = await openExport(exportLog(path.join(ROOT, file)));
    await assertInert(page, file);
    await page.context().close();
  });
}

test("an exported file is read-only: no \"open log…\", no \"close ✕\", nothing dropped or pasted is opened", { skip, timeout: 60_000 }, async () => {
  const file = "fixtures/hyperhive/file_tools.events.jsonl";
  const page = await openExport(exportLog(path.join(ROOT, file)));
  const shown = await page.$eval(".shown", (e) => e.textContent);
  // No ingest ("open log…" and its input), no start page, no session list, no share button.
  for (const sel of ["#file", ".open-file", ".sessions", ".share-open", ".empty"]) {
    assert.equal(await page.$(sel), null, `no ${sel}`);
  }
  // No "close ✕": the log is the document.
  const close = await page.$(".close-log");
  assert.ok(close === null || (await close.evaluate((b) => b.hidden || !b.offsetParent)), "close is not offered");
  // A log dropped or pasted onto it is not opened: same rows, same title.
  const title = await page.$eval(".banner .title", (e) => e.textContent);
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{"kind":"note","text":"stdout: dropped"}\n'], "dropped.jsonl"));
    const zone = document.querySelector("[data-dropzone]");
    zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    const paste = new DataTransfer();
    paste.setData("text/plain", '{"kind":"note","text":"stdout: pasted"}\n');
    zone.dispatchEvent(new ClipboardEvent("paste", { clipboardData: paste, bubbles: true, cancelable: true }));
  });
  await page.waitForTimeout(300);
  assert.equal(await page.$eval(".shown", (e) => e.textContent), shown, "the same rows");
  assert.equal(await page.$eval(".banner .title", (e) => e.textContent), title, "the same log");
  assert.ok(!(await page.$eval(".live", (e) => e.textContent)).match(/dropped|pasted/), "nothing dropped or pasted shows");
  assertNoRequests(page);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("--redact takes the secret out of the rows; --range keeps those lines' rows, seqs kept", { skip, timeout: 60_000 }, async () => {
  const secret = "sk-ant-api03-" + "Q".repeat(93) + "AA";
  const log = [
    { kind: "turn_start", ts: 1.0, from: "operator", body: "deploy" },
    { kind: "note", ts: 2.0, text: `stderr: export ANTHROPIC_API_KEY=${secret}` },
    { kind: "note", ts: 3.0, text: "stderr: third" },
    { kind: "note", ts: 4.0, text: "stderr: fourth" },
    { kind: "turn_end", ts: 5.0, ok: true },
  ].map((o) => JSON.stringify(o)).join("\n") + "\n";
  const plain = await openExport(exportLog("secret.jsonl", [], log));
  await plain.keyboard.press("e");
  assert.ok((await plain.$eval(".live", (e) => e.textContent)).includes(secret), "without --redact the secret shows");
  await plain.context().close();

  const html = exportLog("secret.jsonl", ["--redact", "--range", "2-4", "--title", "incident <42>"], log);
  assert.ok(!fs.readFileSync(html, "utf8").includes(secret));
  const page = await openExport(html);
  await page.keyboard.press("e");
  const text = await page.$eval(".live", (e) => e.textContent);
  assert.ok(!text.includes(secret), "the secret is not in the page");
  assert.ok(text.includes("[REDACTED:"), "the redaction shows");
  const seqs = (await rowFacts(page)).map((f) => f.seq);
  assert.deepEqual(seqs, ["2", "3", "4"]);
  assert.equal(await page.title(), "incident <42>");
  assertNoRequests(page);
  await page.context().close();
});

test("a range link (#seq=A-B) in an exported file marks those rows; one to lines without rows goes to the next row", { skip, timeout: 60_000 }, async () => {
  const file = "fixtures/hyperhive/file_tools.events.jsonl";
  const html = exportLog(path.join(ROOT, file));
  const seqs = [...new Set(classifiedRows(BIN, file).map((r) => Number(r.seq)))];
  // Three envelopes with rows, from the middle of the log.
  const [a, b] = [seqs[Math.floor(seqs.length / 2)], seqs[Math.floor(seqs.length / 2) + 2]];
  const want = seqs.filter((s) => s >= a && s <= b).map(String);
  const page = await openExport(html, `#seq=${a}-${b}`);
  await page.waitForSelector(`.live .row.current[data-seq="${a}"]`, { timeout: 10_000 });
  const selected = await page.$$eval(".live .row.selected", (rs) => [...new Set(rs.map((r) => r.dataset.seq))]);
  assert.deepEqual(selected, want, "exactly the range's rows are selected");
  assert.equal(await page.evaluate(() => location.hash), `#seq=${a}-${b}`, "the link stays");
  assertNoRequests(page);
  await page.screenshot({ path: path.join(SHOTS, "export-range.png") });
  await page.context().close();

  // Lines 3 to 5 are state changes (no row): the first row after them is current.
  const next = seqs.find((s) => s > 5);
  assert.ok(!seqs.some((s) => s >= 3 && s <= 5), "lines 3-5 give no row");
  const rowless = await openExport(html, "#seq=3-5");
  await rowless.waitForSelector(`.live .row.current[data-seq="${next}"]`, { timeout: 10_000 });
  assert.equal(await rowless.evaluate(() => location.hash), "#seq=3-5");
  assert.deepEqual(rowless.errors, []);
  await rowless.context().close();
});
