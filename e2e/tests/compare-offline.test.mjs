// Two logs compared offline (issue 48): on the page with no server but a static one (and on
// `hiveterm serve`'s alike), two logs dropped on the start page's "compare two runs" box, or
// picked with its file picker, are read and aligned in the compare worker; the page shows the
// summary table first, then the aligned steps, the first divergence selected, `n`/`N` — the
// same figures and first divergence as `hiveterm diff A B --json` for the same two files.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { ROOT, SHOTS, openPage, staticPageHooks, hivetermBinary, freePort, startServe } from "../lib.mjs";

const env = staticPageHooks();
const BIN = hivetermBinary();
const HAS_SERVE = BIN && spawnSync(BIN, ["serve", "--help"]).status === 0;
const FAILING = path.join(ROOT, "fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl");
const PASSING = path.join(ROOT, "fixtures/gemini-0.61.0/gemini.shell_command.stream.jsonl");
const CODEX_FAILING = path.join(ROOT, "fixtures/codex-0.171.0/codex_failing_command.stream.jsonl");
const CODEX_PASSING = path.join(ROOT, "fixtures/codex-0.171.0/codex_shell_command.stream.jsonl");

/** `hiveterm diff A B --json`. */
const diffJson = (a, b) => JSON.parse(execFileSync(BIN, ["diff", a, b, "--json"]).toString());

/** Drops files on the start page's "compare two runs" box the way a browser does. */
async function dropToCompare(page, files) {
  const named = files.map((f) => [path.basename(f), fs.readFileSync(f, "utf8")]);
  await page.waitForSelector("[data-compare-drop]");
  await page.evaluate((named) => {
    const dt = new DataTransfer();
    for (const [name, text] of named) dt.items.add(new File([text], name, { type: "application/x-ndjson" }));
    const box = document.querySelector("[data-compare-drop]");
    box.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
    box.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, named);
}

const selected = (page) => page.$eval(".cmp-pair.selected", (el) => el.id);

/** The page's comparison of `a` and `b` checked against `hiveterm diff a b --json`. */
async function checkAgainstDiff(page, a, b) {
  await page.waitForSelector(".cmp-pair.selected", { timeout: 60_000 });
  const want = diffJson(a, b);
  assert.equal(await page.$eval(".cmp-title", (e) => e.textContent), `${path.basename(a)} ↔ ${path.basename(b)}`);
  // The summary table first, each figure with its difference.
  const summary = await page.$$eval(".cmp-summary tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const line = (label) => summary.find((l) => l[0] === label);
  const d = want.differences;
  const signed = (x) => (x === 0 ? "" : x > 0 ? `+${x}` : `−${-x}`);
  for (const [label, key] of [["turns", "turns"], ["tool calls", "tool_calls"], ["tool errors", "tool_errors"], ["errors", "errors"]]) {
    assert.deepEqual(line(label).slice(1), [String(d[key].a), String(d[key].b), signed(d[key].b - d[key].a)], label);
  }
  const files = d.files_changed;
  assert.deepEqual(line("files changed").slice(1), [`${files.only_a.length} only in A`, `${files.only_b.length} only in B`, `${files.both.length} in both`]);
  assert.ok(line("tokens") && line("cost") && line("duration") && line("models"));
  assert.deepEqual([d.turns.a, d.turns.b], [want.summary.a.turns, want.summary.b.turns]);
  // Every divergence counted; the first one selected on open, with diff's seqs.
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), new RegExp(`^divergence 1 of ${want.divergences}$`));
  const first = want.first_divergence;
  const seqs = await page.$eval(".cmp-pair.selected", (el) => [...el.querySelectorAll(".cmp-side")].map((s) => s.querySelector(".cmp-seq")?.textContent ?? null));
  const why = await page.$eval(".cmp-pair.selected .cmp-why", (e) => e.textContent);
  assert.equal(why, first.why.replace("_", " "));
  // A gap faces a step only one run took; diff names where the gap would go.
  for (const [i, side] of [[0, "a"], [1, "b"]]) {
    if (seqs[i] !== null) assert.equal(seqs[i], `#${first[side]}`, `${side}'s seq`);
  }
  assert.ok(seqs.some((s) => s !== null));
  // Offline, a step's seq is its log's line: not a link.
  assert.equal(await page.$$eval(".cmp-steps a.cmp-seq", (a) => a.length), 0);
  return want;
}

test("issue 48: two logs dropped to compare, offline, equal hiveterm diff --json; n/N", { skip: !BIN && "hiveterm not built", timeout: 120_000 }, async () => {
  const page = await openPage(env.browser, env.server.url);
  await page.waitForSelector("[data-compare-drop]");
  await page.screenshot({ path: path.join(SHOTS, "compare-offline-start.png") });
  await dropToCompare(page, [PASSING, FAILING]);
  // A is the first by name: failing.
  const want = await checkAgainstDiff(page, FAILING, PASSING);
  assert.ok(want.divergences >= 2, "the fixtures diverge more than once");
  // The page's drop zone did not open them as a session.
  assert.equal(await page.$$eval(".live .row", (r) => r.length), 0);
  await page.screenshot({ path: path.join(SHOTS, "compare-offline-first-divergence.png") });
  const first = await selected(page);
  await page.keyboard.press("n");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id !== id, first);
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), /^divergence 2 of /);
  await page.screenshot({ path: path.join(SHOTS, "compare-offline-next-divergence.png") });
  await page.keyboard.press("N");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id === id, first);
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), /^divergence 1 of /);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.remoteRequests, []);
  await page.context().close();
});

test("issue 48: two logs picked to compare with the file picker; one is not enough", { skip: !BIN && "hiveterm not built", timeout: 120_000 }, async () => {
  const page = await openPage(env.browser, env.server.url);
  await page.waitForSelector("#compare-files", { state: "attached" });
  await page.setInputFiles("#compare-files", [CODEX_FAILING]);
  await page.waitForSelector(".compare-said");
  await page.setInputFiles("#compare-files", [CODEX_PASSING, CODEX_FAILING]);
  await checkAgainstDiff(page, CODEX_FAILING, CODEX_PASSING);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("issue 48: two logs compared offline on hiveterm serve's page alike", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 120_000 }, async () => {
  const port = await freePort();
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-e2e-")), "cmp.db");
  const server = await startServe(BIN, { port, db });
  try {
    const page = await openPage(env.browser, `http://127.0.0.1:${port}/`);
    await dropToCompare(page, [FAILING, CODEX_PASSING]);
    await checkAgainstDiff(page, CODEX_PASSING, FAILING);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.stop();
  }
});
