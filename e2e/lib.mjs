// Shared helpers for the page's browser tests: a static file server for dist/ (no API, like
// any static host), the system Chromium through playwright-core, and file/row helpers.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { before, after } from "node:test";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(ROOT, "dist");
export const SHOTS = path.join(ROOT, "e2e", "screenshots");
fs.mkdirSync(SHOTS, { recursive: true });

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".css": "text/css",
  ".json": "application/json",
};

/** Serves dir on 127.0.0.1 (port 0); paths that are not files get index.html (like /s/{id}).
 * With a prefix ("/tools/hiveterm"), dir is served below it, as a static host serves a
 * subfolder: `${prefix}/…` as above, `${prefix}` redirects to `${prefix}/`, and every other
 * path is a 404. `url` is then the page's address (`…${prefix}/`). */
export async function serveStatic(dir = DIST, { prefix = "" } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (prefix && url.pathname === prefix) {
      res.writeHead(301, { location: `${prefix}/` });
      return res.end();
    }
    if (!url.pathname.startsWith(`${prefix}/`)) {
      res.writeHead(404, { "content-type": "text/plain" });
      return res.end("not found");
    }
    let file = path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length)));
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = path.join(dir, "index.html");
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  const url = `http://127.0.0.1:${port}${prefix ? `${prefix}/` : ""}`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}

/** The setup most test files share, as node:test hooks: before the file's tests, a static
 * server for dist/ (`opts` as for serveStatic) and the system Chromium; after them, both
 * closed. The returned object holds them (`.server`, `.browser`) while the tests run. */
export function staticPageHooks(opts) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await serveStatic(undefined, opts);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

/** A page that records console errors (and warnings), failed answers (status ≥ 400) and
 * every request that leaves 127.0.0.1. `init`: a script run before the page's own, in a new
 * context. `context`: open the page as a new tab of that context instead. */
export async function openPage(browser, url, { colorScheme = "dark", init, context } = {}) {
  if (!context) {
    context = await browser.newContext({ viewport: { width: 1200, height: 800 }, colorScheme });
    if (init) await context.addInitScript(init);
  }
  const page = await context.newPage();
  page.remoteRequests = [];
  page.errors = [];
  page.warnings = [];
  page.failed = [];
  page.on("response", (r) => {
    if (r.status() >= 400) page.failed.push(`${r.status()} ${r.url()}`);
  });
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith("http://127.0.0.1") && !u.startsWith("data:") && !u.startsWith("blob:")) {
      page.remoteRequests.push(u);
    }
  });
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(m.text());
    if (m.type() === "warning") page.warnings.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector("[data-dropzone]");
  return page;
}

/** Opens a file through the page's file input and waits until it is fully classified. */
export async function openLog(page, file, timeout = 60_000) {
  await page.setInputFiles("#file", file);
  await page.waitForSelector('.progress[data-done="1"]', { timeout });
}

/** Waits until every body shown is here (an offline log's bodies stay in its file and are
 * read again by the worker when a row is shown open or searched: `.body.pending` until then). */
export async function bodiesRead(page, timeout = 30_000) {
  // A closed row's body is not read (unless a search is on): it stays pending, unseen.
  await page.waitForFunction(
    () =>
      !document.querySelector(
        document.querySelector("input.search")?.value
          ? ".live .body.pending"
          : ".live div.row > .body.pending, .live details.row[open] > .body.pending",
      ),
    null,
    { timeout },
  );
}

/** Drops a file on the drop zone the way a browser does (a DataTransfer on a drop event). */
export async function dropLog(page, name, text) {
  await page.evaluate(
    ([name, text]) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type: "application/x-ndjson" }));
      const zone = document.querySelector("[data-dropzone]");
      zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    [name, text],
  );
  await page.waitForSelector('.progress[data-done="1"]', { timeout: 60_000 });
}

/** Pastes `text` onto the page the way a browser does (a paste event with clipboard data). */
export async function pasteLog(page, text) {
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData("text", text);
    window.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

/** Waits until every shown markdown body (a flat row's, an open row's) has its HTML from the
 * worker: none is left as plain text (`.md.pending`). */
export async function markdownRendered(page, timeout = 15_000) {
  await bodiesRead(page, timeout);
  await page.waitForFunction(
    () => !document.querySelector(".live div.row > .md.pending, .live details.row[open] > .md.pending"),
    null,
    { timeout },
  );
}

/** Every rendered row's address and shape facts. */
export async function rowFacts(page) {
  return page.$$eval(".live .row", (rows) =>
    rows.map((r) => ({
      tag: r.tagName.toLowerCase(),
      seq: r.dataset.seq,
      idx: r.dataset.idx,
      levels: [...r.classList].filter((c) => c.startsWith("level-")),
      glyph: r.querySelector(":scope > .row-glyph, :scope > summary > .row-glyph")?.textContent ?? null,
      summary: r.querySelector(":scope > .summary-text, :scope > summary > .summary-text")?.textContent ?? null,
      hasMd: !!r.querySelector(".md"),
      mdRendered: !!r.querySelector(".md:not(.pending)"),
      turnTime: r.querySelector(".turn-time")?.textContent ?? null,
    })),
  );
}

export function hivetermBinary() {
  for (const p of ["target/release/hiveterm", "target/debug/hiveterm"]) {
    const f = path.join(ROOT, p);
    if (fs.existsSync(f)) return f;
  }
  return null;
}
