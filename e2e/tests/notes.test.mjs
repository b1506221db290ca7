// Notes on a postmortem (issue 23) in the browser: on a live session a range is selected
// (a row's link, shift-click), `a` opens the editor, the note is saved and shows right after
// the last row of its range with its markdown rendered and its `#seq=A-B` link; it survives a
// reload; a note made elsewhere (the API, another reader) shows live; the summary header says
// "N notes" and steps through them. A share link shows the notes (a comment link's reader
// writes one, with a name; a plain link offers no "note…"; a revoked link shows none). Notes
// with hostile text (the XSS corpus) execute and load nothing. `hiveterm share --export`
// carries the notes into the one file, shown read-only from file:// with no request. An
// offline log's notes are kept in the tab across a reload and go into "save as one file".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { SHOTS, NASTY, NDJSON, launch, openPage, hivetermBinary, freePort, startServe, serveStatic, dropLog } from "../lib.mjs";

const BIN = hivetermBinary();
const skip = !BIN && "hiveterm not built";
let browser, serve, base, dir, db;

before(async () => {
  if (!BIN) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-notes-"));
  db = path.join(dir, "notes.db");
  serve = await startServe(BIN, { port: await freePort(), db });
  base = `http://127.0.0.1:${serve.port}`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await serve?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

let ts = 1764468000;
/** Posts `n` one-row events to session `id`. */
async function post(id, n) {
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ kind: "note", ts: ts++, text: `stdout: line ${i + 1}` }));
  const r = await fetch(`${base}/api/sessions/${id}/events`, { method: "POST", headers: NDJSON, body: lines.join("\n") + "\n" });
  assert.equal(r.status, 200, await r.text());
}
const JSONH = { "content-type": "application/json" };
async function api(method, url, body) {
  const r = await fetch(`${base}${url}`, { method, headers: JSONH, body: body && JSON.stringify(body) });
  return { status: r.status, json: await r.json().catch(() => null) };
}
/** The notes shown: each one's range, author and rendered markup, and the row it follows. */
const shownNotes = (page) =>
  page.$$eval(".live .note", (ns) =>
    ns.map((n) => ({
      range: n.querySelector(".note-range").getAttribute("href"),
      author: n.querySelector(".note-author")?.textContent ?? "",
      html: n.querySelector(".md:not(.pending)")?.innerHTML ?? null,
      text: n.querySelector(".md")?.textContent ?? "",
      after: n.closest(".notes").previousElementSibling?.dataset.seq ?? null,
    })),
  );
const notesCount = (page) => page.$eval(".summary-header .notes-count", (e) => e.textContent);

test("select a range, press a, write, save: the note is under its last row, rendered, linked, kept, live, counted", { skip, timeout: 120_000 }, async () => {
  await post("n-live", 40);
  const url = `${base}/s/n-live`;
  const page = await openPage(browser, url);
  await page.waitForSelector('.live .row[data-seq="40"]');
  // Rows 3–6: a row's link, then shift-click.
  await page.evaluate(() => document.querySelector(".scroller").scrollTo(0, 0));
  await page.hover('.live .row[data-seq="3"]');
  await page.click('.live .row[data-seq="3"] .row-link');
  await page.click('.live .row[data-seq="6"] .summary-text', { modifiers: ["Shift"] });
  await page.waitForFunction(() => location.hash === "#seq=3-6");
  await page.keyboard.press("a");
  await page.waitForSelector(".note-editor textarea.note-text");
  assert.match(await page.$eval(".note-editor .share-what", (e) => e.textContent), /rows 3–6/);
  await page.fill(".note-text", "here it **misread** the test output:\n\n- the `cargo test` line\n- the retry");
  await page.fill(".note-author-input", "Ann");
  await page.click(".note-save");
  await page.waitForSelector(".note-editor", { state: "detached" });
  await page.waitForSelector(".live .note .md:not(.pending) li");
  let notes = await shownNotes(page);
  assert.equal(notes.length, 1);
  assert.deepEqual([notes[0].range, notes[0].author, notes[0].after], ["#seq=3-6", "Ann", "6"]);
  assert.match(notes[0].html, /<strong>misread<\/strong>/);
  assert.match(notes[0].html, /<li>the <code>cargo test<\/code> line<\/li>/);
  // Visible without a click, right after row 6.
  assert.ok(await page.isVisible(".live .note .md li"));
  assert.equal(await notesCount(page), "1 note");
  const stored = await api("GET", "/api/sessions/n-live/notes");
  assert.deepEqual(stored.json.notes.map((n) => [n.from, n.to, n.author]), [[3, 6, "Ann"]]);
  await page.screenshot({ path: path.join(SHOTS, "notes-live.png") });

  // A reload keeps it.
  await page.reload();
  await page.waitForSelector(".live .note .md:not(.pending) li");
  assert.equal((await shownNotes(page))[0].after, "6");

  // A note made elsewhere shows live, and the header counts and steps through them.
  const made = await api("POST", "/api/sessions/n-live/notes", { from: 30, to: 31, text: "the budget went *here*", author: "Bo" });
  assert.equal(made.status, 201);
  await page.waitForFunction(() => document.querySelector(".summary-header .notes-count")?.textContent === "2 notes");
  await page.click(".summary-header .notes-next");
  await page.waitForFunction(() => location.hash === "#seq=3-6");
  await page.click(".summary-header .notes-next");
  await page.waitForFunction(() => location.hash === "#seq=30-31");
  await page.waitForSelector('.live .row.selected[data-seq="31"]');
  await page.waitForSelector('.live .note[data-from="30"] .md:not(.pending) em');
  notes = await shownNotes(page);
  assert.deepEqual(notes.map((n) => [n.range, n.after]), [["#seq=3-6", "6"], ["#seq=30-31", "31"]]);
  // Deleted elsewhere: gone live.
  await api("DELETE", `/api/sessions/n-live/notes/${made.json.id}`);
  await page.waitForFunction(() => document.querySelectorAll(".live .note").length === 1);
  assert.equal(await notesCount(page), "1 note");
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // A share link shows them; a comment link's reader writes one, with a name.
  const plain = await api("POST", "/api/sessions/n-live/shares", {});
  const comments = await api("POST", "/api/sessions/n-live/shares", { comments: true });
  assert.equal(comments.json.comments, true);
  const reader = await openPage(browser, `${base}${plain.json.url}#seq=3-6`);
  await reader.waitForSelector(".live .note .md:not(.pending) li");
  assert.equal(await reader.isVisible(".note-open"), false, "a plain link offers no note…");
  assert.equal(await reader.$(".note-delete"), null, "a reader deletes nothing");
  await reader.context().close();
  const commenter = await openPage(browser, `${base}${comments.json.url}`);
  await commenter.waitForSelector(".live .note");
  await commenter.waitForSelector(".note-open:not([hidden])");
  await commenter.evaluate(() => document.querySelector(".scroller").scrollTo(0, 0));
  await commenter.hover('.live .row[data-seq="20"]');
  await commenter.click('.live .row[data-seq="20"] .row-link');
  await commenter.click(".note-open");
  await commenter.waitForSelector(".note-editor");
  await commenter.fill(".note-text", "is this the retry?");
  await commenter.click(".note-save");
  await commenter.waitForSelector(".note-error");
  assert.match(await commenter.$eval(".note-error", (e) => e.textContent), /name/);
  await commenter.fill(".note-author-input", "Cy (reader)");
  await commenter.click(".note-save");
  await commenter.waitForSelector('.live .note[data-from="20"]');
  assert.deepEqual((await shownNotes(commenter)).map((n) => [n.range, n.author]), [["#seq=3-6", "Ann"], ["#seq=20-20", "Cy (reader)"]]);
  // Issue 46.4: a reader's note says so (which link), whatever name it gives; the owner's not.
  assert.match(await commenter.$eval('.live .note[data-from="20"] .note-reader', (e) => e.textContent), new RegExp(`^reader · link ${comments.json.id}\\b`));
  assert.equal(await commenter.$('.live .note[data-from="3"] .note-reader'), null, "the owner's note is not a reader's");
  await commenter.screenshot({ path: path.join(SHOTS, "notes-comment-link.png") });
  await commenter.context().close();

  // A revoked link shows none.
  await api("DELETE", `/api/shares/${plain.json.id}`);
  const dead = await browser.newPage();
  const answer = await dead.goto(`${base}${plain.json.url}`);
  assert.equal(answer.status(), 410);
  assert.match(await dead.textContent("body"), /revoked/);
  assert.equal(await dead.$(".note"), null);
  assert.equal((await fetch(`${base}${plain.json.url}/api/notes`)).status, 410);
  await dead.close();

  // The one file carries them, shown read-only from file:// with no request.
  const file = path.join(dir, "n-live.html");
  execFileSync(BIN, ["share", "n-live", "--export", file, "--db", db], { stdio: ["ignore", "ignore", "pipe"] });
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const exported = await context.newPage();
  const fileUrl = pathToFileURL(file).href;
  const requests = [];
  exported.on("request", (r) => requests.push(r.url()));
  await exported.goto(fileUrl);
  await exported.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
  await exported.waitForSelector(".live .note .md:not(.pending) li");
  const inFile = await shownNotes(exported);
  assert.deepEqual(inFile.map((n) => [n.range, n.after, n.author]), [["#seq=3-6", "6", "Ann"], ["#seq=20-20", "20", "Cy (reader)"]]);
  assert.equal(await exported.$(".note-delete"), null, "read-only");
  assert.deepEqual(await exported.$$eval(".live .note", (ns) => ns.map((n) => !!n.querySelector(".note-reader"))), [false, true], "the export marks the reader's note");
  assert.equal(await exported.isVisible(".note-open"), false, "read-only");
  assert.equal(await notesCount(exported), "2 notes");
  assert.deepEqual(requests.filter((u) => u.split("#")[0] !== fileUrl && !u.startsWith("blob:")), [], "no request");
  await exported.screenshot({ path: path.join(SHOTS, "notes-export.png") });
  await context.close();
});

test("notes with hostile text execute nothing and load nothing", { skip, timeout: 60_000 }, async () => {
  await post("n-hostile", NASTY.length + 1);
  for (const [i, text] of NASTY.entries()) {
    const r = await api("POST", "/api/sessions/n-hostile/notes", { from: i + 1, to: i + 1, text, author: `<img src=x onerror="window.__pwned=20">` });
    assert.equal(r.status, 201, JSON.stringify(r.json));
  }
  const page = await openPage(browser, `${base}/s/n-hostile`);
  await page.waitForFunction((n) => document.querySelectorAll(".live .note").length === n, NASTY.length);
  await page.waitForFunction(() => !document.querySelector(".live .note .md.pending"), null, { timeout: 15_000 });
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "no injected script ran");
  assert.deepEqual(page.remoteRequests, [], "no remote requests");
  assert.equal(await page.$$eval(".live .notes script, .live .notes iframe, .live .notes object, .live .notes style, .live .notes link, .live .notes svg", (e) => e.length), 0);
  const handlers = await page.$$eval(".live .notes *", (els) => els.filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length);
  assert.equal(handlers, 0, "no event-handler attributes");
  const links = await page.$$eval(".live .notes .md a", (as) => as.map((a) => a.getAttribute("href") ?? ""));
  assert.ok(links.every((h) => !/^\s*javascript:/i.test(h)), `links: ${links}`);
  assert.ok(!(await page.$eval(".live", (e) => e.textContent)).includes("\u001b"));
  assert.deepEqual(page.errors.filter((e) => !/Content Security Policy|img-src/.test(e)), []);
  await page.screenshot({ path: path.join(SHOTS, "notes-hostile.png") });
  await page.context().close();
});

test("an offline log's notes are kept in the tab and go into the file saved from it", { skip, timeout: 90_000 }, async () => {
  const server = await serveStatic();
  try {
    const log = Array.from({ length: 12 }, (_, i) => JSON.stringify({ kind: "note", ts: 1764468000 + i, text: `stdout: offline ${i + 1}` })).join("\n") + "\n";
    const page = await openPage(browser, server.url);
    await dropLog(page, "offline.jsonl", log);
    await page.hover('.live .row[data-seq="4"]');
    await page.click('.live .row[data-seq="4"] .row-link');
    await page.keyboard.press("a");
    await page.fill(".note-text", "an *offline* note");
    await page.click(".note-save");
    await page.waitForSelector(".live .note .md:not(.pending) em");
    assert.equal((await shownNotes(page))[0].after, "4");
    await page.reload();
    await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
    await page.waitForSelector(".live .note .md:not(.pending) em");
    assert.deepEqual((await shownNotes(page)).map((n) => [n.range, n.after]), [["#seq=4-4", "4"]]);
    // Saved as one file, the note goes with it.
    await page.click(".save-open");
    await page.waitForSelector(".save-dialog");
    await page.click(".save-make");
    await page.waitForSelector(".save-ready", { timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(".save-accept")]);
    const file = path.join(dir, "offline.html");
    await download.saveAs(file);
    const saved = await browser.newPage();
    await saved.goto(pathToFileURL(file).href);
    await saved.waitForSelector(".live .note .md:not(.pending) em", { timeout: 60_000 });
    assert.equal(await saved.$eval(".summary-header .notes-count", (e) => e.textContent), "1 note");
    await saved.close();
    await page.context().close();
  } finally {
    await server.close?.();
  }
});
