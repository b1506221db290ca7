// Share links (issue 11) in the browser: /p/<token> opens the page read-only — the summary
// header first, exactly the session's rows up to the snapshot, range links under the same
// path, no session list, no ingest, no share button — reading only the link's own endpoints;
// a snapshot does not grow when the session does while a live share follows it; a revoked
// link says so (at load, and on a page already open); a hostile log shared runs nothing and
// no request leaves the server's origin. And the share button of a live session: options,
// the redactions for review before the link, the link. Skipped without a built `hiveterm`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SHOTS, launch, openPage, hivetermBinary, markdownRendered, rowFacts, NDJSON, freePort, startServe, hostileLog, summaryStrings, summaryFigures } from "../lib.mjs";

const BIN = hivetermBinary();
const skip = !BIN && "hiveterm not built";
let browser, serve, base;

before(async () => {
  if (!BIN) return;
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-share-")), "share.db");
  serve = await startServe(BIN, { port: await freePort(), db });
  base = `http://127.0.0.1:${serve.port}`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await serve?.stop();
});

/** Posts JSON lines (objects, or strings sent as they are) to session `id`. */
async function post(id, events) {
  const body = events.map((e) => (typeof e === "string" ? e : JSON.stringify(e))).join("\n") + "\n";
  const r = await fetch(`${base}/api/sessions/${id}/events?title=${encodeURIComponent(`session ${id}`)}`, { method: "POST", headers: NDJSON, body });
  assert.equal(r.status, 200, await r.text());
}
let ts = 1764468000;
const notes = (from, n) => Array.from({ length: n }, (_, i) => ({ kind: "note", ts: ts++, text: `stdout: line ${from + i}` }));

/** Makes a share of session `id` over the API; answers its JSON (`url`, `id`, …). */
async function share(id, options = {}) {
  const r = await fetch(`${base}/api/sessions/${id}/shares`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(options) });
  const answer = await r.json();
  assert.equal(r.status, 201, JSON.stringify(answer));
  assert.match(answer.url, /^\/p\/[A-Za-z0-9_-]{43}$/);
  return answer;
}

/** The session's envelopes up to `upto` as the page's (seq, summary) facts, oldest first. */
async function sessionRows(id, upto) {
  const h = await (await fetch(`${base}/api/sessions/${id}/events/history?limit=1000`)).json();
  return h.envelopes
    .filter((e) => e.seq <= upto)
    .reverse()
    .flatMap((e) => e.msgs.map((m) => ({ seq: String(e.seq), summary: m.summary })));
}
const pageRows = async (page) => (await rowFacts(page)).map((r) => ({ seq: r.seq, summary: r.summary }));

test("a snapshot share: summary first, exactly the rows up to the snapshot, read-only, range links under /p/", { skip, timeout: 90_000 }, async () => {
  await post("sh-snap", [{ kind: "turn_start", ts: ts++, from: "operator", body: "deploy" }, ...notes(1, 20), { kind: "note", ts: ts++, text: "stderr: error: the deploy failed" }, { kind: "turn_end", ts: ts++, ok: false, note: "failed" }]);
  const made = await share("sh-snap", { title: "Deploy outage, 1 Dec" });
  assert.equal(made.snapshot_seq, 23);
  // The session goes on after the share was made.
  await post("sh-snap", notes(100, 5));
  const link = `${base}${made.url}`;
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const asked = [];
  context.on("request", (r) => asked.push(r.url()));
  let page = await openPage(browser, link, { context });
  await page.waitForSelector('.live .row[data-seq="23"]');
  await page.waitForFunction(() => /shared snapshot/.test(document.querySelector(".conn")?.textContent ?? ""));
  // The summary header first, open, with the snapshot's figures.
  // The header fills in when the summary read answers, which may be after the first rows.
  assert.ok(await page.waitForSelector(".summary-header[open]:not([hidden])", { timeout: 10_000 }).catch(() => null), "the summary header is open");
  const order = await page.evaluate(() => {
    const all = [...document.querySelectorAll(".summary-header, .scroller")];
    return all.map((e) => (e.classList.contains("scroller") ? "scroller" : "summary-header"));
  });
  assert.deepEqual(order, ["summary-header", "scroller"], "the header comes before the rows");
  const s = await (await fetch(`${base}${made.url}/api/summary`)).json();
  const want = summaryStrings(s);
  const got = await summaryFigures(page);
  assert.deepEqual(Object.fromEntries(Object.keys(want).map((k) => [k, got[k]])), want);
  assert.equal(await page.$eval(".banner .title", (e) => e.textContent), "Deploy outage, 1 Dec");
  // Exactly the session's rows up to the snapshot, none of the later ones.
  assert.deepEqual(await pageRows(page), await sessionRows("sh-snap", 23));
  assert.equal(await page.$('.live .row[data-seq="24"]'), null);
  // Read-only: no session list, no ingest, no share button.
  for (const sel of [".sessions", "#file", ".open-file", ".share-open", ".empty"]) {
    assert.equal(await page.$(sel), null, `no ${sel}`);
  }
  // A dropped log is not opened.
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{"kind":"note","text":"stdout: dropped"}\n'], "x.jsonl"));
    document.querySelector("[data-dropzone]").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
  await page.waitForTimeout(300);
  assert.equal(await page.$(".progress"), null, "no offline log opened");
  assert.deepEqual(await pageRows(page), await sessionRows("sh-snap", 23));
  // Only the link's reads: nothing under /api/, no stream for a snapshot.
  const paths = asked.map((u) => new URL(u)).filter((u) => u.origin === base).map((u) => u.pathname);
  assert.ok(paths.every((p) => p.startsWith("/p/")), `only /p/ requests: ${paths}`);
  assert.ok(paths.some((p) => p === `${made.url}/api/share`), `asked what the link is: ${paths}`);
  assert.ok(!paths.some((p) => p.endsWith("/events/stream")), "a snapshot has no stream");
  assert.deepEqual(page.failed, []);
  assert.deepEqual(page.errors, []);
  await page.screenshot({ path: path.join(SHOTS, "share-snapshot-dark.png") });

  await page.context().close();

  // A range link, opened: its rows selected, the /p/<token> path kept.
  page = await openPage(browser, `${link}#seq=5-9`);
  await page.waitForSelector('.live .row.current[data-seq="5"]');
  const sel = await page.$$eval(".live .row.selected", (rs) => rs.map((r) => Number(r.dataset.seq)));
  assert.deepEqual(sel, [5, 6, 7, 8, 9]);
  assert.equal(await page.evaluate(() => location.pathname), made.url);
  // Keys and row links stay under the link.
  await page.keyboard.press("j");
  await page.waitForFunction(() => location.hash === "#6");
  assert.equal(await page.evaluate(() => location.pathname), made.url);
  await page.fill(".search", "line 1");
  await page.waitForFunction(() => /^\d+ of \d+ rows$/.test(document.querySelector(".shown").textContent));
  await page.context().close();

  // The light theme.
  const light = await openPage(browser, link, { colorScheme: "light" });
  await light.waitForSelector('.live .row[data-seq="23"]');
  await light.screenshot({ path: path.join(SHOTS, "share-snapshot-light.png") });
  await light.context().close();
});

test("a snapshot does not grow when the session does; a live share does", { skip, timeout: 90_000 }, async () => {
  await post("sh-grow", notes(1, 10));
  const snap = await share("sh-grow");
  const live = await share("sh-grow", { live: true, expires: "24h" });
  assert.equal(live.snapshot_seq, null);
  const a = await openPage(browser, `${base}${snap.url}`);
  const b = await openPage(browser, `${base}${live.url}`);
  for (const p of [a, b]) await p.waitForSelector('.live .row[data-seq="10"]');
  await b.waitForFunction(() => /● connected · shared live/.test(document.querySelector(".conn")?.textContent ?? ""));
  await post("sh-grow", notes(11, 3));
  await b.waitForSelector('.live .row[data-seq="13"]', { timeout: 15_000 });
  await a.waitForTimeout(1000);
  assert.equal(await a.$('.live .row[data-seq="11"]'), null, "the snapshot did not grow");
  await a.reload();
  await a.waitForSelector('.live .row[data-seq="10"]');
  await a.waitForTimeout(300);
  assert.equal(await a.$('.live .row[data-seq="11"]'), null, "nor after a reload");
  assert.deepEqual(await pageRows(b), await sessionRows("sh-grow", 13));
  await b.screenshot({ path: path.join(SHOTS, "share-live.png") });
  for (const p of [a, b]) {
    assert.deepEqual(p.errors, []);
    await p.context().close();
  }
});

test("a revoked link says so: at load, and on a page already open", { skip, timeout: 90_000 }, async () => {
  await post("sh-dead", notes(1, 5));
  const snap = await share("sh-dead");
  const live = await share("sh-dead", { live: true });
  const open = await openPage(browser, `${base}${live.url}`);
  await open.waitForSelector('.live .row[data-seq="5"]');
  await open.waitForFunction(() => /connected/.test(document.querySelector(".conn")?.textContent ?? ""));
  for (const s of [snap, live]) {
    const r = await fetch(`${base}/api/shares/${s.id}`, { method: "DELETE", headers: { "x-hiveterm": "1" } });
    assert.equal(r.status, 200);
  }
  // The open live page: its stream ends, the link is found dead, the rows go.
  await open.waitForSelector(".dead-link", { timeout: 20_000 });
  assert.match(await open.$eval(".dead-link", (e) => e.textContent), /expired or was revoked/);
  assert.equal(await open.$(".live .row"), null, "the rows it showed are gone");
  assert.equal(await open.$eval(".banner .title", (e) => e.textContent), "hiveterm", "and their title");
  await open.screenshot({ path: path.join(SHOTS, "share-revoked-open.png") });
  await open.context().close();
  // Opened again: the server's answer says so (410), naming no session.
  const r = await fetch(`${base}${snap.url}`);
  assert.equal(r.status, 410);
  const text = await r.text();
  assert.match(text, /revoked/);
  assert.ok(!text.includes("sh-dead"), "the answer names no session");
  const page = await browser.newPage();
  const res = await page.goto(`${base}${snap.url}`);
  assert.equal(res.status(), 410);
  assert.match(await page.textContent("body"), /this share link was revoked/);
  // An unknown link: 404, said as plainly.
  const unknown = await page.goto(`${base}/p/${"A".repeat(43)}`);
  assert.equal(unknown.status(), 404);
  assert.match(await page.textContent("body"), /no such share link/);
  await page.close();
});

test("a hostile log shared runs nothing and no request leaves the server's origin", { skip, timeout: 90_000 }, async () => {
  await post("sh-hostile", hostileLog().split("\n").filter(Boolean));
  const made = await share("sh-hostile", { redact: true });
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const left = [];
  // Every request is intercepted: one for another origin is recorded and refused.
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u.startsWith(`${base}/`) || u.startsWith("data:") || u.startsWith("blob:")) return route.continue();
    left.push(u);
    return route.abort();
  });
  const page = await openPage(browser, `${base}${made.url}`, { context });
  await page.waitForSelector(".live .row");
  await page.keyboard.press("e");
  await markdownRendered(page);
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "no injected script ran");
  assert.deepEqual(left, [], "no request left the server's origin");
  assert.deepEqual(page.remoteRequests, []);
  const active = await page.$$eval(".live script, .live iframe, .live object, .live style, .live link, .live svg", (e) => e.length);
  assert.equal(active, 0, "no active elements from the log");
  const handlers = await page.$$eval("body *", (els) => els.filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length);
  assert.equal(handlers, 0, "no event-handler attributes");
  const links = await page.$$eval(".live a:not(.row-link)", (as) => as.map((a) => a.getAttribute("href")));
  assert.ok(links.every((h) => !/^\s*javascript:/i.test(h ?? "")), `links: ${links}`);
  const imgs = await page.$$eval("img", (is) => is.map((i) => i.src).filter((s) => s && !s.startsWith("data:") && new URL(s).origin !== location.origin));
  assert.deepEqual(imgs, [], "no remote image in the page");
  assert.ok(!(await page.$eval(".live", (e) => e.textContent)).includes("\u001b"), "no raw escape sequences");
  await page.screenshot({ path: path.join(SHOTS, "share-hostile.png") });
  await context.close();
});

test("the share button of a live session: options, redactions reviewed before the link, the link", { skip, timeout: 90_000 }, async () => {
  const key = `sk-ant-api03-${"A1b2C3d4E5".repeat(9)}AA`;
  await post("sh-button", [{ kind: "note", ts: ts++, text: `stdout: export ANTHROPIC_API_KEY=${key}` }, ...notes(1, 3)]);
  const page = await openPage(browser, `${base}/s/sh-button`);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.waitForSelector('.live .row[data-seq="4"]');
  await page.click(".share-open");
  await page.fill(".share-title", "button share");
  await page.selectOption(".share-expires", "24h");
  await page.check(".share-redact");
  assert.match(await page.$eval(".share-note", (e) => e.textContent), /best effort/);
  await page.screenshot({ path: path.join(SHOTS, "share-button-options.png") });
  await page.click(".share-make");
  // The redactions first; no link yet.
  await page.waitForSelector(".share-review");
  assert.equal(await page.$(".share-url"), null, "no link before the review");
  assert.match(await page.$eval(".share-headline", (e) => e.textContent), /^\d+ secrets? redacted in 1 event/);
  assert.match(await page.$eval(".share-redactions", (e) => e.textContent), /event 1/);
  assert.ok(!(await page.$eval(".share-review", (e) => e.textContent)).includes(key), "the secret is not shown");
  await page.screenshot({ path: path.join(SHOTS, "share-button-review.png") });
  await page.click(".share-accept");
  const url = await page.$eval(".share-url", (e) => e.value);
  assert.match(url, new RegExp(`^${base}/p/[A-Za-z0-9_-]{43}$`));
  await page.click(".share-copy");
  await page.waitForFunction((want) => navigator.clipboard.readText().then((t) => t === want), url);
  const listed = (await (await fetch(`${base}/api/shares`)).json()).shares.find((s) => s.title === "button share");
  assert.ok(listed && listed.redact && listed.status === "active" && !listed.live, JSON.stringify(listed));
  assert.ok(listed.expires_at - listed.created_at > 86_000 && listed.expires_at - listed.created_at < 87_000, "24 hours");
  await page.screenshot({ path: path.join(SHOTS, "share-button-link.png") });
  // The link shows the rows, the key redacted.
  const shared = await openPage(browser, url);
  await shared.waitForSelector('.live .row[data-seq="4"]');
  const text = await shared.$eval(".live", (e) => e.textContent);
  assert.ok(!text.includes(key) && text.includes("[REDACTED:"), text);
  await shared.context().close();
  // Cancelling a review revokes the share it made.
  await page.click(".share-cancel");
  await page.click(".share-open");
  await page.check(".share-redact");
  await page.click(".share-make");
  await page.waitForSelector(".share-review");
  await page.click(".share-review .share-cancel");
  await page.waitForFunction(() => !document.querySelector(".share-dialog"));
  const all = (await (await fetch(`${base}/api/shares`)).json()).shares.filter((s) => s.session === "sh-button");
  assert.deepEqual(all.map((s) => s.status).sort(), ["active", "revoked"]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
