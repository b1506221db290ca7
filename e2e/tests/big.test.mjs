// The big-log figures: a 100,000-line, ~150 MB transcript opened in headless Chromium.
// Prints: first rows on screen after the drop, fully classified, scroll frame times, memory.
// BIG_LINES=N changes the size (default 100000).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { execFileSync } from "node:child_process";
import { ROOT, SHOTS, serveStatic, launch, openPage } from "../lib.mjs";

const LINES = Number(process.env.BIG_LINES || 100_000);
const FILE = path.join(os.tmpdir(), `hiveterm-big-${LINES}.jsonl`);
let server, browser;
before(async () => {
  if (!fs.existsSync(FILE)) execFileSync("node", [path.join(ROOT, "e2e/gen-big-log.mjs"), FILE, String(LINES)], { stdio: "inherit" });
  server = await serveStatic();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** Resident memory (MB) of the renderer processes of the Chromium that playwright started
 * (a renderer whose ancestor was launched with --remote-debugging-pipe; the tests run one
 * browser at a time). */
function rendererRssMb() {
  const procs = new Map();
  for (const p of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
      const cmd = fs.readFileSync(`/proc/${p}/cmdline`, "utf8");
      procs.set(p, { ppid, cmd });
    } catch {}
  }
  const ours = (p) => {
    for (let q = procs.get(p)?.ppid, i = 0; q && i < 10; q = procs.get(q)?.ppid, i++) {
      if (procs.get(q)?.cmd.includes("--remote-debugging-pipe")) return true;
    }
    return false;
  };
  let total = 0;
  for (const [p, { cmd }] of procs) {
    if (!cmd.includes("--type=renderer") || !ours(p)) continue;
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (rss) total += Number(rss[1]) / 1024;
    } catch {}
  }
  return total;
}

test(`big log: ${LINES} lines`, { timeout: 180_000 + LINES * 2 }, async () => {
  const size = fs.statSync(FILE).size;
  const page = await openPage(browser, server.url);
  await page.waitForTimeout(500); // the worker is started with the page
  const t0 = Date.now();
  await page.setInputFiles("#file", FILE);
  await page.waitForSelector(".live .row", { timeout: 30_000 });
  const firstWall = Date.now() - t0;
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 120_000 + LINES });
  const doneWall = Date.now() - t0;
  const prog = await page.$eval(".progress", (p) => ({ first: Number(p.dataset.firstMs), done: Number(p.dataset.doneMs), lines: Number(p.dataset.lines) }));
  const rows = await page.$eval(".shown", (e) => e.textContent);
  await page.screenshot({ path: path.join(SHOTS, "big-top.png") });

  // Scroll: 300 animation frames of 400 px, then jumps to the middle and the end.
  const scroll = await page.evaluate(async () => {
    const sc = document.querySelector(".scroller");
    const frames = [];
    let last = performance.now();
    for (let i = 0; i < 300; i++) {
      sc.scrollTop += 400;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    const jumps = [];
    for (const to of [0.5, 1, 0.25]) {
      const a = performance.now();
      sc.scrollTop = sc.scrollHeight * to;
      await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => requestAnimationFrame(r));
      jumps.push(performance.now() - a);
    }
    frames.sort((a, b) => a - b);
    return { p50: frames[150], p95: frames[285], max: frames[299], jumps, rendered: document.querySelectorAll(".live .row").length };
  });
  await page.screenshot({ path: path.join(SHOTS, "big-scrolled.png") });

  // The last row, through G: every row is reachable once the log is classified.
  await page.keyboard.press("G");
  await page.waitForTimeout(300);
  const lastSeq = await page.$$eval(".live .row", (rs) => Math.max(...rs.map((r) => Number(r.dataset.seq))));
  // A body, read again from the file by the worker when its row is opened (none is held).
  const bodyMs = await page.evaluate(async () => {
    const d = [...document.querySelectorAll(".live details.row")].pop();
    const a = performance.now();
    d.querySelector("summary").click();
    for (let i = 0; i < 1000; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const q = document.querySelector(`.live details.row[data-seq="${d.dataset.seq}"][data-idx="${d.dataset.idx}"] pre.body`);
      if (q && !q.classList.contains("pending")) return performance.now() - a;
    }
    return -1;
  });
  await page.screenshot({ path: path.join(SHOTS, "big-end.png") });
  // A search of the bodies (the worker classifies the file again for it): the first hits.
  const t1 = Date.now();
  await page.fill("input.search", "x19 = parse");
  await page.waitForFunction(() => /^\d[\d,]* of /.test(document.querySelector(".shown").textContent) && document.querySelector(".live .row"), null, { timeout: 120_000 + LINES });
  const searchMs = Date.now() - t1;
  const found = await page.$eval(".shown", (e) => e.textContent);
  const heap = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize / 1e6 : 0));
  const rss = rendererRssMb();

  console.log(`BIG LOG: ${LINES} lines, ${(size / 1e6).toFixed(1)} MB, ${rows}`);
  console.log(`  first rows on screen: ${firstWall} ms after the drop (page-side ${prog.first} ms)`);
  console.log(`  fully classified:     ${doneWall} ms after the drop (page-side ${prog.done} ms)`);
  console.log(`  scroll frames: p50 ${scroll.p50.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms; jumps ${scroll.jumps.map((j) => j.toFixed(0)).join("/")} ms; ${scroll.rendered} rows in the DOM`);
  console.log(`  memory: JS heap ${heap.toFixed(0)} MB, renderer RSS ${rss.toFixed(0)} MB`);
  console.log(`  last row after G: seq ${lastSeq}; a body opened there read in ${bodyMs.toFixed(0)} ms; search: first hits in ${searchMs} ms (${found})`);
  fs.writeFileSync(path.join(SHOTS, "big-figures.json"), JSON.stringify({ lines: LINES, bytes: size, rows, firstWall, doneWall, prog, scroll, heap, rss, lastSeq, bodyMs, searchMs }, null, 2));

  assert.equal(prog.lines, LINES);
  assert.ok(scroll.rendered < 1000, "the list is virtualised");
  assert.ok(lastSeq > LINES - 30, `the last rows are reachable (seq ${lastSeq})`);
  // The targets (issue 12): 154 MB: first rows within 300 ms, every row reachable within
  // 1.5 s, renderer under 350 MB; 1 GB: 1 s, 10 s, 1.5 GB. Printed always; enforced with
  // BIG_STRICT=1 (timings on a busy shared CI box vary).
  const gb = LINES >= 500_000;
  const [tFirst, tDone, tRss] = gb ? [1000, 10_000, 1536] : [300, 1500, 350];
  const verdict = (ok) => (ok ? "met" : "MISSED");
  console.log(`  targets: first ≤ ${tFirst} ms ${verdict(firstWall <= tFirst)}, reachable ≤ ${tDone} ms ${verdict(doneWall <= tDone)}, RSS < ${tRss} MB ${verdict(rss < tRss)}`);
  if (process.env.BIG_STRICT === "1" && LINES >= 100_000) {
    assert.ok(firstWall <= tFirst, `first rows within ${tFirst} ms (${firstWall} ms)`);
    assert.ok(doneWall <= tDone, `every row reachable within ${tDone} ms (${doneWall} ms)`);
    assert.ok(rss < tRss, `renderer under ${tRss} MB (${rss} MB)`);
  }
  await page.context().close();
});
