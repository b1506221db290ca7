// The compare page (issue 48): two stored sessions (a Gemini CLI run whose command failed
// and one whose command passed) at /compare/A/B: the summary table first, the two runs'
// steps aligned in two columns, the first divergence selected on open, `n` the next and `N`
// back; each step links to its row in its session (`/s/<id>#<seq>`); from the index, two
// sessions ticked lead to their compare page, and a session page's "compare with…" opens the
// index with that session ticked. Skipped when the binary has no `serve`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ROOT, SHOTS, NDJSON, launch, hivetermBinary, freePort, startServe } from "../lib.mjs";

const BIN = hivetermBinary();
const HAS_SERVE = BIN && spawnSync(BIN, ["serve", "--help"]).status === 0;
const DB = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-e2e-")), "compare.db");
const LOGS = {
  failing: "fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl",
  passing: "fixtures/gemini-0.61.0/gemini.shell_command.stream.jsonl",
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
  }
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(url) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && page.errors.push(m.text()));
  await page.goto(url);
  return page;
}

const selected = (page) => page.$eval(".cmp-pair.selected", (el) => el.id);

test("issue 48: /compare/A/B shows the summary, the aligned steps, the first divergence selected, n/N", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 90_000 }, async () => {
  const api = await (await fetch(`${base}/api/compare/failing/passing`)).json();
  assert.ok(api.divergence_list.length >= 2, "the fixtures diverge more than once");
  const page = await open(`${base}/compare/failing/passing`);
  await page.waitForSelector(".cmp-pair.selected", { timeout: 30_000 });
  // The summary table first, each figure with its difference.
  const summary = await page.$$eval(".cmp-summary tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const line = (label) => summary.find((l) => l[0] === label);
  assert.deepEqual(line("tool calls").slice(1), [String(api.differences.tool_calls.a), String(api.differences.tool_calls.b), `−${api.differences.tool_calls.a - api.differences.tool_calls.b}`]);
  assert.ok(line("files changed") && line("tokens") && line("cost") && line("duration") && line("models"));
  // Every aligned pair, a gap where only one run took a step.
  assert.equal(await page.$$eval(".cmp-pair", (p) => p.length), api.pairs.length);
  assert.ok((await page.$$eval(".cmp-side.gap", (g) => g.length)) > 0, "a step only one run took faces a gap");
  // The first divergence selected on open.
  const first = api.divergence_list[0];
  assert.equal(await selected(page), `pair-${first.pair}`);
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), new RegExp(`^divergence 1 of ${api.divergence_list.length}$`));
  // Its steps link to their rows in their sessions.
  const links = await page.$eval(".cmp-pair.selected", (el) => [...el.querySelectorAll("a.cmp-seq")].map((a) => a.getAttribute("href")));
  const p = api.pairs[first.pair];
  const want = [p.a && `/s/failing#${p.a.seq}`, p.b && `/s/passing#${p.b.seq}`].filter(Boolean);
  assert.deepEqual(links, want);
  await page.screenshot({ path: path.join(SHOTS, "compare-first-divergence.png") });
  // n: the next divergence; N: back.
  await page.keyboard.press("n");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id === id, `pair-${api.divergence_list[1].pair}`);
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), /^divergence 2 of /);
  await page.screenshot({ path: path.join(SHOTS, "compare-next-divergence.png") });
  await page.keyboard.press("N");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id === id, `pair-${first.pair}`);
  // A step's link opens its session at its row.
  const href = links[0];
  await page.click(`.cmp-pair.selected a.cmp-seq[href="${href}"]`);
  await page.waitForURL(`${base}${href}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("issue 48: two sessions ticked in the index lead to their compare page", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  const page = await open(`${base}/`);
  await page.waitForFunction(() => document.querySelectorAll(".sessions tbody tr").length === 2);
  await page.check('.sessions tr[data-session="failing"] .compare-box');
  await page.check('.sessions tr[data-session="passing"] .compare-box');
  const link = await page.waitForSelector("a.compare-link");
  assert.equal(await link.getAttribute("href"), "/compare/failing/passing");
  await page.screenshot({ path: path.join(SHOTS, "compare-picked-in-index.png") });
  await link.click();
  await page.waitForURL(`${base}/compare/failing/passing`);
  await page.waitForSelector(".cmp-pair.selected", { timeout: 30_000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("issue 48: a session page's \"compare with…\" opens the index with it picked", { skip: !HAS_SERVE && "hiveterm serve not built", timeout: 60_000 }, async () => {
  const page = await open(`${base}/s/failing`);
  const link = await page.waitForSelector("a.compare-with");
  assert.equal(await link.getAttribute("href"), "/?compare=failing");
  await link.click();
  await page.waitForFunction(() => document.querySelectorAll(".sessions tbody tr").length === 2);
  assert.equal(await page.isChecked('.sessions tr[data-session="failing"] .compare-box'), true);
  assert.equal(await page.isChecked('.sessions tr[data-session="passing"] .compare-box'), false);
  await page.check('.sessions tr[data-session="passing"] .compare-box');
  const go = await page.waitForSelector("a.compare-link");
  assert.equal(await go.getAttribute("href"), "/compare/failing/passing");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
