// The summary header (issue 10): offline, its figures are the ones `hiveterm summary --json`
// prints for the same file, and "first error" goes to the row of first_error_seq — exactly,
// in a list taller than the browser can draw; live, it follows the session as envelopes
// arrive and "first error" pages back to an old row. The header is not made of rows.
// Skipped without a built `hiveterm` (the figures come from it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { ROOT, SHOTS, NDJSON, serveStatic, launch, openPage, openLog, hivetermBinary, freePort, startServe, summaryStrings, summaryFigures } from "../lib.mjs";

const BIN = hivetermBinary();
let browser, statics, server, port;

before(async () => {
  browser = await launch();
  statics = await serveStatic();
});
after(async () => {
  await browser?.close();
  await statics?.close();
  await server?.stop();
});

function pick(got, want) {
  return Object.fromEntries(Object.keys(want).map((k) => [k, got[k]]));
}

const inView = (page, seq) =>
  page.evaluate((seq) => {
    const row = document.querySelector(`.live .row[data-seq="${seq}"]`);
    const a = document.querySelector(".scroller").getBoundingClientRect();
    const b = row?.getBoundingClientRect();
    return !!row && b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
  }, seq);

for (const fixture of ["claude-code-2.1.332/tool_errors.stream.jsonl", "claude-code-2.1.332/api_fatal_400.stream.jsonl", "claude-code-2.1.332/file_tools.transcript.jsonl", "hyperhive/api_fatal_400.events.jsonl"]) {
  test(`offline: the header of ${fixture} says what hiveterm summary says; first error goes to its row`, { skip: !BIN && "hiveterm not built" }, async () => {
    const file = path.join(ROOT, "fixtures", fixture);
    const s = JSON.parse(execFileSync(BIN, ["summary", "--json", file], { encoding: "utf8" }));
    const page = await openPage(browser, statics.url);
    await openLog(page, file);
    const want = summaryStrings(s);
    // The header is no row: rows stay one per message.
    assert.equal(await page.$$eval(".summary-header .row", (r) => r.length), 0);
    assert.deepEqual(pick(await summaryFigures(page), want), want);
    const line = await page.$eval(".summary-header .sh-line", (e) => e.textContent);
    assert.ok(line.startsWith(want.turns) && line.includes(want.errors), line);
    const button = await page.$(".summary-header .first-error");
    if (s.first_error_seq == null) {
      assert.equal(button, null, "no error, no button");
    } else {
      await page.evaluate(() => document.querySelector(".scroller").scrollTo(0, 1e9));
      await button.click();
      await page.waitForSelector(`.live .row.current[data-seq="${s.first_error_seq}"]`);
      assert.ok(await inView(page, s.first_error_seq), "in view");
      assert.equal(await page.evaluate(() => location.hash), `#${s.first_error_seq}`);
      assert.ok(await page.$(".summary-header[open]"), "the click did not close the header");
    }
    await page.screenshot({ path: path.join(SHOTS, `summary-${path.basename(fixture, ".jsonl")}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

test("offline: first error is exact in a list past the browser's height limit, in both themes", { skip: !BIN && "hiveterm not built", timeout: 90_000 }, async () => {
  // 12,000 rows (240,000 px) with the scroller's limit lowered to 50,000 px; the first error at
  // line 7,777, warnings before it.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-summary-"));
  const file = path.join(dir, "tall.jsonl");
  const lines = [JSON.stringify({ kind: "turn_start", ts: 1764468000, from: "operator", body: "go" })];
  for (let n = 2; n <= 12_000; n++) {
    const text = n === 7_777 ? "stderr: error: the first error" : n % 1000 === 0 ? `stderr: warning ${n}` : `stdout: line ${n}`;
    lines.push(JSON.stringify(n === 7_777 ? { kind: "turn_end", ts: 1764468000 + n, ok: false, note: "boom" } : { kind: "note", ts: 1764468000 + n, text }));
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  const s = JSON.parse(execFileSync(BIN, ["summary", "--json", file], { encoding: "utf8" }));
  assert.equal(s.first_error_seq, 7_777);
  for (const colorScheme of ["dark", "light"]) {
    const init = "localStorage.setItem('hiveterm.test.max-scroll-px', '50000')";
    const page = await openPage(browser, statics.url, { init, colorScheme });
    await openLog(page, file);
    const h = await page.$eval(".scroller", (e) => e.scrollHeight);
    assert.ok(h <= 52_000, `past the limit: ${h}`);
    await page.click(".summary-header .first-error");
    await page.waitForSelector('.live .row.current[data-seq="7777"]');
    await page.waitForTimeout(300);
    assert.ok(await inView(page, 7777), "the first error's row in view");
    assert.equal(await page.evaluate(() => location.hash), "#7777");
    await page.click(".summary-header > summary .sh-line");
    await page.waitForSelector(".summary-header[open] .sh-figures");
    await page.screenshot({ path: path.join(SHOTS, `summary-first-error-${colorScheme}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

async function startServer() {
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-e2e-")), "summary.db");
  port = await freePort();
  server = await startServe(BIN, { port, db });
}

async function post(id, events) {
  const body = events.map((e) => JSON.stringify(e)).join("\n") + "\n";
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/${id}/events`, { method: "POST", headers: NDJSON, body });
  assert.equal(r.status, 200, await r.text());
}

test("live: the header follows the session; first error pages back to its row", { skip: !BIN && "hiveterm not built", timeout: 90_000 }, async () => {
  await startServer();
  let ts = 1764468000;
  const fixture = fs.readFileSync(path.join(ROOT, "fixtures/hyperhive/api_fatal_400.events.jsonl"), "utf8");
  // The error comes first, then 1,500 notes: the first history page does not hold it.
  await post("e2e-sum", fixture.split("\n").filter(Boolean).map((l) => JSON.parse(l)));
  await post("e2e-sum", Array.from({ length: 1500 }, (_, i) => ({ kind: "note", ts: ts++, text: `stdout: line ${i}` })));
  const api = async () => (await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-sum/summary`)).json();
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-sum`);
  let s = await api();
  assert.ok(s.first_error_seq != null && s.first_error_seq < 100, `an early error: ${s.first_error_seq}`);
  let want = summaryStrings(s);
  await page.waitForFunction((t) => document.querySelector(".summary-header .sh-line")?.textContent.startsWith(t), want.turns);
  assert.deepEqual(pick(await summaryFigures(page), want), want);
  // A new turn arrives and ends: the header follows.
  await post("e2e-sum", [
    { kind: "turn_start", ts: ts++, from: "operator", body: "again" },
    { kind: "note", ts: ts++, text: "stderr: warning: again" },
    { kind: "turn_end", ts: ts++, ok: true },
  ]);
  s = await api();
  want = summaryStrings(s);
  await page.waitForFunction((w) => document.querySelector(".summary-header [data-k=turns]")?.textContent === w, want.turns, { timeout: 10_000 });
  assert.deepEqual(pick(await summaryFigures(page), want), want);
  // First error: paged back to, current, in view, in the URL.
  await page.click(".summary-header .first-error");
  await page.waitForSelector(`.live .row.current[data-seq="${s.first_error_seq}"]`, { timeout: 20_000 });
  await page.waitForTimeout(500);
  assert.ok(await inView(page, s.first_error_seq), "in view");
  assert.equal(await page.evaluate(() => location.hash), `#${s.first_error_seq}`);
  await page.screenshot({ path: path.join(SHOTS, "summary-live.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
