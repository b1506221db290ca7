// The start page as the fleet's index (issue 22): real logs of three agents posted as
// sessions show in the sessions' table with their agent, status and errors; the agent filter
// and the errors sort ask the index again; one search box finds a command across every
// session, and its hit opens that session at the row (`/s/{id}#seq=N`); a session posted
// while the page is open shows in the table through the index's stream, without a reload or
// a poll. Skipped when the binary has no `serve` yet.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, SHOTS, NDJSON, launch, openPage, hivetermBinary, freePort, startServe } from "../lib.mjs";

const BIN = hivetermBinary();
const HAS_SERVE = BIN && spawnSync(BIN, ["serve", "--help"]).status === 0;
const DB = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-e2e-")), "fleet.db");
const LOGS = {
  "e2e-claude": "fixtures/claude-code-2.1.332/tool_errors.stream.jsonl",
  "e2e-codex": "fixtures/codex-0.171.0/codex_shell_command.stream.jsonl",
  "e2e-gemini": "fixtures/gemini-0.61.0/gemini.file_read.stream.jsonl",
};
let browser, server, base;

before(async () => {
  if (!HAS_SERVE) return;
  const port = await freePort();
  server = await startServe(BIN, { port, db: DB });
  base = `http://127.0.0.1:${port}`;
  for (const [id, file] of Object.entries(LOGS)) {
    const r = await fetch(`${base}/api/sessions/${id}/events`, { method: "POST", headers: NDJSON, body: fs.readFileSync(path.join(ROOT, file)) });
    assert.equal(r.status, 200, await r.text());
    await fetch(`${base}/api/sessions/${id}/end`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The table's rows: {id, agent, status, errors} in order. */
const tableRows = (page) =>
  page.$$eval(".sessions tbody tr", (trs) =>
    trs.map((tr) => ({
      id: tr.dataset.session,
      agent: tr.querySelector(".agent").textContent,
      status: tr.querySelector(".status").textContent,
      errors: Number(tr.children[7].textContent),
      errorLink: tr.children[7].querySelector("a")?.getAttribute("href") ?? null,
    })),
  );

test("the start page's table, filters, sort and search across every session", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 90_000 }, async () => {
  const index = await (await fetch(`${base}/api/sessions`)).json();
  const byId = Object.fromEntries(index.sessions.map((s) => [s.id, s]));
  const page = await openPage(browser, `${base}/`);
  await page.waitForFunction(() => document.querySelectorAll(".sessions tbody tr").length === 3);
  // Issue 45.9: no log toolbar (level filters over "0 rows", "open log…") before a log is open.
  assert.equal(await page.isVisible(".toolbar"), false, "the start page has no log toolbar");
  assert.ok(await page.$("#file"), "its file input stays for \"pick a file\"");
  await page.screenshot({ path: path.join(SHOTS, "start-page-no-toolbar.png") });
  const rows = await tableRows(page);
  assert.deepEqual(rows.map((r) => r.id).sort(), Object.keys(LOGS).sort());
  const label = { "claude-code": "Claude Code", codex: "Codex", gemini: "Gemini CLI" };
  for (const r of rows) {
    const s = byId[r.id];
    assert.equal(r.agent, label[s.agent], `${r.id}'s agent`);
    assert.equal(r.status, s.status, `${r.id}'s status`);
    assert.equal(r.errors, s.errors, `${r.id}'s errors`);
    assert.equal(r.errorLink, s.first_error == null || s.errors === 0 ? null : `s/${r.id}#seq=${s.first_error}`);
  }
  assert.ok(byId["e2e-claude"].errors > 0, "the tool_errors log has error rows");
  // Titles are text, linked to the session; the project shows its last component.
  const title = await page.$eval('.sessions tr[data-session="e2e-codex"] td.title a', (a) => [a.textContent, a.getAttribute("href")]);
  assert.deepEqual(title, [byId["e2e-codex"].title, "s/e2e-codex"]);
  if (byId["e2e-codex"].project) {
    const project = await page.$eval('.sessions tr[data-session="e2e-codex"] td.project', (td) => [td.textContent, td.title]);
    assert.deepEqual(project, [byId["e2e-codex"].project.split("/").filter(Boolean).pop(), byId["e2e-codex"].project]);
  }
  const cost = await page.$eval('.sessions tr[data-session="e2e-codex"] td.cost', (td) => td.textContent);
  // Issue 50: a Codex log states no cost; the price table's estimate is marked as one.
  const codex = byId["e2e-codex"];
  const usd = codex.cost == null ? null : (codex.cost < 1 ? `$${codex.cost.toFixed(4)}` : `$${codex.cost.toFixed(2)}`);
  assert.equal(cost, usd == null ? "unknown" : codex.cost_source === "estimated" ? `≈ ${usd} est.` : usd);

  // Filter by agent: only the codex session; back to all.
  await page.selectOption(".filter-agent", "codex");
  await page.waitForFunction(() => [...document.querySelectorAll(".sessions tbody tr")].map((t) => t.dataset.session).join() === "e2e-codex");
  await page.selectOption(".filter-agent", "");
  await page.waitForFunction(() => document.querySelectorAll(".sessions tbody tr").length === 3);
  // Sort by errors: most first.
  await page.selectOption(".filter-sort", "errors");
  const want = Object.values(byId).sort((a, b) => b.errors - a.errors).map((s) => s.errors);
  await page.waitForFunction((w) => [...document.querySelectorAll(".sessions tbody tr")].map((t) => Number(t.children[7].textContent)).join() === w, want.join());
  assert.equal((await tableRows(page))[0].id, "e2e-claude");
  // A while later (the stream open, the index read again when it opened): still sorted by
  // errors.
  await page.waitForTimeout(1_500);
  assert.equal(await page.$eval(".filter-sort", (s) => s.value), "errors");
  assert.equal((await tableRows(page))[0].id, "e2e-claude");

  // A query too short for the server shows nothing; a command of the codex log is found.
  await page.fill(".fleet-query", "wc");
  await page.waitForTimeout(400);
  assert.equal(await page.$$eval(".fleet-hits .hit", (h) => h.length), 0);
  await page.fill(".fleet-query", "wc -l src/");
  const hit = await page.waitForSelector('.fleet-hits a.hit[href="s/e2e-codex#seq=4"]');
  assert.match(await hit.textContent(), /Bash \$ ls -la src && wc -l src\/\*\.rs/);
  assert.match(await page.$eval(".fleet-count", (p) => p.textContent), /^\d+ hits?/);
  await page.waitForFunction((t) => document.querySelector(".fleet-hits .hit-session")?.textContent === t, byId["e2e-codex"].title);
  await page.screenshot({ path: path.join(SHOTS, "fleet-start-page.png") });
  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: path.join(SHOTS, "fleet-start-page-light.png") });
  await page.emulateMedia({ colorScheme: "dark" });

  await hit.click();
  await page.waitForURL(`${base}/s/e2e-codex#seq=4`);
  // One seq (not a range) makes that row the current one (a range would be .selected).
  await page.waitForSelector('.live .row.current[data-seq="4"]', { timeout: 15_000 });
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.remoteRequests, []);
  await page.context().close();
});

test("a session posted while the start page is open shows in its table, live, without polling", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  // The page's reads of the index and its stream, from its first request on.
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const reads = [];
  const streams = [];
  context.on("request", (r) => {
    const p = new URL(r.url()).pathname;
    if (p === "/api/sessions") reads.push(Date.now());
    if (p === "/api/index/stream") streams.push(r.url());
  });
  const opened = new Promise((resolve) =>
    context.on("response", (r) => {
      if (new URL(r.url()).pathname === "/api/index/stream") resolve(r.status());
    }),
  );
  const page = await openPage(browser, `${base}/`, { context });
  await page.waitForFunction(() => document.querySelectorAll(".sessions tbody tr").length >= 3);
  assert.equal(await opened, 200);
  await page.evaluate(() => {
    window.notReloaded = true;
  });
  // The read when the stream opened has gone; from here on, no read of the index.
  await page.waitForTimeout(500);
  const quietFrom = Date.now();
  const r = await fetch(`${base}/api/sessions/e2e-live/events?title=Live%20one`, { method: "POST", headers: NDJSON, body: '{"kind":"note","text":"hello"}\n' });
  assert.equal(r.status, 200, await r.text());
  await page.waitForSelector('.sessions tr[data-session="e2e-live"]', { timeout: 2_000 });
  const rows = await tableRows(page);
  assert.equal(rows[0].id, "e2e-live", "the newest on top");
  assert.equal(rows[0].status, "live");
  assert.equal(await page.$eval('.sessions tr[data-session="e2e-live"] td.title a', (a) => a.textContent), "Live one");
  // Ended: its row changes in place.
  await fetch(`${base}/api/sessions/e2e-live/end`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  await page.waitForFunction(() => document.querySelector('.sessions tr[data-session="e2e-live"] .status')?.textContent === "ok", null, { timeout: 2_000 });
  assert.equal((await tableRows(page))[0].id, "e2e-live");
  // Past the old 5 s poll: the stream alone kept the table current.
  await page.waitForTimeout(Math.max(0, quietFrom + 5_500 - Date.now()));
  assert.deepEqual(reads.filter((t) => t >= quietFrom), [], "no read of the index while the stream is open");
  assert.equal(streams.length, 1, "one stream for the whole index");
  assert.equal(await page.evaluate(() => window.notReloaded), true, "no reload");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a query the server refuses shows its message", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 30_000 }, async () => {
  const page = await openPage(browser, `${base}/`);
  await page.waitForSelector(".fleet-query");
  await page.fill(".fleet-query", "x".repeat(300));
  await page.waitForSelector(".fleet .fleet-error");
  assert.match(await page.$eval(".fleet .fleet-error", (p) => p.textContent), /256 bytes/);
  await page.context().close();
});

// Regression: every read of the index set `served` again, which drew the fleet's section anew —
// the search box with it — so a query being typed was lost, and its pending ask read a
// disposed signal and the page panicked (the test above failed now and then).
test("the index read again keeps the search box and what is typed in it", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 30_000 }, async () => {
  const page = await openPage(browser, `${base}/`);
  await page.waitForSelector(".fleet-query");
  await page.waitForFunction(() => document.querySelectorAll(".sessions tbody tr").length >= 3);
  await page.fill(".fleet-query", "wc -l");
  const box = await page.$(".fleet-query");
  // A filter changed and changed back: the index is read twice more.
  await page.selectOption(".filter-agent", "codex");
  await page.waitForFunction(() => [...document.querySelectorAll(".sessions tbody tr")].every((t) => t.dataset.session === "e2e-codex"));
  await page.selectOption(".filter-agent", "");
  await page.waitForFunction(() => document.querySelectorAll(".sessions tbody tr").length >= 3);
  await page.waitForTimeout(400);
  assert.equal(await box.evaluate((i) => i.isConnected), true, "the same search box");
  assert.equal(await page.$eval(".fleet-query", (i) => i.value), "wc -l");
  await page.waitForSelector(".fleet-hits .hit");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
