// Opens an exported file (hiveterm export) from file:// in headless Chromium and prints, per
// run and as medians, when its first rows were on screen and when it was fully loaded (every
// row read), in ms from navigation start (the file's parsing included), with where the time
// went: the file parsed (domInteractive) and the boot script's marks (boot.js: `hiveterm:*`).
// Cold runs first, each in a browser of its own (a new profile: nothing cached, no process
// warm), then warm runs, one after the other in one browser (a first run not counted).
// Usage: node e2e/bench-export.mjs FILE.html [RUNS] [COLD_RUNS]   (COLD_RUNS: default RUNS)
// → JSON on the last line of stdout: medians, warm ({first, done}) and cold ({first, done,
// worst}).
import { pathToFileURL } from "node:url";
import { launch } from "./lib.mjs";

const [file, runsArg, coldArg] = process.argv.slice(2);
const runs = Number(runsArg || 3);
const coldRuns = Number(coldArg ?? runs);

/** One run in a new context of `browser`: its figures. */
async function run(browser) {
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
  const t = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const marks = Object.fromEntries(
      performance.getEntriesByType("mark").filter((m) => m.name.startsWith("hiveterm:")).map((m) => [m.name.slice(9), Math.round(m.startTime)]),
    );
    return { ...window.__t, parsed: nav?.domInteractive, marks };
  });
  const rows = await page.$eval(".shown", (e) => e.textContent);
  const other = requests.filter((u) => !u.startsWith("file:") && !u.startsWith("blob:"));
  await context.close();
  return { first: Math.round(t.first), done: Math.round(t.done), parsed: Math.round(t.parsed), marks: t.marks, rows, requests: other.length };
}

const say = (what, i, r) =>
  console.log(
    `  ${what} run ${i + 1}: first rows ${r.first} ms, fully loaded ${r.done} ms (parsed ${r.parsed} ms; ${Object.entries(r.marks)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}), ${r.rows}, ${r.requests} network requests`,
  );
const results = [];
const cold = [];
for (let i = 0; i < coldRuns; i++) {
  const browser = await launch();
  try {
    const r = await run(browser);
    say("cold", i, r);
    cold.push(r);
  } finally {
    await browser.close();
  }
}
const browser = await launch();
await run(browser);
for (let i = 0; i < runs; i++) {
  const r = await run(browser);
  say("warm", i, r);
  results.push(r);
}
await browser.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const all = [...cold, ...results];
console.log(
  JSON.stringify({
    first: median(results.map((r) => r.first)),
    done: median(results.map((r) => r.done)),
    cold: cold.length ? { first: median(cold.map((r) => r.first)), done: median(cold.map((r) => r.done)), worst: Math.max(...cold.map((r) => r.first)) } : null,
    rows: all[0].rows,
    requests: Math.max(...all.map((r) => r.requests)),
  }),
);
