// The live view against a running `hiveterm serve`: rows arrive over SSE, the banner shimmers
// while a turn is in flight, and a server restart in the middle (the browser's EventSource
// reconnects with Last-Event-ID) neither loses nor repeats a row; partial messages
// (stream_event lines) show a growing preview row that the final message replaces. Skipped
// when the binary has no `serve` yet.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { ROOT, DIST, SHOTS, NDJSON, launch, openPage, hivetermBinary, markdownRendered, freePort, startServe } from "../lib.mjs";

const BIN = hivetermBinary();
const HAS_SERVE = BIN && spawnSync(BIN, ["serve", "--help"]).status === 0;
const DB = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-e2e-")), "live.db");
let browser, server, port;

async function startServer() {
  server = await startServe(BIN, { port, db: DB });
}

async function stopServer() {
  await server?.stop();
  server = null;
}

let ts = 1764468000;
async function post(events) {
  const body = events.map((e) => JSON.stringify({ ts: ts++, ...e })).join("\n") + "\n";
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-live/events?title=e2e%20live`, { method: "POST", headers: NDJSON, body });
  const answer = await r.text();
  assert.equal(r.status, 200, answer);
  return JSON.parse(answer).seqs;
}
/** Posts `n` notes "stdout: line 1…n" to session `id`. */
async function postNotes(id, n) {
  const body = Array.from({ length: n }, (_, i) => JSON.stringify({ kind: "note", ts: 1764468000 + i, text: `stdout: line ${i + 1}` })).join("\n") + "\n";
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/${id}/events`, { method: "POST", headers: NDJSON, body });
  assert.equal(r.status, 200, await r.text());
}
const text = (t) => ({ kind: "stream", value: { type: "assistant", message: { role: "assistant", content: [{ type: "text", text: t }] } } });

before(async () => {
  if (!HAS_SERVE) return;
  port = await freePort();
  await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopServer();
});

test("live session with a reconnect in the middle", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  await post([{ kind: "turn_start", from: "operator", body: "fix the build" }, text("Looking at **the build**."), { kind: "note", text: "stderr: warning: unused" }]);
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-live`);
  await page.waitForSelector('.live .row[data-seq="3"]');
  await page.waitForSelector(".banner.in-flight");
  // The live page starts the worker for its first markdown body, which it renders.
  await markdownRendered(page);
  assert.equal(await page.$eval('.live .row[data-seq="2"] .md strong', (e) => e.textContent), "the build");
  await post([text("first live row")]);
  await page.waitForSelector('.live .row[data-seq="4"]');

  // Restart the server; the page's EventSource reconnects by itself.
  await stopServer();
  await page.waitForFunction(() => /reconnecting/.test(document.querySelector(".conn")?.textContent ?? ""), null, { timeout: 10_000 });
  await startServer();
  const seqs = await post([text("after the restart"), { kind: "turn_end", ok: true }]);
  const last = seqs[seqs.length - 1];
  await page.waitForSelector(`.live .row[data-seq="${last}"]`, { timeout: 20_000 });
  await page.waitForFunction(() => !document.querySelector(".banner.in-flight"));

  const rows = await page.$$eval(".live .row", (rs) => rs.map((r) => `${r.dataset.seq}.${r.dataset.idx}`));
  assert.equal(new Set(rows).size, rows.length, `no repeated rows: ${rows}`);
  const seen = new Set(rows.map((r) => Number(r.split(".")[0])));
  for (let s = 1; s <= last; s++) assert.ok(seen.has(s), `row of seq ${s} present: ${rows}`);
  const end = await page.$eval(`.live .row[data-seq="${last}"] .turn-time`, (e) => e.textContent);
  assert.match(end, /^\d\d:\d\d:\d\d · \S+/);
  assert.match(await page.$eval(".conn", (e) => e.textContent), /connected/);
  assert.deepEqual(page.remoteRequests, []);
  await page.screenshot({ path: path.join(SHOTS, "live.png") });
  await page.context().close();
});

test("the start page lists the server's sessions; a session page works with a trailing slash too", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  await post([text("listed")]);
  const page = await openPage(browser, `http://127.0.0.1:${port}/`);
  const link = await page.waitForSelector('.sessions a:text("e2e live")');
  assert.equal(await link.evaluate((a) => a.href), `http://127.0.0.1:${port}/s/e2e-live`);
  // Each entry is a row of the sessions' table: its title, when it started, its status and
  // a live mark while its producer runs.
  const item = await link.evaluate((a) => {
    const tr = a.closest("tr");
    return [tr.querySelector(".started").textContent, tr.querySelector(".status").textContent, !!tr.querySelector(".live-dot")];
  });
  assert.match(item[0], /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  assert.match(item[1], /^(ok|live|in flight)$/);
  assert.equal(item[2], true, "marked live");
  // A session that starts while the list is open shows up in it by itself.
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-later/events?title=started%20later`, { method: "POST", headers: NDJSON, body: JSON.stringify({ kind: "note", text: "hello" }) + "\n" });
  assert.equal(r.status, 200);
  await page.waitForSelector('.sessions a:text("started later")', { timeout: 15_000 });
  await page.screenshot({ path: path.join(SHOTS, "live-start-page.png") });
  // (The list was drawn anew when it changed: ask for the link again.)
  await page.click('.sessions a:text("e2e live")');
  await page.waitForURL(`http://127.0.0.1:${port}/s/e2e-live`);
  await page.waitForSelector('.live .row[data-seq="1"]');
  // The page's assets are relative: below /s/e2e-live/ they are asked for there, and served.
  await page.goto(`http://127.0.0.1:${port}/s/e2e-live/`);
  await page.waitForSelector('.live .row[data-seq="1"]');
  await page.waitForFunction(() => /connected/.test(document.querySelector(".conn")?.textContent ?? ""));
  const assets = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
  assert.ok(assets.some((p) => /^\/s\/e2e-live\/app-[0-9a-f]+_bg\.wasm$/.test(p)), `assets below the page: ${assets}`);
  assert.deepEqual(page.failed, []);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.remoteRequests, []);
  await page.context().close();
});

// Regression (search debounce): the page's first debounced search, 200 ms after load, refiltered
// and forgot the current row, so a permalink revealed before it (a live page whose history
// came back quickly; any page on a slow machine) lost its mark.
test("a permalink (#seq) to a live session's row stays the current row after load", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  await postNotes("e2e-permalink", 80);
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-permalink#60`);
  await page.waitForSelector('.live .row.current[data-seq="60"]');
  await page.waitForTimeout(800);
  const cur = await page.$$eval(".live .row.current", (rs) => rs.map((r) => r.dataset.seq));
  assert.deepEqual(cur, ["60"], "still the current row after the first debounced search");
  assert.equal(await page.evaluate(() => location.hash), "#60");
  await page.context().close();
});

// Regression (follow the tail): a permalink to a row older than the newest history page was
// revealed, then scrolled away from by a tail-follow queued before the reveal on the same frame.
test("a permalink to an old row of a live session pages back to it and stays there", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  await postNotes("e2e-deep", 1500);
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-deep#100`);
  await page.waitForSelector('.live .row.current[data-seq="100"]');
  await page.waitForTimeout(800);
  const cur = await page.evaluate(() => {
    const row = document.querySelector(".live .row.current");
    const a = document.querySelector(".scroller").getBoundingClientRect();
    const b = row?.getBoundingClientRect();
    return row && { seq: row.dataset.seq, visible: b.top >= a.top && b.bottom <= a.bottom };
  });
  assert.deepEqual(cur, { seq: "100", visible: true });
  assert.equal(await page.$eval(".shown", (e) => e.textContent), "1500 rows", "paged back to it");
  await page.screenshot({ path: path.join(SHOTS, "live-permalink-old-row.png") });
  await page.context().close();
});

// Rows the reader can point at: a range permalink opens at its first row with the range
// highlighted, and survives a reload; a row's link makes it current and copies its address;
// shift-click selects the rows between; `c` copies the selection's link; filters still work.
test("a range permalink (#seq=a-b) highlights its rows; row links copy; shift-click selects", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  await postNotes("e2e-range", 300);
  const url = `http://127.0.0.1:${port}/s/e2e-range`;
  const page = await openPage(browser, `${url}#seq=120-180`);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: `http://127.0.0.1:${port}` });
  const selected = () => page.$$eval(".live .row.selected", (rs) => rs.map((r) => Number(r.dataset.seq)));
  const inView = (seq) => page.evaluate((seq) => {
    const row = document.querySelector(`.live .row[data-seq="${seq}"]`);
    const a = document.querySelector(".scroller").getBoundingClientRect();
    const b = row?.getBoundingClientRect();
    return !!row && b.top >= a.top && b.bottom <= a.bottom;
  }, seq);
  const opened = async () => {
    await page.waitForSelector('.live .row.current[data-seq="120"]');
    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => location.hash), "#seq=120-180");
    assert.ok(await inView(120), "the range's first row is in view");
    const sel = await selected();
    assert.ok(sel.length >= 20 && sel[0] === 120, `selected from 120: ${sel}`);
    assert.ok(sel.every((s) => s >= 120 && s <= 180), `only the range: ${sel}`);
    assert.ok(await page.$('.live .row[data-seq="119"]:not(.selected)'), "the row before is not selected");
  };
  await opened();
  await page.screenshot({ path: path.join(SHOTS, "live-range-link.png") });
  await page.reload();
  await page.waitForSelector("[data-dropzone]");
  await opened();
  // A row's link: current, in the URL, on the clipboard.
  await page.hover('.live .row[data-seq="130"]');
  await page.click('.live .row[data-seq="130"] .row-link');
  await page.waitForSelector('.live .row.current[data-seq="130"]');
  assert.equal(await page.evaluate(() => location.hash), "#130");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${url}#130`);
  assert.deepEqual(await selected(), [], "a row's link drops the range");
  // Shift-click: the rows from the current one to this one.
  await page.click('.live .row[data-seq="135"] .summary-text', { modifiers: ["Shift"] });
  await page.waitForFunction(() => location.hash === "#seq=130-135");
  assert.deepEqual(await selected(), [130, 131, 132, 133, 134, 135]);
  await page.keyboard.press("c");
  await page.waitForFunction((want) => navigator.clipboard.readText().then((t) => t === want), `${url}#seq=130-135`);
  // Search: the matching rows, the selected ones still highlighted.
  await page.fill(".search", "line 13");
  await page.waitForFunction(() => document.querySelector(".shown").textContent === "11 of 300 rows");
  assert.deepEqual(await selected(), [130, 131, 132, 133, 134, 135]);
  await page.fill(".search", "");
  await page.waitForFunction(() => document.querySelector(".shown").textContent === "300 rows");
  await page.keyboard.press("Escape");
  // j: a key moves one row and links it alone.
  await page.keyboard.press("j");
  await page.waitForFunction(() => /^#\d+$/.test(location.hash));
  assert.deepEqual(await selected(), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A list taller than a browser can draw (issue 12): past the scroller limit the scroll range
// maps onto the rows, and every row is still reached exactly. The limit is lowered for the
// test (localStorage) so a 20,000-row session (400,000 px) is 4 times past it.
test("a list past the browser's height limit reaches every row: #seq, n/N, search, G, jump to latest", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 90_000 }, async () => {
  const N = 20_000;
  const warnAt = new Set([5_000, 12_345, 19_990]);
  const body = Array.from({ length: N }, (_, i) => {
    const n = i + 1;
    const text = warnAt.has(n) ? `stderr: warning at ${n}` : `stdout: line ${n}`;
    return JSON.stringify({ kind: "note", ts: 1764468000 + i, text });
  }).join("\n") + "\n";
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-tall/events`, { method: "POST", headers: NDJSON, body });
  assert.equal(r.status, 200, await r.text());
  const init = "localStorage.setItem('hiveterm.test.max-scroll-px', '100000')";
  // A permalink to the first row: paged back to it, so all 20,000 rows are held.
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-tall#1`, { init });
  const inView = (seq) => page.evaluate((seq) => {
    const row = document.querySelector(`.live .row[data-seq="${seq}"]`);
    const a = document.querySelector(".scroller").getBoundingClientRect();
    const b = row?.getBoundingClientRect();
    return !!row && b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
  }, seq);
  const current = () => page.$eval(".live .row.current", (r) => Number(r.dataset.seq));
  await page.waitForSelector('.live .row.current[data-seq="1"]', { timeout: 30_000 });
  await page.waitForFunction((n) => document.querySelector(".shown").textContent === `${n} rows`, N, { timeout: 30_000 });
  const h = await page.$eval(".scroller", (e) => e.scrollHeight);
  assert.ok(h <= 100_000 + 2000, `the scroller stays under the limit: ${h}`);
  // n / N: the next and previous warnings.
  await page.keyboard.press("n");
  await page.waitForFunction(() => document.querySelector(".live .row.current")?.dataset.seq === "5000");
  assert.ok(await inView(5000), "n: 5000 in view");
  await page.keyboard.press("n");
  await page.waitForFunction(() => document.querySelector(".live .row.current")?.dataset.seq === "12345");
  assert.ok(await inView(12345), "n: 12345 in view");
  await page.keyboard.press("N");
  await page.waitForFunction(() => document.querySelector(".live .row.current")?.dataset.seq === "5000");
  assert.ok(await inView(5000), "N: 5000 in view");
  // G: the very last row.
  await page.keyboard.press("G");
  await page.waitForTimeout(300);
  assert.ok(await inView(N), "G: the last row in view");
  // The scrollbar dragged to the end: the last row; to the top: the first.
  await page.$eval(".scroller", (e) => { e.scrollTop = 0; });
  await page.waitForTimeout(300);
  assert.ok(await inView(1), "top: the first row in view");
  await page.click(".jump");
  await page.waitForTimeout(300);
  assert.ok(await inView(N), "jump to latest: the last row in view");
  await page.$eval(".scroller", (e) => { e.scrollTop = e.scrollHeight / 2; });
  await page.waitForTimeout(300);
  await page.$eval(".scroller", (e) => { e.scrollTop = e.scrollHeight; });
  await page.waitForTimeout(300);
  assert.ok(await inView(N), "scrolled to the bottom: the last row in view");
  // Search, then a jump to its last hit.
  await page.fill(".search", "warning at");
  await page.waitForFunction(() => document.querySelector(".shown").textContent === "3 of 20000 rows");
  await page.keyboard.press("Escape");
  await page.keyboard.press("N");
  await page.waitForFunction(() => document.querySelector(".live .row.current")?.dataset.seq === "19990");
  assert.equal(await current(), 19990);
  await page.screenshot({ path: path.join(SHOTS, "live-tall.png") });
  assert.deepEqual(page.errors, []);
  // A permalink deep in the session: paged back to (8,500 rows, still past the limit).
  const deep = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-tall#12000`, { init });
  await deep.waitForSelector('.live .row.current[data-seq="12000"]', { timeout: 30_000 });
  await deep.waitForTimeout(300);
  assert.ok(await deep.evaluate(() => {
    const row = document.querySelector('.live .row[data-seq="12000"]');
    const a = document.querySelector(".scroller").getBoundingClientRect();
    const b = row.getBoundingClientRect();
    return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
  }), "#12000 in view");
  await deep.context().close();
  await page.context().close();
});

// Regression (token): on a server bound beyond loopback (--token), the start page opened with
// ?token= linked to sessions without it, so a session opened from the list got 401s.
test("with --token, a session opened from the start page keeps the token", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  const tport = await freePort();
  const db = path.join(path.dirname(DB), "token.db");
  const srv = spawn(BIN, ["serve", "--addr", `0.0.0.0:${tport}`, "--token", "s3cret-e2e-token-0123", "--db", db, "--static", DIST], { stdio: "ignore" });
  try {
    const base = `http://127.0.0.1:${tport}`;
    let r;
    for (let i = 0; i < 100 && !r?.ok; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      r = await fetch(`${base}/api/sessions/e2e-token/events?title=guarded`, { method: "POST", headers: { authorization: "Bearer s3cret-e2e-token-0123", "content-type": "application/x-ndjson" }, body: JSON.stringify({ kind: "note", text: "operator: behind a token" }) + "\n" }).catch(() => null);
    }
    assert.ok(r?.ok, "the guarded server took an event");
    assert.equal((await fetch(`${base}/api/sessions`)).status, 401, "the API needs the token");
    const page = await openPage(browser, `${base}/?token=s3cret-e2e-token-0123`);
    await page.click('.sessions a:text("guarded")');
    await page.waitForURL(`${base}/s/e2e-token?token=s3cret-e2e-token-0123`);
    await page.waitForSelector('.live .row[data-seq="1"]');
    await page.waitForFunction(() => /connected/.test(document.querySelector(".conn")?.textContent ?? ""));
    assert.deepEqual(page.failed, []);
    await page.context().close();
  } finally {
    srv.kill("SIGTERM");
  }
});

test("partial messages show a growing preview row, replaced by the final message", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  const lines = fs.readFileSync(path.join(ROOT, "fixtures/claude-code-2.1.332/partial_messages.stream.jsonl"), "utf8").split("\n").filter(Boolean);
  const postLine = async (line) => {
    const r = await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-preview/events`, { method: "POST", headers: NDJSON, body: line + "\n" });
    assert.equal(r.status, 200, await r.text());
  };
  // Line 1 (init) has no row; line 2 (a status) has one.
  await postLine(lines[0]);
  await postLine(lines[1]);
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-preview`);
  await page.waitForSelector('.live .row[data-seq="2"]');
  await page.waitForFunction(() => /connected/.test(document.querySelector(".conn")?.textContent ?? ""));
  // Every text the preview row shows, as rendered (null: no preview row).
  await page.evaluate(() => {
    window.previewTexts = [];
    const record = () => {
      const t = document.querySelector(".live .row.preview .preview-text")?.textContent ?? null;
      if (t !== window.previewTexts[window.previewTexts.length - 1]) window.previewTexts.push(t);
    };
    new MutationObserver(record).observe(document.querySelector(".live"), { subtree: true, childList: true, characterData: true });
  });
  const posting = (async () => {
    for (const line of lines.slice(2)) {
      await postLine(line);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  // Mid-stream: the thinking block is being written.
  await page.waitForFunction(() => (document.querySelector(".live .row.preview .preview-text")?.textContent ?? "").length > 12, null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SHOTS, "live-preview.png") });
  await posting;
  // The final message of the last block is a row, and the preview is gone.
  await page.waitForFunction(() => [...document.querySelectorAll(".live .row:not(.preview)")].some((r) => r.textContent.includes("defines")), null, { timeout: 10_000 });
  await page.waitForFunction(() => !document.querySelector(".live .row.preview"), null, { timeout: 5_000 });
  const seen = await page.evaluate(() => window.previewTexts);
  const texts = seen.filter((t) => t !== null);
  assert.ok(texts.some((t) => t.startsWith("Thinking")), `a thinking preview: ${JSON.stringify(seen)}`);
  assert.ok(texts.some((t) => t.startsWith("`lib.rs`")), `a text preview: ${JSON.stringify(seen)}`);
  const grew = texts.some((a, i) => a.length > 0 && texts.slice(i + 1).some((b) => b.length > a.length && b.startsWith(a)));
  assert.ok(grew, `the preview grew: ${JSON.stringify(seen)}`);
  // Regression: the "thinking… ~N tokens" rows between the deltas (they update in place) do
  // not blink the thinking preview away.
  const thinking = seen.map((t, i) => (t?.startsWith("Thinking") ? i : -1)).filter((i) => i >= 0);
  assert.ok(!seen.slice(thinking[0], thinking[thinking.length - 1]).includes(null), `no blink: ${JSON.stringify(seen)}`);
  // Never a stored row: every other row has its seq, none repeated.
  const rows = await page.$$eval(".live .row", (rs) => rs.map((r) => `${r.dataset.seq}.${r.dataset.idx}`));
  assert.equal(new Set(rows).size, rows.length, `no repeated rows: ${rows}`);
  assert.ok(rows.every((r) => !r.includes("undefined")), `${rows}`);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.remoteRequests, []);
  await page.context().close();
});

test("a log opened on a live page opens offline at the root, and back returns to the session (issue 21)", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  await postNotes("e2e-open", 3);
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-open`);
  await page.waitForSelector('.live .row[data-seq="3"]');
  const file = path.join(ROOT, "fixtures/claude-code-2.1.332/tool_errors.stream.jsonl");
  await page.setInputFiles("#file", file);
  // Not the session's rows wiped and a stuck page: the offline page at the root, the log read.
  await page.waitForURL(`http://127.0.0.1:${port}/`, { timeout: 15_000 });
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 30_000 });
  const title = await page.$eval(".banner", (b) => b.textContent);
  assert.ok(title.includes("tool_errors.stream.jsonl"), title);
  const offline = await page.$$eval(".live .row .summary-text", (s) => s.map((e) => e.textContent));
  assert.ok(offline.length > 0 && !offline.some((t) => t.startsWith("stdout: line")), JSON.stringify(offline));
  // Back: the live session, its rows all there.
  await page.goBack();
  await page.waitForURL(`http://127.0.0.1:${port}/s/e2e-open`);
  await page.waitForSelector('.live .row[data-seq="3"]');
  const rows = await page.$$eval(".live .row .summary-text", (s) => s.map((e) => e.textContent));
  assert.deepEqual(rows, ["stdout: line 1", "stdout: line 2", "stdout: line 3"]);
  assert.deepEqual(page.errors, [], "no page errors");
  await page.context().close();
});

/** Posts `events` as they are (each with its own `ts`) to session `id`. */
async function postTo(id, events) {
  const body = events.map((e) => JSON.stringify(e)).join("\n") + "\n";
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/${id}/events`, { method: "POST", headers: NDJSON, body });
  assert.equal(r.status, 200, await r.text());
}
const toolUse = (id, name, input) => ({ kind: "stream", value: { type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] } } });
const toolResult = (id) => ({ kind: "stream", value: { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "done" }] } } });
/** The seconds a `Name 12s` part of the running tools says, for `name`. */
const secondsOf = (text, name) => Number(new RegExp(`${name} (\\d+)s`).exec(text)?.[1]);

test("the tools running count up after the rows until answered; a compaction counts up on its row (issue 21, points 4 and 5)", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  const now = Date.now() / 1000;
  await postTo("e2e-activity", [
    { kind: "turn_start", ts: now - 6, from: "operator", body: "go" },
    { ...toolUse("t1", "Bash", { command: "sleep 60" }), ts: now - 5 },
    { ...toolUse("t2", "Grep", { pattern: "TODO" }), ts: now - 2 },
  ]);
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-activity`);
  await page.waitForSelector(".running-tools");
  const first = await page.$eval(".running-tools", (e) => e.textContent);
  assert.match(first, /Bash \d+s.*Grep \d+s/, first);
  assert.ok(secondsOf(first, "Bash") >= 5, first);
  // It counts up by itself, with no event arriving.
  await page.waitForFunction((b) => Number(/Bash (\d+)s/.exec(document.querySelector(".running-tools")?.textContent ?? "")?.[1]) > b, secondsOf(first, "Bash"), { timeout: 5_000 });
  // The indicator is no row of the log: it has no seq, no link, and the rows' count is theirs.
  assert.equal(await page.$eval(".running-tools", (e) => e.dataset.seq), undefined);
  await page.screenshot({ path: path.join(SHOTS, "live-running-tools.png") });
  // Answered, a call leaves the indicator; the turn's end clears it.
  await postTo("e2e-activity", [{ ...toolResult("t2"), ts: Date.now() / 1000 }]);
  await page.waitForFunction(() => !/Grep/.test(document.querySelector(".running-tools")?.textContent ?? "Grep"));
  assert.match(await page.$eval(".running-tools", (e) => e.textContent), /Bash \d+s/);
  await postTo("e2e-activity", [{ kind: "turn_end", ts: Date.now() / 1000, ok: true }]);
  await page.waitForSelector(".running-tools", { state: "detached" });

  // A compaction: its row counts up while it is the newest row, and the header shows the
  // harness's turn state.
  const t = Date.now() / 1000;
  await postTo("e2e-activity", [
    { kind: "turn_state_changed", ts: t - 3, state: "compacting" },
    { kind: "stream", ts: t - 3, value: { type: "system", subtype: "status", status: "compacting", session_id: "s" } },
  ]);
  await page.waitForFunction(() => /^⚙ compact · \d+s…$/.test([...document.querySelectorAll(".live .row .summary-text")].at(-1)?.textContent ?? ""));
  const counting = await page.$$eval(".live .row .summary-text", (s) => s.at(-1).textContent);
  const n = Number(/(\d+)s/.exec(counting)[1]);
  assert.ok(n >= 3, counting);
  await page.waitForFunction((n) => Number(/compact · (\d+)s/.exec([...document.querySelectorAll(".live .row .summary-text")].at(-1)?.textContent ?? "")?.[1]) > n, n, { timeout: 5_000 });
  assert.equal(await page.$eval(".badge-turn_state", (e) => e.textContent), "turn compacting");
  await page.screenshot({ path: path.join(SHOTS, "live-compacting.png") });
  await postTo("e2e-activity", [
    { kind: "stream", ts: Date.now() / 1000, value: { type: "system", subtype: "status", status: null, compact_result: "success", session_id: "s" } },
    { kind: "turn_state_changed", ts: Date.now() / 1000, state: "idle" },
  ]);
  await page.waitForFunction(() => [...document.querySelectorAll(".live .row .summary-text")].at(-1)?.textContent === "⚙ status · compact success");
  await page.waitForFunction(() => document.querySelector(".badge-turn_state")?.textContent === "turn idle");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a transcript's prompts are its turns in the header (issue 21, point 4)", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  const lines = fs.readFileSync(path.join(ROOT, "fixtures/claude-code-2.1.332/resume_1_first.transcript.jsonl"), "utf8");
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-transcript/events`, { method: "POST", headers: NDJSON, body: lines });
  assert.equal(r.status, 200, await r.text());
  const summary = await (await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-transcript/summary`)).json();
  assert.ok(summary.turns > 0, JSON.stringify(summary));
  const page = await openPage(browser, `http://127.0.0.1:${port}/s/e2e-transcript`);
  await page.waitForSelector(".badge-turns");
  assert.equal(await page.$eval(".badge-turns", (e) => e.textContent), `turns ${summary.turns}`);
  await page.context().close();
});
