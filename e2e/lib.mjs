// Shared helpers for the page's browser tests: a static file server for dist/ (no API, like
// any static host), the system Chromium through playwright-core, file/row helpers, the
// fixtures and the hostile log several tests read, and `hiveterm serve` started and stopped.
import http from "node:http";
import net from "node:net";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync, spawn } from "node:child_process";
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

/** The real fixtures, as paths relative to the repo. */
export const FIXTURES = [
  ...fs.readdirSync(path.join(ROOT, "fixtures/claude-code-2.1.332")).map((f) => `fixtures/claude-code-2.1.332/${f}`),
  ...fs.readdirSync(path.join(ROOT, "fixtures/hyperhive")).map((f) => `fixtures/hyperhive/${f}`),
  ...fs.readdirSync(path.join(ROOT, "fixtures/codex-0.171.0")).map((f) => `fixtures/codex-0.171.0/${f}`),
  ...fs.readdirSync(path.join(ROOT, "fixtures/gemini-0.61.0")).map((f) => `fixtures/gemini-0.61.0/${f}`),
].filter((f) => f.endsWith(".jsonl"));

/** The rows `hiveterm classify` (binary `bin`) gives for a file, coalesced like the page
 * (a subagent's row and the main agent's never replace each other), and shown as the page
 * shows them by default: a subagent's rows (an envelope's `parent` held) folded away in its
 * call's closed block. `{...msg, seq, idx, parent}` with seq and idx as the strings of
 * `data-seq` / `data-idx`. */
export function classifiedRows(bin, file, { alone = false } = {}) {
  // `alone`: the file by itself (on standard input), as a page it is dropped on reads it —
  // without the session's subagents' files `hiveterm classify --subagents PATH` reads beside it.
  const out = alone
    ? execFileSync(bin, ["classify", "-"], { input: fs.readFileSync(path.resolve(ROOT, file)), maxBuffer: 1 << 28 }).toString()
    : execFileSync(bin, ["classify", "--subagents", path.resolve(ROOT, file)], { maxBuffer: 1 << 28 }).toString();
  const rows = [];
  const held = new Set();
  for (const line of out.split("\n").filter(Boolean)) {
    const env = JSON.parse(line);
    if (env.msgs.length) held.add(env.seq);
    env.msgs.forEach((m, idx) => {
      const last = rows[rows.length - 1];
      if (m.coalesce_key && last && last.coalesce_key === m.coalesce_key && last.parent === env.parent) rows.pop();
      rows.push({ ...m, seq: String(env.seq), idx: String(idx), parent: env.parent });
    });
  }
  const shown = rows.filter((r) => r.parent === undefined || !held.has(r.parent));
  shown.held = rows.length;
  return shown;
}

/** What the toolbar's `.shown` says for `classifiedRows`' rows: `N rows`, or `V of N rows`
 * when subagents' rows are held in closed blocks. */
export function shownText(want) {
  const held = want.held ?? want.length;
  return held === want.length ? `${held} rows` : `${want.length} of ${held} rows`;
}

/** Text a log may carry that must neither run nor load anything: HTML, markdown images and
 * links, SVG, a `</script>` that would close an inlining element, escape sequences. */
export const NASTY = [
  `<script>window.__pwned = 1</script>`,
  `<img src=x onerror="window.__pwned = 2">`,
  `<img src="https://tracker.example.com/pixel.gif">`,
  `![pixel](https://tracker.example.com/p.png)`,
  `[click me](javascript:window.__pwned=3)`,
  `<a href="javascript:window.__pwned=4">x</a>`,
  `<iframe src="https://evil.example.com/"></iframe>`,
  `<svg onload="window.__pwned=5"><circle r=9 /></svg>`,
  `<style>body{display:none}</style><link rel=stylesheet href="https://evil.example.com/x.css">`,
  `[ok link](https://example.com/docs)`,
  `<details open ontoggle="window.__pwned=6">x</details>`,
  `<object data="https://evil.example.com/x.swf"></object>`,
  `</script><script>window.__pwned = 11</script><!--`,
  "\u001b]8;;https://evil.example.com\u0007osc link\u001b]8;;\u0007 and \u001b[31mred\u001b[0m",
];

/** A hyperhive log made of NASTY in every place text reaches a row (prompt, answer, note,
 * tool call, tool result), a line that is not JSON and one of an unknown type. */
export function hostileLog() {
  const lines = [];
  let ts = 1764468000;
  const ev = (o) => lines.push(JSON.stringify({ ts: ts++, ...o }));
  ev({ kind: "turn_start", from: `<b onmouseover="window.__pwned=7">op</b>`, body: NASTY.join("\n") });
  for (const text of NASTY) {
    ev({ kind: "stream", value: { type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } } });
    ev({ kind: "note", text: `stderr: ${text}` });
    ev({ kind: "stream", value: { type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: `t${ts}`, name: "Bash", input: { command: text } }] } } });
    ev({ kind: "stream", value: { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${ts - 1}`, content: text.repeat(3) + "\n" + "more\n".repeat(5), is_error: true }] } } });
  }
  lines.push(`<script>window.__pwned = 8</script>`);
  lines.push(`{"type": "<img src=x onerror=window.__pwned=9>"}`);
  ev({ kind: "turn_end", ok: false, note: `<script>window.__pwned=10</script>` });
  return lines.join("\n") + "\n";
}

/** The content type of a POST of JSON lines (the server refuses typeless, form-like posts). */
export const NDJSON = { "content-type": "application/x-ndjson" };

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

/** Starts `hiveterm serve` (binary `bin`) on 127.0.0.1:`port` with the SQLite file `db` and
 * the page from dist/, and waits until it answers. `stop()` ends it (and waits for its exit);
 * starting again on the same port and db is a restart. */
export async function startServe(bin, { port, db, args = [] }) {
  const proc = spawn(bin, ["serve", "--addr", `127.0.0.1:${port}`, "--db", db, "--static", DIST, ...args], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const done = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await done;
  };
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/sessions`)).ok) return { proc, port, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error("hiveterm serve did not start");
}

const grouped = (n) => n.toLocaleString("en-US");
const count = (n, thing) => `${grouped(n)} ${thing}${n === 1 ? "" : "s"}`;
const dollars = (usd) => (usd < 1 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`);
/** The summary header's strings for `s` (the JSON of `hiveterm summary --json`), written as
 * app/src/model/summary/mod.rs writes them, by the header's `data-k`. */
/** An agent's name as the header writes it (`codex` → `Codex`), with its version. */
function agentLabel(agent, version) {
  const name = { "claude-code": "Claude Code", codex: "Codex", gemini: "Gemini CLI" }[agent] ?? agent;
  return version == null ? name : `${name} ${version}`;
}

export function summaryStrings(s) {
  let turns = count(s.turns, "turn");
  for (const [n, what] of [[s.turns_ok, "ok"], [s.turns_failed, "failed"], [s.turns_interrupted, "interrupted"]]) {
    if (n > 0) turns += ` · ${grouped(n)} ${what}`;
  }
  const tokens = [[s.input_tokens, "in"], [s.output_tokens, "out"], [s.cache_read_tokens, "cache read"], [s.cache_creation_tokens, "cache write"]]
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${grouped(n)} ${what}`)
    .join(" · ");
  return {
    turns,
    tool_calls: grouped(Object.values(s.tool_calls).reduce((a, b) => a + b, 0)),
    errors: count(s.errors, "error"),
    warnings: count(s.warnings, "warning"),
    tokens: tokens || "—",
    // No line says what the run cost (Codex and Gemini never do): unknown, never $0.
    cost: s.cost_usd == null ? "unknown" : dollars(s.cost_usd),
    agent: s.agent == null ? "—" : agentLabel(s.agent, s.agent_version),
    models: s.models.length ? s.models.join(", ") : "—",
    subagents: grouped(s.subagents),
    files_changed: grouped(s.files_changed.length),
  };
}

/** The summary header's figures, by `data-k` (the header opened first). */
export async function summaryFigures(page) {
  await page.waitForSelector(".summary-header:not([hidden])");
  if (!(await page.$(".summary-header[open]"))) await page.click(".summary-header > summary .sh-line");
  await page.waitForSelector(".summary-header[open] .sh-figures");
  return page.$$eval(".summary-header [data-k]", (els) => Object.fromEntries(els.map((e) => [e.dataset.k, e.textContent])));
}
