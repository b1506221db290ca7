// An offline log's permalink survives a reload: the page keeps the opened log for this tab
// (IndexedDB, keyed by a per-tab id in sessionStorage), reopens it by itself on a reload and
// reveals the #seq row; a new tab or a fresh browser does not; "close" forgets it; logs of
// closed tabs are pruned; and without storage a log still opens (a warning, not kept).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, SHOTS, openPage, openLog, rowFacts, staticPageHooks, pasteLog, bodiesRead } from "../lib.mjs";

const FIXTURE = path.join(ROOT, "fixtures/hyperhive/file_tools.events.jsonl");
const env = staticPageHooks();

/** The page's kept logs ({tab, name, at, size}), read from its IndexedDB; [] if none. */
function keptLogs(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open("hiveterm");
        // Not created yet: do not create it here (the page creates its store).
        req.onupgradeneeded = () => req.transaction.abort();
        req.onerror = () => resolve([]);
        req.onsuccess = () => {
          const db = req.result;
          const all = db.transaction("logs").objectStore("logs").getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result.map((v) => ({ tab: v.tab, name: v.name, at: v.at, size: v.blob.size })));
          };
        };
      }),
  );
}

/** Waits until the kept logs satisfy `ok`; answers them. */
async function waitKept(page, ok, what) {
  let kept;
  for (let i = 0; i < 100; i++) {
    kept = await keptLogs(page);
    if (ok(kept)) return kept;
    await page.waitForTimeout(50);
  }
  assert.fail(`${what}: ${JSON.stringify(kept)}`);
}

/** The page's own console warnings (Chromium adds some of its own about preloads). */
const ours = (warnings) => warnings.filter((w) => w.startsWith("hiveterm:"));
const done = (page) => page.waitForSelector('.progress[data-done="1"]', { timeout: 30_000 });
const title = (page) => page.$eval(".banner .title", (e) => e.textContent);
const shown = (page) => page.$eval(".shown", (e) => e.textContent);

/** Nothing opens by itself: the start page shows, and still does a second later. */
async function staysEmpty(page) {
  await page.waitForSelector(".empty");
  await page.waitForTimeout(1000);
  assert.equal(await page.$(".progress"), null, "no log reopened");
  assert.equal(await page.$$eval(".live .row", (r) => r.length), 0);
  assert.ok(await page.$(".empty"), "start page");
}

/** The current row: its seq, and whether it is inside the scroller's viewport. */
function currentRow(page) {
  return page.evaluate(() => {
    const row = document.querySelector(".live .row.current");
    if (!row) return null;
    const sc = document.querySelector(".scroller");
    const a = sc.getBoundingClientRect();
    const b = row.getBoundingClientRect();
    return { seq: row.dataset.seq, visible: b.top >= a.top && b.bottom <= a.bottom, scrollTop: sc.scrollTop };
  });
}

test("a reload reopens the tab's log at its #seq row; a new tab and a fresh browser do not", async () => {
  const page = await openPage(env.browser, env.server.url);
  await openLog(page, FIXTURE);
  const rows = await shown(page);
  for (let i = 0; i < 6; i++) await page.keyboard.press("j");
  const cur = await currentRow(page);
  assert.ok(cur, "a current row");
  assert.equal(await page.evaluate(() => location.hash), `#${cur.seq}`);
  const kept = await waitKept(page, (k) => k.length === 1, "the log is kept");
  assert.equal(kept[0].name, "file_tools.events.jsonl");
  assert.equal(kept[0].size, fs.statSync(FIXTURE).size);
  const tab = await page.evaluate(() => sessionStorage.getItem("hiveterm.tab"));
  assert.equal(kept[0].tab, tab, "kept under this tab's id");

  await page.reload();
  await done(page);
  assert.equal(await title(page), "file_tools.events.jsonl", "reopened with its name");
  assert.equal(await shown(page), rows, "the same rows");
  await page.waitForSelector(`.live .row.current[data-seq="${cur.seq}"]`);
  const after = await currentRow(page);
  assert.equal(after.seq, cur.seq);
  assert.ok(after.visible, "the #seq row is in view");
  assert.equal(await page.evaluate(() => location.hash), `#${cur.seq}`);
  assert.equal(await page.$eval(".close-log", (b) => b.hidden), false, "close is offered");
  await page.screenshot({ path: path.join(SHOTS, "reload-restored.png") });

  // Another tab of the same browser (same IndexedDB, its own sessionStorage): nothing.
  const other = await openPage(env.browser, `${env.server.url}#${cur.seq}`, { context: page.context() });
  await staysEmpty(other);
  assert.equal((await keptLogs(other)).length, 1, "the first tab's log is still kept");
  // A fresh browser profile: nothing either.
  const fresh = await openPage(env.browser, `${env.server.url}#${cur.seq}`);
  await staysEmpty(fresh);
  assert.deepEqual(await keptLogs(fresh), []);

  for (const p of [page, other, fresh]) {
    assert.deepEqual(p.errors, [], "no console errors");
    assert.deepEqual(ours(p.warnings), [], "no warnings of the page's");
    assert.deepEqual(p.remoteRequests, []);
  }
  await fresh.context().close();
  await page.context().close();
});

test("a row deep in a long log is revealed after the reload", async () => {
  // 3,000 lines; the only warning at line 2,000 (`n` jumps there, `j` twice more).
  const lines = [JSON.stringify({ kind: "turn_start", ts: 1764468000, from: "operator", body: "go" })];
  for (let i = 2; i <= 3000; i++) {
    const text = i === 2000 ? "stderr: warning: deep" : `stdout: line ${i}`;
    lines.push(JSON.stringify({ kind: "note", ts: 1764468000 + i, text }));
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-reload-"));
  const file = path.join(dir, "deep.events.jsonl");
  fs.writeFileSync(file, lines.join("\n") + "\n");
  try {
    const page = await openPage(env.browser, env.server.url);
    await openLog(page, file);
    await page.keyboard.press("n");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    const cur = await currentRow(page);
    assert.equal(cur.seq, "2002");
    assert.ok(cur.visible && cur.scrollTop > 10_000, `scrolled to it: ${JSON.stringify(cur)}`);
    await waitKept(page, (k) => k.length === 1 && k[0].name === "deep.events.jsonl", "kept");

    await page.reload();
    await done(page);
    await page.waitForSelector('.live .row.current[data-seq="2002"]');
    const after = await currentRow(page);
    assert.ok(after.visible && after.scrollTop > 10_000, `revealed: ${JSON.stringify(after)}`);
    assert.equal(await title(page), "deep.events.jsonl");
    assert.deepEqual(page.errors, []);
    await page.screenshot({ path: path.join(SHOTS, "reload-deep-row.png") });
    await page.context().close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a new log replaces the kept one; a pasted log is kept too; close forgets it", async () => {
  const page = await openPage(env.browser, env.server.url);
  await openLog(page, FIXTURE);
  await waitKept(page, (k) => k.length === 1 && k[0].name === "file_tools.events.jsonl", "first log kept");
  await page.keyboard.press("j");
  assert.match(await page.evaluate(() => location.hash), /^#\d+$/);
  const text = fs.readFileSync(path.join(ROOT, "fixtures/claude-code-2.1.332/basic_markdown.stream.jsonl"), "utf8");
  await pasteLog(page, text);
  await done(page);
  assert.equal(await page.evaluate(() => location.hash), "", "the last log's #seq is dropped");
  const kept = await waitKept(page, (k) => k.length === 1 && k[0].name === "pasted log", "replaced by the pasted log");
  assert.equal(kept[0].size, Buffer.byteLength(text));
  const rows = await shown(page);

  await page.reload();
  await done(page);
  assert.equal(await title(page), "pasted log");
  assert.equal(await shown(page), rows);
  await bodiesRead(page);
  assert.ok((await rowFacts(page)).some((f) => f.hasMd), "its markdown rows");

  // Close: back to the start page, and the kept copy is gone (a reload shows nothing).
  await page.click(".close-log");
  await page.waitForSelector(".empty");
  assert.equal(await title(page), "hiveterm");
  assert.equal(await page.$$eval(".live .row", (r) => r.length), 0);
  assert.equal(await page.$eval(".close-log", (b) => b.hidden), true, "close hides itself");
  await waitKept(page, (k) => k.length === 0, "forgotten");
  await page.screenshot({ path: path.join(SHOTS, "reload-closed.png") });
  await page.reload();
  await staysEmpty(page);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(ours(page.warnings), []);
  await page.context().close();
});

test("logs of closed tabs are pruned on load: older than a day, beyond the newest four", async () => {
  const page = await openPage(env.browser, env.server.url);
  await openLog(page, FIXTURE);
  const [mine] = await waitKept(page, (k) => k.length === 1, "kept");
  // Other tabs' logs: one two days old, five from the last hour (newest first: t1 … t5).
  await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const req = indexedDB.open("hiveterm");
        req.onsuccess = () => {
          const tx = req.result.transaction("logs", "readwrite");
          const put = (tab, age) => tx.objectStore("logs").put({ tab, name: tab, at: Date.now() - age, blob: new Blob([tab]) }, tab);
          put("old", 48 * 3600e3);
          for (let i = 1; i <= 5; i++) put(`t${i}`, i * 60e3);
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  assert.equal((await keptLogs(page)).length, 7);
  await page.reload();
  await done(page);
  const left = await waitKept(page, (k) => k.length === 4, "pruned to four");
  assert.deepEqual(left.map((k) => k.tab).sort(), [mine.tab, "t1", "t2", "t3"].sort());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

const NO_STORAGE = {
  "no IndexedDB": () => {
    Object.defineProperty(window, "indexedDB", {
      get() {
        throw new DOMException("The user denied permission to access the database.", "SecurityError");
      },
    });
  },
  "a full disk": () => {
    IDBObjectStore.prototype.put = function () {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
  },
};

for (const [what, init] of Object.entries(NO_STORAGE)) {
  test(`with ${what} a log still opens, is just not kept, and says so in a warning`, async () => {
    const page = await openPage(env.browser, env.server.url, { init });
    await openLog(page, FIXTURE);
    assert.ok((await rowFacts(page)).length > 10, "rows shown");
    for (let i = 0; i < 50 && !ours(page.warnings).length; i++) await page.waitForTimeout(20);
    assert.ok(ours(page.warnings).some((w) => /not kept for a reload/.test(w)), `a warning: ${page.warnings}`);
    assert.deepEqual(page.errors, [], "no console errors");
    await page.reload();
    await staysEmpty(page);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
