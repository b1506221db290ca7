// The live view against a running `hiveterm serve`: rows arrive over SSE, the banner shimmers
// while a turn is in flight, and a server restart in the middle (the browser's EventSource
// reconnects with Last-Event-ID) neither loses nor repeats a row. Skipped when the binary
// has no `serve` yet.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { ROOT, DIST, SHOTS, launch, openPage, hivetermBinary } from "../lib.mjs";

const BIN = hivetermBinary();
const HAS_SERVE = BIN && spawnSync(BIN, ["serve", "--help"]).status === 0;
const DB = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hiveterm-e2e-")), "live.db");
let browser, server, port;

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

async function startServer() {
  server = spawn(BIN, ["serve", "--addr", `127.0.0.1:${port}`, "--db", DB, "--static", DIST], { stdio: ["ignore", "pipe", "pipe"] });
  server.stderr.on("data", () => {});
  server.stdout.on("data", () => {});
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/sessions`);
      if (r.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("hiveterm serve did not start");
}

async function stopServer() {
  if (!server) return;
  const done = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await done;
  server = null;
}

let ts = 1764468000;
async function post(events) {
  const body = events.map((e) => JSON.stringify({ ts: ts++, ...e })).join("\n") + "\n";
  const r = await fetch(`http://127.0.0.1:${port}/api/sessions/e2e-live/events?title=e2e%20live`, { method: "POST", body });
  const answer = await r.text();
  assert.equal(r.status, 200, answer);
  return JSON.parse(answer).seqs;
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
  assert.match(await page.$eval(".conn", (e) => e.textContent), /live/);
  assert.deepEqual(page.remoteRequests, []);
  await page.screenshot({ path: path.join(SHOTS, "live.png") });
  await page.context().close();
});
