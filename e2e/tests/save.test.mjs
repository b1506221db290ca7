// "save as one file" (issue 11): the page makes the one-file export in the browser — of an
// offline log (dropped on a static host: no server at all) and of a live session (its raw
// events) — shows a redacted file's redactions for review (line, kind, masked preview, "best
// effort") before handing it over, and the file it hands over is, byte for byte, the one
// `hiveterm export` (offline) or `hiveterm share SESSION --export` (live) writes with the same
// page; opened from file:// it shows hiveterm classify's rows, without the secret, and offers
// no "save" of its own. Needs hiveterm (release or debug) and dist/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { ROOT, DIST, SHOTS, NDJSON, launch, openPage, hivetermBinary, classifiedRows, rowFacts, serveStatic, dropLog, freePort, startServe } from "../lib.mjs";

const BIN = hivetermBinary();
const skip = !BIN && "hiveterm not built";
const SECRET = "sk-ant-api03-" + "Q".repeat(93) + "AA";
const FIXTURE = "fixtures/claude-code-2.1.332/file_tools.stream.jsonl";

let browser, dir;
before(async () => {
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-save-"));
});
after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A real log with a fake secret on line `at` (a note the agent's harness printed). */
function secretLog(at = 3) {
  const lines = fs.readFileSync(path.join(ROOT, FIXTURE), "utf8").split("\n").filter(Boolean);
  const note = JSON.stringify({ kind: "note", ts: 1764468000, text: `stderr: export ANTHROPIC_API_KEY=${SECRET} then go` });
  lines.splice(at - 1, 0, note);
  return lines.join("\n") + "\n";
}

/** Saves the page's log or session as one file through the dialog (title, redact as given);
 * answers the saved file's path and the review's text. */
async function saveAsOneFile(page, { title = "", redact = true } = {}) {
  await page.click(".save-open");
  await page.waitForSelector(".save-dialog");
  if (title) await page.fill(".save-title", title);
  if (!redact) await page.uncheck(".save-redact");
  assert.match(await page.$eval(".save-dialog .share-note", (e) => e.textContent), redact ? /best effort/ : /Not redacted/);
  await page.click(".save-make");
  await page.waitForSelector(".save-ready", { timeout: 60_000 });
  const review = await page.$eval(".save-ready", (e) => e.textContent);
  const items = await page.$$eval(".save-ready .share-redactions li", (lis) =>
    lis.map((li) => ({
      seq: li.querySelector(".share-seq").textContent,
      kind: li.querySelector(".share-kind").textContent,
      preview: li.querySelector(".share-preview").textContent,
    })),
  );
  await page.screenshot({ path: path.join(SHOTS, `save-review-${redact ? "redacted" : "plain"}.png`) });
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(".save-accept")]);
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  await page.waitForSelector(".save-ready", { state: "detached" });
  return { file, name: download.suggestedFilename(), review, items };
}

/** Opens a saved file from disk; waits until its rows are all read. */
async function openSaved(file) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  page.requests = [];
  page.errors = [];
  page.on("request", (r) => page.requests.push(r.url()));
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
  const other = page.requests.filter((u) => u !== url && !u.startsWith("blob:"));
  assert.deepEqual(other, [], "no request besides the file and its blob: workers");
  return page;
}

/** The saved file shows `want` (hiveterm classify's rows of the log), the secret's line
 * redacted, and no save button of its own. */
async function assertSavedRows(file, want, secretSeq) {
  const html = fs.readFileSync(file, "utf8");
  assert.ok(!html.includes(SECRET), "the secret is not in the file");
  assert.ok(!html.includes("QQQQQQQQQQ"), "nor any part of it");
  const page = await openSaved(file);
  assert.equal(await page.$eval(".shown", (e) => e.textContent), `${want.length} rows`);
  const facts = await rowFacts(page);
  assert.ok(facts.length > 0);
  for (const [i, f] of facts.entries()) {
    const w = want[i];
    assert.equal(`${f.seq}/${f.idx}`, `${w.seq}/${w.idx}`, `row ${i}`);
    assert.deepEqual(f.levels, [`level-${w.level}`], `row ${i} level`);
    if (f.seq !== String(secretSeq) && w.summary && f.summary !== null) assert.equal(f.summary, w.summary, `row ${i} summary`);
  }
  await page.keyboard.press("e");
  const text = await page.$eval(".live", (e) => e.textContent);
  assert.ok(!text.includes(SECRET), "the secret is not in the page");
  assert.ok(text.includes("[REDACTED:anthropic_key]"), "its redaction is");
  assert.ok(await page.$eval(".save-open", (b) => b.hidden), "an exported file offers no save");
  assert.deepEqual(page.errors, []);
  await page.screenshot({ path: path.join(SHOTS, `save-opened-${path.basename(file, ".html")}.png`) });
  await page.context().close();
}

test("an offline log saved as one file: reviewed, then the file hiveterm export writes", { skip, timeout: 120_000 }, async () => {
  const statics = await serveStatic();
  try {
    const log = secretLog(3);
    const logPath = path.join(dir, "incident.jsonl");
    fs.writeFileSync(logPath, log);
    const page = await openPage(browser, statics.url);
    assert.ok(await page.$eval(".save-open", (b) => b.hidden), "nothing to save before a log is open");
    await dropLog(page, "incident.jsonl", log);
    const saved = await saveAsOneFile(page);
    assert.equal(saved.name, "incident.html");
    // The review: every redaction, where, what kind, masked; and what redaction is worth.
    assert.match(saved.review, /1 secret redacted in 1 line/);
    assert.match(saved.review, /best effort/);
    assert.deepEqual(saved.items.map((i) => [i.seq, i.kind]), [["line 3", "anthropic_key"]]);
    assert.ok(saved.items[0].preview.startsWith("sk-a") && !saved.items[0].preview.includes("QQQQ"), saved.items[0].preview);
    await page.screenshot({ path: path.join(SHOTS, "save-offline.png") });
    assert.deepEqual(page.errors, []);
    // Only the page's own origin was asked (its files, for the file).
    assert.deepEqual(page.remoteRequests, []);
    await page.context().close();

    const cli = path.join(dir, "incident-cli.html");
    execFileSync(BIN, ["export", logPath, "--redact", "--static", DIST, "-o", cli], { stdio: ["ignore", "ignore", "pipe"] });
    assert.ok(fs.readFileSync(saved.file).equals(fs.readFileSync(cli)), "the page's file is hiveterm export's, byte for byte");

    const redacted = path.join(dir, "incident.redacted.jsonl");
    fs.writeFileSync(redacted, execFileSync(BIN, ["redact", logPath]));
    await assertSavedRows(saved.file, classifiedRows(BIN, redacted), 3);
  } finally {
    await statics.close();
  }
});

test("a saved file with a title and without redaction is hiveterm export's too", { skip, timeout: 90_000 }, async () => {
  const statics = await serveStatic();
  try {
    const page = await openPage(browser, statics.url);
    const text = fs.readFileSync(path.join(ROOT, "fixtures/hyperhive/file_tools.events.jsonl"), "utf8");
    await dropLog(page, "hive.jsonl", text);
    const saved = await saveAsOneFile(page, { title: "Deploy <1 Dec>", redact: false });
    assert.match(saved.review, /Not redacted/);
    await page.context().close();
    const logPath = path.join(dir, "hive.jsonl");
    fs.writeFileSync(logPath, text);
    const cli = path.join(dir, "hive-cli.html");
    execFileSync(BIN, ["export", logPath, "--title", "Deploy <1 Dec>", "--static", DIST, "-o", cli], { stdio: ["ignore", "ignore", "pipe"] });
    assert.ok(fs.readFileSync(saved.file).equals(fs.readFileSync(cli)), "byte for byte");
  } finally {
    await statics.close();
  }
});

test("a live session saved as one file is hiveterm share --export's", { skip, timeout: 120_000 }, async () => {
  const db = path.join(dir, "live.db");
  const port = await freePort();
  let server = await startServe(BIN, { port, db });
  let saved;
  try {
    const r = await fetch(`http://127.0.0.1:${port}/api/sessions/run-7/events?title=run%207`, { method: "POST", headers: NDJSON, body: secretLog(5) });
    assert.equal(r.status, 200, await r.text());
    const page = await openPage(browser, `http://127.0.0.1:${port}/s/run-7`);
    await page.waitForSelector('.live .row[data-seq="5"]');
    saved = await saveAsOneFile(page);
    assert.equal(saved.name, "run-7.html");
    assert.deepEqual(saved.items.map((i) => [i.seq, i.kind]), [["line 5", "anthropic_key"]]);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.failed, []);
    await page.context().close();
  } finally {
    await server.stop();
  }
  const cli = path.join(dir, "run-7-cli.html");
  execFileSync(BIN, ["share", "run-7", "--export", cli, "--redact", "--static", DIST, "--db", db], { stdio: ["ignore", "ignore", "pipe"] });
  assert.ok(fs.readFileSync(saved.file).equals(fs.readFileSync(cli)), "the page's file is hiveterm share --export's, byte for byte");
  const raw = path.join(dir, "run-7.redacted.jsonl");
  fs.writeFileSync(raw, execFileSync(BIN, ["redact", "-"], { input: secretLog(5) }));
  await assertSavedRows(saved.file, classifiedRows(BIN, raw), 5);
});
