// Where the page's main thread spends its time while a log is opened offline (not a test):
// a CPU profile over CDP from the file input's drop to every row classified, summed by
// function, self time, largest first. Run through scripts/profile-page.sh, which builds a page
// that keeps its wasm function names; on the normal build wasm functions show as numbers.
// Usage: node e2e/profile-page.mjs LOG [DIST]   (prints the top 40; the raw profile is
// written to $TMPDIR/hiveterm-page.cpuprofile, which Chromium's DevTools opens).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serveStatic, launch, openPage } from "./lib.mjs";

const [log, dist] = process.argv.slice(2);
if (!log) {
  console.error("usage: node e2e/profile-page.mjs LOG [DIST]");
  process.exit(2);
}
const server = await serveStatic(dist ? path.resolve(dist) : undefined);
const browser = await launch();
try {
  const page = await openPage(browser, server.url);
  await page.waitForSelector("#file", { state: "attached" });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 500 });
  await cdp.send("Profiler.start");
  const t0 = Date.now();
  await page.setInputFiles("#file", path.resolve(log));
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 600_000 });
  const wall = Date.now() - t0;
  const { profile } = await cdp.send("Profiler.stop");
  const out = path.join(os.tmpdir(), "hiveterm-page.cpuprofile");
  fs.writeFileSync(out, JSON.stringify(profile));
  // Self time of each sampled node, summed by function (name and script).
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const key = `${functionName || "(anonymous)"}  ${url.split("/").pop()}:${lineNumber}`;
    self.set(key, (self.get(key) || 0) + (profile.timeDeltas[i] || 0));
  });
  console.log(`${log}: every row classified ${wall} ms after the drop (Playwright's call); profile in ${out}`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms  ${key}`);
  }
} finally {
  await browser.close();
  await server.close();
}
