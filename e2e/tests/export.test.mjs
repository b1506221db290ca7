// PENDING: not yet run (the page could not be built in the session that wrote it). Move to
// e2e/tests/ once it passes: node --test e2e/pending/export.test.mjs
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
import { ROOT, SHOTS, launch, hivetermBinary } from "../lib.mjs";

const BIN = hivetermBinary();
const FIXTURES = [
  ...fs.readdirSync(path.join(ROOT, "fixtures/claude-code-2.1.332")).map((f) => `fixtures/claude-code-2.1.332/${f}`),
  ...fs.readdirSync(path.join(ROOT, "fixtures/hyperhive")).map((f) => `fixtures/hyperhive/${f}`),
].filter((f) => f.endsWith(".jsonl"));
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

/** The rows `hiveterm classify` gives for a file, coalesced like the page. */
function expectedRows(file) {
  const out = execFileSync(BIN, ["classify", file], { maxBuffer: 1 << 28 }).toString();
  const rows = [];
  for (const line of out.split("\n").filter(Boolean)) {
    const env = JSON.parse(line);
    env.msgs.forEach((m, idx) => {
      const last = rows[rows.length - 1];
      if (m.coalesce_key && last && last.coalesce_key === m.coalesce_key) rows.pop();
      rows.push({ ...m, seq: String(env.seq), idx: String(idx) });
    });
  }
  return rows;
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

async function rowFacts(page) {
  return page.$$eval(".live .row", (rows) =>
    rows.map((r) => ({
      seq: r.dataset.seq,
      idx: r.dataset.idx,
      levels: [...r.classList].filter((c) => c.startsWith("level-")),
      summary: r.querySelector(":scope > .summary-text, :scope > summary > .summary-text")?.textContent ?? null,
    })),
  );
}

const skip = !BIN && "hiveterm not built";

for (const file of FIXTURES) {
  test(`export of ${file} opened from file:// shows hiveterm classify's rows`, { skip, timeout: 60_000 }, async () => {
    const html = exportLog(path.join(ROOT, file));
    const page = await openExport(html);
    const want = expectedRows(path.join(ROOT, file));
    const shown = await page.$eval(".shown", (e) => e.textContent);
    assert.equal(shown, `${want.length} rows`, `${file}: row count vs hiveterm classify`);
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

const NASTY = [
  `<script>window.__pwned = 1</script>`,
  `<img src=x onerror="window.__pwned = 2">`,
  `<img src="https://tracker.example.com/pixel.gif">`,
  `![pixel](https://tracker.example.com/p.png)`,
  `[click me](javascript:window.__pwned=3)`,
  `<iframe src="https://evil.example.com/"></iframe>`,
  `<svg onload="window.__pwned=5"><circle r=9 /></svg>`,
  `<style>body{display:none}</style><link rel=stylesheet href="https://evil.example.com/x.css">`,
  `<details open ontoggle="window.__pwned=6">x</details>`,
  `<object data="https://evil.example.com/x.swf"></object>`,
  `</script><script>window.__pwned = 11</script><!--`,
  "\u001b]8;;https://evil.example.com\u0007osc link\u001b]8;;\u0007 and \u001b[31mred\u001b[0m",
];

function hostileLog() {
  const lines = [];
  let ts = 1764468000;
  const ev = (o) => lines.push(JSON.stringify({ ts: ts++, ...o }));
  ev({ kind: "turn_start", from: `<b onmouseover="window.__pwned=7">op</b>`, body: NASTY.join("\n") });
  for (const text of NASTY) {
    ev({ kind: "stream", value: { type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } } });
    ev({ kind: "note", text: `stderr: ${text}` });
    ev({ kind: "stream", value: { type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: `t${ts}`, name: "Bash", input: { command: text } }] } } });
    ev({ kind: "stream", value: { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${ts - 1}`, content: text.repeat(3), is_error: true }] } } });
  }
  lines.push(`<script>window.__pwned = 8</script>`);
  ev({ kind: "turn_end", ok: false, note: `<script>window.__pwned=10</script>` });
  return lines.join("\n") + "\n";
}

/** Opens every body, then checks that nothing ran, loaded or got in. */
async function assertInert(page, what) {
  await page.keyboard.press("e");
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

test("a range link (#seq=A-B) in an exported file marks those rows", { skip, timeout: 60_000 }, async () => {
  const file = path.join(ROOT, "fixtures/hyperhive/file_tools.events.jsonl");
  const page = await openExport(exportLog(file), "#seq=3-5");
  const selected = await page.$$eval(".live .row.selected", (rs) => rs.map((r) => r.dataset.seq));
  assert.ok(selected.length > 0 && selected.every((s) => Number(s) >= 3 && Number(s) <= 5), `range rows: ${selected}`);
  assertNoRequests(page);
  await page.context().close();
});
