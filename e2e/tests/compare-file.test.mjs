// A comparison as one file (issue 48, `hiveterm diff A B -o FILE.html`): two Gemini CLI runs
// (one whose command failed, one whose command passed) written to a file and opened from
// file:// in headless Chromium: the summary table and the aligned steps of `diff --json`'s
// comparison, the first divergence selected on open, `n`/`N`, no request but the file
// itself; `--redact` takes a secret out of every string; a hostile log's text stays text.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { ROOT, SHOTS, launch, hivetermBinary, hostileLog } from "../lib.mjs";

const BIN = hivetermBinary();
const A = path.join(ROOT, "fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl");
const B = path.join(ROOT, "fixtures/gemini-0.61.0/gemini.shell_command.stream.jsonl");
const skip = !BIN && "hiveterm not built";
let browser, dir;

before(async () => {
  if (!BIN) return;
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-compare-file-"));
});
after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** `hiveterm diff a b -o FILE.html …`; the file and what it said on stderr. */
function diffFile(a, b, args = []) {
  const out = path.join(dir, `cmp-${Math.random().toString(36).slice(2)}.html`);
  const said = execFileSync(BIN, ["diff", a, b, "-o", out, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  assert.equal(said, "", "nothing on standard output");
  return out;
}

async function openFile(file) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  page.fileUrl = pathToFileURL(file).href;
  page.requests = [];
  page.errors = [];
  page.dialogs = [];
  page.on("request", (r) => page.requests.push(r.url()));
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && page.errors.push(m.text()));
  page.on("dialog", (d) => {
    page.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  await page.goto(page.fileUrl);
  await page.waitForSelector(".cmp-summary, .cmp-error", { timeout: 30_000 });
  return page;
}

const noRequests = (page) =>
  assert.deepEqual(page.requests.filter((u) => u.split("#")[0] !== page.fileUrl), [], "no request but the file itself");

test("diff -o: the comparison opens from file:// with no request, first divergence selected, n/N", { skip, timeout: 90_000 }, async () => {
  const json = JSON.parse(execFileSync(BIN, ["diff", A, B, "--json"], { encoding: "utf8" }));
  assert.ok(json.divergences >= 2, "the fixtures diverge more than once");
  const file = diffFile(A, B);
  const page = await openFile(file);
  await page.waitForSelector(".cmp-pair.selected", { timeout: 30_000 });
  assert.equal(await page.title(), `hiveterm · ${path.basename(A)} ↔ ${path.basename(B)}`);
  // The summary table: diff --json's figures.
  const summary = await page.$$eval(".cmp-summary tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const line = (label) => summary.find((l) => l[0] === label);
  const tc = json.differences.tool_calls;
  assert.deepEqual(line("tool calls").slice(1, 3), [String(tc.a), String(tc.b)]);
  assert.deepEqual(line("turns").slice(1, 3), [String(json.differences.turns.a), String(json.differences.turns.b)]);
  // The first divergence selected: diff --json's seqs, as text (no session to link to).
  const sel = await page.$eval(".cmp-pair.selected", (el) => [...el.querySelectorAll(".cmp-side")].map((s) => s.querySelector(".cmp-seq")?.textContent ?? null));
  const fd = json.first_divergence;
  assert.deepEqual(sel.filter(Boolean).map((s) => Number(s.slice(1))), [fd.a, fd.b].filter((x, i) => sel[i] !== null && x !== null));
  assert.equal(await page.$$eval("a.cmp-seq", (a) => a.length), 0, "steps are not links in a file");
  assert.ok((await page.$$eval(".cmp-side.gap", (g) => g.length)) > 0, "a step only one run took faces a gap");
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), new RegExp(`^divergence 1 of ${json.divergences}$`));
  await page.screenshot({ path: path.join(SHOTS, "compare-file.png"), fullPage: true });
  const first = await page.$eval(".cmp-pair.selected", (el) => el.id);
  await page.keyboard.press("n");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id !== id, first);
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), /^divergence 2 of /);
  await page.keyboard.press("N");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id === id, first);
  noRequests(page);
  // The file starts no worker, and only its boot script is left.
  assert.deepEqual(await page.$$eval("script", (s) => s.map((e) => e.type || "classic")), ["module"]);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.dialogs, []);
  await page.context().close();
});

test("diff -o --redact: a secret in a command is in no string of the file", { skip, timeout: 60_000 }, async () => {
  const key = `sk-ant-api03-${"Q".repeat(95)}`;
  const log = (cmd, ok) =>
    [
      { kind: "turn_start", ts: 1, from: "operator", body: "deploy" },
      { type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: cmd } }] } },
      { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: ok ? "done" : "denied", is_error: !ok }] } },
      { kind: "turn_end", ts: 2, ok },
    ].map((l) => JSON.stringify(l)).join("\n") + "\n";
  const a = path.join(dir, "a.jsonl");
  const b = path.join(dir, "b.jsonl");
  fs.writeFileSync(a, log(`curl -H 'x-api-key: ${key}' https://api.example.com`, false));
  fs.writeFileSync(b, log("curl https://api.example.com", true));
  const plain = fs.readFileSync(diffFile(a, b), "utf8");
  const file = diffFile(a, b, ["--redact"]);
  const page = await openFile(file);
  await page.waitForSelector(".cmp-pair.selected", { timeout: 30_000 });
  const text = await page.$eval("main", (m) => m.textContent);
  assert.ok(!text.includes(key), "the key is not shown");
  assert.match(text, /\[REDACTED:/);
  assert.ok(plain.length > 0);
  noRequests(page);
  assert.deepEqual(page.errors, []);
  await page.screenshot({ path: path.join(SHOTS, "compare-file-redacted.png") });
  await page.context().close();
});

test("diff -o of a hostile log: its text stays text, nothing runs or loads", { skip, timeout: 60_000 }, async () => {
  const hostile = path.join(dir, "hostile.jsonl");
  fs.writeFileSync(hostile, hostileLog());
  const page = await openFile(diffFile(hostile, B));
  await page.waitForSelector(".cmp-steps", { timeout: 30_000 });
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "no injected script ran");
  assert.deepEqual(page.dialogs, []);
  noRequests(page);
  const active = await page.$$eval("main script, main iframe, main img, main object, main embed, main svg", (e) => e.length);
  assert.equal(active, 0, "no active element from the log");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
