// Opens an exported file (hiveterm export) from file:// in headless Chromium RUNS times and
// prints, per run and as medians, when its first rows were on screen and when it was fully
// loaded (every row read), in ms from navigation start (the file's parsing included).
// Usage: node e2e/bench-export.mjs FILE.html [RUNS]   → JSON on the last line of stdout.
import { pathToFileURL } from "node:url";
import { launch } from "./lib.mjs";

const [file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 3);
const browser = await launch();
const results = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  await context.addInitScript(() => {
    window.__t = {};
    const look = () => {
      const t = window.__t;
      if (!t.first && document.querySelector(".live .row")) t.first = performance.now();
      if (!t.done && document.querySelector('.progress[data-done="1"]')) t.done = performance.now();
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
  });
  const page = await context.newPage();
  const requests = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 120_000 });
  const t = await page.evaluate(() => window.__t);
  const rows = await page.$eval(".shown", (e) => e.textContent);
  const other = requests.filter((u) => !u.startsWith("file:") && !u.startsWith("blob:"));
  results.push({ first: Math.round(t.first), done: Math.round(t.done), rows, requests: other.length });
  console.log(`  run ${i + 1}: first rows ${Math.round(t.first)} ms, fully loaded ${Math.round(t.done)} ms, ${rows}, ${other.length} network requests`);
  await context.close();
}
await browser.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(JSON.stringify({ first: median(results.map((r) => r.first)), done: median(results.map((r) => r.done)), rows: results[0].rows, requests: Math.max(...results.map((r) => r.requests)) }));
