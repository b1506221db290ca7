// A comparison link (issue 48, `hiveterm share --compare A B`): made with the CLI beside a
// running `hiveterm serve`, opened in headless Chromium — the compare page of the two stored
// sessions, read-only: `hiveterm diff --db … --json`'s figures and first divergence, n/N, no
// step linked to its session and no way to the index; a redacted link shows no planted
// secret; a revoked or expired link shows a dead-link page. Skipped when the binary has no
// `serve`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { ROOT, SHOTS, NDJSON, launch, hivetermBinary, freePort, startServe } from "../lib.mjs";

const BIN = hivetermBinary();
const HAS_SERVE = BIN && spawnSync(BIN, ["serve", "--help"]).status === 0;
const skip = !HAS_SERVE && "hiveterm serve not built";
const DB = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-e2e-")), "compare-share.db");
const LOGS = {
  failing: "fixtures/gemini-0.61.0/gemini.failing_command.stream.jsonl",
  passing: "fixtures/gemini-0.61.0/gemini.shell_command.stream.jsonl",
};
// A fake GitHub token (the redactor's corpus), planted in a step of `passing`.
const SECRET = "ghp_R4nd0mL00k1ngT0k3nV4lu3Xy2Zq8Wm5Np7K";
const PLANT = JSON.stringify({ type: "assistant", message: { role: "assistant", content: [
  { type: "tool_use", id: "toolu_secret", name: "Bash", input: { command: `curl -H 'Authorization: token ${SECRET}' https://api.github.com` } }] } }) + "\n";
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
  const r = await fetch(`${base}/api/sessions/passing/events`, { method: "POST", headers: NDJSON, body: PLANT });
  assert.equal(r.status, 200, await r.text());
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

/** `hiveterm share --compare failing passing …` on the server's database: the link. */
function share(args = []) {
  const out = execFileSync(BIN, ["share", "--compare", "failing", "passing", "--db", DB, "--base-url", base, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return out.trim().split("\n").pop();
}

async function open(url) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme: "dark" });
  const page = await context.newPage();
  page.errors = [];
  page.requests = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && page.errors.push(m.text()));
  page.on("request", (r) => page.requests.push(new URL(r.url()).pathname));
  const res = await page.goto(url);
  return { page, res };
}

test("issue 48: share --compare: the link opens the comparison read-only, diff --json's figures", { skip, timeout: 90_000 }, async () => {
  const json = JSON.parse(execFileSync(BIN, ["diff", "failing", "passing", "--db", DB, "--json"], { encoding: "utf8" }));
  const link = share(["--title", "why it broke"]);
  const token = link.split("/p/")[1];
  const { page } = await open(link);
  await page.waitForSelector(".cmp-pair.selected", { timeout: 30_000 });
  assert.equal(new URL(page.url()).pathname, `/p/${token}/compare`, "the link's page is its comparison");
  assert.equal(await page.$eval(".cmp-title", (t) => t.textContent), "why it broke");
  assert.match(await page.$eval(".cmp-share", (t) => t.textContent), /^comparison · shared snapshot · made .* · expires /);
  // The summary table: diff --json's figures.
  const summary = await page.$$eval(".cmp-summary tbody tr", (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const line = (label) => summary.find((l) => l[0] === label);
  for (const [label, key] of [["turns", "turns"], ["tool calls", "tool_calls"], ["tool errors", "tool_errors"]]) {
    assert.deepEqual(line(label).slice(1, 3), [String(json.differences[key].a), String(json.differences[key].b)], label);
  }
  // The first divergence selected: diff --json's seqs, as text.
  const sel = await page.$eval(".cmp-pair.selected", (el) => [...el.querySelectorAll(".cmp-side")].map((s) => s.querySelector(".cmp-seq")?.textContent ?? null));
  const fd = json.first_divergence;
  assert.deepEqual(sel.filter(Boolean).map((s) => Number(s.slice(1))), [fd.a, fd.b].filter((x, i) => sel[i] !== null && x !== null));
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), new RegExp(`^divergence 1 of ${json.divergences}$`));
  // Read-only: no step links to its session, no link to the index.
  assert.equal(await page.$$eval("a", (a) => a.length), 0, "nothing to follow out of the comparison");
  assert.ok(await page.textContent("body").then((t) => t.includes(SECRET)), "an unredacted link shows the plant");
  await page.screenshot({ path: path.join(SHOTS, "compare-share.png") });
  const first = await page.$eval(".cmp-pair.selected", (el) => el.id);
  await page.keyboard.press("n");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id !== id, first);
  assert.match(await page.$eval(".cmp-pos", (s) => s.textContent), /^divergence 2 of /);
  await page.keyboard.press("N");
  await page.waitForFunction((id) => document.querySelector(".cmp-pair.selected")?.id === id, first);
  // It read only the link's two reads, never a session's or the index's.
  const api = page.requests.filter((p) => p.includes("/api/"));
  assert.deepEqual([...new Set(api)].sort(), [`/p/${token}/api/compare`, `/p/${token}/api/share`]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("issue 48: a redacted comparison link shows no planted secret", { skip, timeout: 60_000 }, async () => {
  const { page } = await open(share(["--redact"]));
  await page.waitForSelector(".cmp-pair.selected", { timeout: 30_000 });
  const text = await page.textContent("body");
  assert.ok(!text.includes(SECRET), "the secret is in no string shown");
  assert.ok(text.includes("[REDACTED:github_token]"), "its step says what was redacted");
  assert.match(await page.$eval(".cmp-share", (t) => t.textContent), / · redacted · /);
  await page.locator(".cmp-side", { hasText: "[REDACTED:github_token]" }).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, "compare-share-redacted.png") });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("issue 48: a revoked or expired comparison link shows a dead-link page", { skip, timeout: 60_000 }, async () => {
  const revoked = share();
  const list = execFileSync(BIN, ["share", "--list", "--db", DB], { encoding: "utf8" });
  const id = JSON.parse(list.split("\n")[0]).id;
  execFileSync(BIN, ["share", "--revoke", String(id), "--db", DB], { stdio: "ignore" });
  const { page, res } = await open(revoked);
  assert.equal(res.status(), 410);
  const text = await page.textContent("body");
  assert.match(text, /This link shows nothing/);
  assert.match(text, /this share link was revoked\. Ask whoever sent it for a new one\./);
  assert.ok(!text.includes("failing") && !text.includes("passing"), "it names no session");
  await page.screenshot({ path: path.join(SHOTS, "compare-share-revoked.png") });
  const expired = share(["--expires", "1s"]);
  await new Promise((r) => setTimeout(r, 1500));
  const res2 = await page.goto(expired);
  assert.equal(res2.status(), 410);
  assert.match(await page.textContent("body"), /this share link has expired/);
  // Its page's address, opened straight, says the same.
  const res3 = await page.goto(`${expired}/compare`);
  assert.equal(res3.status(), 410);
  await page.context().close();
});
