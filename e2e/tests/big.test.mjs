// The big-log figures: a 100,000-line, ~150 MB transcript opened in headless Chromium.
// Prints: first rows on screen after the drop, fully classified, scroll frame times, memory.
// BIG_LINES=N changes the size (default 100000); BIG_LOG=FILE opens that log instead (any
// agent's, any shape), BIG_SEARCH=TEXT what the search looks for.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { execFileSync } from "node:child_process";
import { ROOT, SHOTS, serveStatic, launch, openPage } from "../lib.mjs";

const GIVEN = process.env.BIG_LOG || "";
const FILE = GIVEN ? path.resolve(GIVEN) : path.join(os.tmpdir(), `hiveterm-big-${Number(process.env.BIG_LINES || 100_000)}.jsonl`);
/** Lines of a log as the page counts them: every line but a blank last one. */
function countLines(file) {
  const fd = fs.openSync(file, "r");
  const buf = Buffer.alloc(1 << 24);
  let lines = 0, last = 10, n;
  while ((n = fs.readSync(fd, buf, 0, buf.length, null)) > 0) {
    for (let i = buf.indexOf(10, 0); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
    last = buf[n - 1];
  }
  fs.closeSync(fd);
  return lines + (last === 10 ? 0 : 1);
}
const LINES = GIVEN ? countLines(FILE) : Number(process.env.BIG_LINES || 100_000);
const SEARCH = process.env.BIG_SEARCH || (GIVEN ? "e" : "x19 = parse");
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

/** The renderer processes of the Chromium this test started (a renderer whose ancestor is this
 * node process: other tests' browsers on the same machine are not counted). */
function rendererPids() {
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
      if (q === String(process.pid)) return true;
    }
    return false;
  };
  return [...procs].filter(([p, { cmd }]) => cmd.includes("--type=renderer") && ours(p)).map(([p]) => p);
}

/** Each of those renderers' resident memory (MB), from /proc/<pid>/smaps: `wasm`, each wasm
 * linear memory's resident pages (a read-write mapping followed by the rest of V8's 10 GiB
 * reservation, inaccessible), largest first; `file`, file-backed pages (Chromium's own code,
 * shared with its other processes, and fonts); `anon`, every other anonymous page (V8's JS
 * heaps, Blink, allocator caches); `workers`, its Web Worker threads. The page and its workers
 * live in one renderer, the one with worker threads; Chromium keeps others (the browser's
 * first blank tab, a spare), whose memory does not move with the page's. */
function renderers() {
  const out = [];
  for (const pid of rendererPids()) {
    let text;
    try {
      text = fs.readFileSync(`/proc/${pid}/smaps`, "utf8");
    } catch {
      continue;
    }
    const r = { pid, rss: 0, wasm: [], file: 0, shm: 0, fonts: 0, anon: 0, workers: 0 };
    const maps = [];
    for (const line of text.split("\n")) {
      const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
      if (head) {
        maps.push({ start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3], inode: head[4], path: head[5], rss: 0 });
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss && maps.length) maps[maps.length - 1].rss = Number(rss[1]) / 1024;
    }
    for (const [i, m] of maps.entries()) {
      r.rss += m.rss;
      const next = maps[i + 1];
      const guard = next && next.start === m.end && next.perms.startsWith("---") && next.end - next.start >= 6n << 30n;
      if (m.perms.startsWith("rw") && m.inode === "0" && guard) r.wasm.push(m.rss);
      else if (m.inode !== "0") {
        r.file += m.rss;
        // Of which shared memory (Chromium's IPC and raster buffers) and fonts.
        if (/^\/dev\/shm|^\/memfd:|^\/SYSV/.test(m.path)) r.shm += m.rss;
        else if (/\/fonts?\//.test(m.path)) r.fonts += m.rss;
      }
      else r.anon += m.rss;
    }
    r.wasm.sort((a, b) => b - a);
    try {
      r.workers = fs.readdirSync(`/proc/${pid}/task`).filter((t) => fs.readFileSync(`/proc/${pid}/task/${t}/comm`, "utf8").startsWith("DedicatedWorker")).length;
    } catch {}
    out.push(r);
  }
  return out;
}

/** The page's renderer (the one running its workers) and every renderer of the browser. */
function memory() {
  const all = renderers();
  const page = all.filter((r) => r.workers > 0);
  const sum = (rs, k) => rs.reduce((t, r) => t + r[k], 0);
  return {
    rss: sum(page, "rss"),
    wasm: page.flatMap((r) => r.wasm).sort((a, b) => b - a),
    anon: sum(page, "anon"),
    file: sum(page, "file"),
    shm: sum(page, "shm"),
    fonts: sum(page, "fonts"),
    all: sum(all, "rss"),
    others: all.filter((r) => r.workers === 0).map((r) => r.rss),
  };
}

function fmtMemory(m) {
  const wasm = m.wasm.filter((w) => w >= 0.5).map((w) => w.toFixed(0)).join(" + ");
  return `the page's renderer ${m.rss.toFixed(0)} MB = wasm memories [${wasm}] + other anonymous ${m.anon.toFixed(0)} + file-backed ${m.file.toFixed(0)} (shared memory ${m.shm.toFixed(0)}, fonts ${m.fonts.toFixed(0)}); every renderer ${m.all.toFixed(0)} MB (others: ${m.others.map((o) => o.toFixed(0)).join(", ")})`;
}

/** The used JS heap (MB) of the page and of each of its workers, by the DevTools protocol
 * (`Runtime.getHeapUsage`; workers through `Target.setAutoAttach`). Returns a function that
 * asks again; its `wasm` asks each of them the size of its wasm memories (MB, what each grew
 * to: the page's, the classifier worker's, the markdown worker's; it runs a full GC in each,
 * so it is asked only after the figures are taken). */
async function jsHeaps(page) {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map();
  let next = 1;
  const waiting = new Map();
  cdp.on("Target.attachedToTarget", (e) => workers.set(e.sessionId, e.targetInfo.url.split("/").pop()));
  cdp.on("Target.receivedMessageFromTarget", (e) => {
    const m = JSON.parse(e.message);
    waiting.get(m.id)?.(m.result);
  });
  await cdp.send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const call = (sessionId, method, params = {}) =>
    sessionId === null
      ? cdp.send(method, params).catch(() => null)
      : new Promise((resolve) => {
          const id = next++;
          waiting.set(id, resolve);
          cdp.send("Target.sendMessageToTarget", { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => resolve(null));
          setTimeout(() => resolve(null), 5000);
        });
  const each = async (f) => {
    const out = { page: await f(null) };
    for (const [sid, name] of workers) out[name] = await f(sid);
    return out;
  };
  const heaps = async () => {
    const out = {};
    for (const [k, r] of Object.entries(await each((sid) => call(sid, "Runtime.getHeapUsage")))) if (r) out[k] = r.usedSize / 1e6;
    return out;
  };
  heaps.wasm = () =>
    each(async (sid) => {
      const proto = await call(sid, "Runtime.evaluate", { expression: "WebAssembly.Memory.prototype" });
      if (!proto?.result?.objectId) return [];
      const found = await call(sid, "Runtime.queryObjects", { prototypeObjectId: proto.result.objectId });
      if (!found?.objects?.objectId) return [];
      const sizes = await call(sid, "Runtime.callFunctionOn", {
        objectId: found.objects.objectId,
        functionDeclaration: "function () { return this.map((m) => m.buffer.byteLength / 1e6); }",
        returnByValue: true,
      });
      return sizes?.result?.value || [];
    });
  return heaps;
}

function fmtHeaps(h) {
  return Object.entries(h).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ");
}

test(`big log: ${LINES} lines`, { timeout: 180_000 + LINES * 2 }, async () => {
  const size = fs.statSync(FILE).size;
  const page = await openPage(browser, server.url);
  await page.waitForTimeout(500); // the worker is started with the page
  // The page's renderer is told by its worker threads: wait for the worker to start.
  for (let i = 0; i < 50 && memory().rss === 0; i++) await page.waitForTimeout(100);
  const stages = { loaded: memory() };
  // No DevTools session is attached while the log is read: one that auto-attaches to the
  // workers (for their JS heaps) made classifying ~1.5x slower (3.21 s without, 4.85 s with, same
  // build, alternating runs), so the heaps are asked for only once every row is classified. The
  // main thread's own totals (script, style, layout) over the load, from Chromium's Performance
  // domain, are measured only with BIG_MAIN_THREAD=1, and then say so.
  const mainThread = process.env.BIG_MAIN_THREAD === "1";
  let metrics = async () => ({});
  if (mainThread) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  }
  const m0 = await metrics();
  // In the page: the input's change event (the drop, as the page sees it; capture phase, before
  // the page's own handler), the first row in the DOM and the frame that shows it, and the
  // moment the progress says every row is classified.
  await page.evaluate(() => {
    const t = (window.__big = {});
    window.addEventListener("change", () => (t.change ??= performance.now()), { capture: true });
    const seen = new MutationObserver(() => {
      if (t.rows === undefined && document.querySelector(".live .row")) {
        t.rows = performance.now();
        requestAnimationFrame(() => (t.frame = performance.now()));
      }
      if (t.done === undefined && document.querySelector('.progress[data-done="1"]')) {
        t.done = performance.now();
        seen.disconnect();
      }
    });
    seen.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-done"] });
  });
  const t0 = Date.now();
  await page.setInputFiles("#file", FILE);
  await page.waitForSelector(".live .row", { timeout: 30_000 });
  const firstWall = Date.now() - t0;
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 120_000 + LINES });
  const doneWall = Date.now() - t0;
  await page.waitForFunction(() => window.__big.frame !== undefined && window.__big.done !== undefined);
  const inPage = await page.evaluate(() => window.__big);
  // From the page's change event (the drop): the first rows in the DOM, the frame that paints
  // them, every row classified; and how long Playwright's call took before that event.
  const firstPage = {
    dom: Math.round(inPage.rows - inPage.change),
    frame: Math.round(inPage.frame - inPage.change),
    done: Math.round(inPage.done - inPage.change),
    call: Math.round(firstWall - (inPage.rows - inPage.change)),
  };
  stages.classified = memory();
  const heaps = await jsHeaps(page);
  const heapsClassified = await heaps();
  const m1 = await metrics();
  const prog = await page.$eval(".progress", (p) => ({ first: Number(p.dataset.firstMs), done: Number(p.dataset.doneMs), lines: Number(p.dataset.lines), phases: (p.dataset.phases || "").split(" ").filter(Boolean).map(Number) }));
  // Where the time went (issue 12): the worker's phases and the page's, as the page reports
  // them (app/src/worker/protocol/mod.rs PHASES, app/src/offline/progress.rs PAGE_PHASES), and the main thread's
  // script, style and layout time as Chromium counts it.
  const names = [
    "worker: read (waiting for the next chunk, copy into wasm)", "worker: classify (lines, rows, summary fold, checkpoints)", "worker: strip bodies",
    "worker: rows encoded (row_batch)", "worker: summary to JSON", "worker: postMessage",
    "page: message decode (row_batch)", "page: reducer (apply_lazy)", "page: summary header parsed and set",
  ];
  const dm = (k) => ((m1[k] || 0) - (m0[k] || 0)) * 1000;
  const phases = names.map((name, i) => ({ name, ms: prog.phases[i] || 0 }));
  const workerMs = phases.slice(0, 6).reduce((a, p) => a + p.ms, 0);
  const main = { task: dm("TaskDuration"), script: dm("ScriptDuration"), style: dm("RecalcStyleDuration"), layout: dm("LayoutDuration") };
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
  await page.fill("input.search", SEARCH);
  await page.waitForFunction(() => /^\d[\d,]* of /.test(document.querySelector(".shown").textContent) && document.querySelector(".live .row"), null, { timeout: 120_000 + LINES });
  const searchMs = Date.now() - t1;
  const found = await page.$eval(".shown", (e) => e.textContent);
  const heap = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize / 1e6 : 0));
  stages.searched = memory();
  const rss = stages.searched.rss;
  const rssAll = stages.searched.all;
  const heapsSearched = await heaps();
  // With BIG_PROBE=1, which wasm memory is whose, and what is left once each isolate's
  // garbage is collected (DevTools' queryObjects runs a full GC in each: after the figures
  // above; opt-in, for it has crashed the renderer under load).
  let wasmSizes = {};
  if (process.env.BIG_PROBE === "1") {
    wasmSizes = await heaps.wasm();
    stages.collected = memory();
  }

  console.log(`BIG LOG: ${GIVEN ? `${FILE}, ` : ""}${LINES} lines, ${(size / 1e6).toFixed(1)} MB, ${rows}`);
  console.log(`  first rows on screen: ${firstPage.frame} ms after the drop (the page's change event) to the frame that paints them (in the DOM at ${firstPage.dom} ms); ${firstWall} ms after Playwright's setInputFiles call (~${firstPage.call} ms of it before the change event)`);
  console.log(`  fully classified:     ${firstPage.done} ms after the drop (the change event); ${doneWall} ms after Playwright's call`);
  console.log(`  scroll frames: p50 ${scroll.p50.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms; jumps ${scroll.jumps.map((j) => j.toFixed(0)).join("/")} ms; ${scroll.rendered} rows in the DOM`);
  console.log(`  memory: JS heap ${heap.toFixed(0)} MB, the page's renderer RSS ${rss.toFixed(0)} MB (every renderer ${rssAll.toFixed(0)} MB)`);
  for (const [k, b] of Object.entries(stages)) console.log(`  ${k.padEnd(10)} ${fmtMemory(b)}`);
  console.log(`  JS heaps used (MB), classified: ${fmtHeaps(heapsClassified)}; searched: ${fmtHeaps(heapsSearched)}`);
  if (process.env.BIG_PROBE === "1") console.log(`  wasm memories (MB, each as grown): ${Object.entries(wasmSizes).map(([k, v]) => `${k} ${v.map((x) => x.toFixed(1)).join("+") || "-"}`).join(", ")} ("collected" above: after it, which collected each one's garbage)`);
  console.log(`  where the time went (drop → fully classified ${firstPage.done} ms; worker busy ${workerMs.toFixed(0)} ms = ${(100 * workerMs / firstPage.done).toFixed(0)} % of it):`);
  for (const p of phases) console.log(`    ${p.ms.toFixed(0).padStart(6)} ms ${(100 * p.ms / firstPage.done).toFixed(1).padStart(5)} %  ${p.name}`);
  if (mainThread) console.log(`    main thread (Chromium, BIG_MAIN_THREAD=1: the Performance domain was on during the load): busy ${main.task.toFixed(0)} ms, of which script ${main.script.toFixed(0)} ms, style ${main.style.toFixed(0)} ms, layout ${main.layout.toFixed(0)} ms`);
  console.log(`  last row after G: seq ${lastSeq}; a body opened there read in ${bodyMs.toFixed(0)} ms; search: first hits in ${searchMs} ms (${found})`);
  fs.writeFileSync(path.join(SHOTS, "big-figures.json"), JSON.stringify({ log: GIVEN ? FILE : "generated", lines: LINES, bytes: size, rows, firstWall, firstPage, doneWall, prog, phases, workerMs, main, scroll, heap, rss, rssAll, stages, heaps: { classified: heapsClassified, searched: heapsSearched }, wasmSizes, lastSeq, bodyMs, searchMs }, null, 2));

  assert.equal(prog.lines, LINES);
  assert.ok(scroll.rendered < 1000, "the list is virtualised");
  assert.ok(lastSeq > LINES - 30, `the last rows are reachable (seq ${lastSeq})`);
  // The targets (issue 12): 154 MB: first rows within 300 ms, every row reachable within
  // 1.5 s, renderer under 350 MB; 1 GB: 1 s, 10 s, 1.5 GB. Printed always; enforced with
  // BIG_STRICT=1 (timings on a busy shared CI box vary).
  // A given log is judged by its size (1 GB: over 500 MB), a generated one by its lines.
  const gb = GIVEN ? size >= 500e6 : LINES >= 500_000;
  const [tFirst, tDone, tRss] = gb ? [1000, 10_000, 1536] : [300, 1500, 350];
  // Timed from the drop as the page sees it (its change event), not from Playwright's call.
  const verdict = (ok) => (ok ? "met" : "MISSED");
  console.log(`  targets (from the drop): first ≤ ${tFirst} ms ${verdict(firstPage.frame <= tFirst)}, reachable ≤ ${tDone} ms ${verdict(firstPage.done <= tDone)}, RSS < ${tRss} MB ${verdict(rss < tRss)}`);
  if (process.env.BIG_STRICT === "1" && (GIVEN || LINES >= 100_000)) {
    assert.ok(firstPage.frame <= tFirst, `first rows within ${tFirst} ms (${firstPage.frame} ms)`);
    assert.ok(firstPage.done <= tDone, `every row reachable within ${tDone} ms (${firstPage.done} ms)`);
    assert.ok(rss < tRss, `renderer under ${tRss} MB (${rss} MB)`);
  }
  await page.context().close();
});
