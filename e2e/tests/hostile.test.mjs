// A log whose text is full of HTML, script and javascript: links executes nothing, loads
// nothing remote, and every link it renders opens with rel="noopener noreferrer".
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { SHOTS, openPage, dropLog, markdownRendered, staticPageHooks } from "../lib.mjs";

const env = staticPageHooks();

const NASTY = [
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
  "\u001b]8;;https://evil.example.com\u0007osc link\u001b]8;;\u0007 and \u001b[31mred\u001b[0m",
];

function hostileLog() {
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

test("a hostile log executes nothing and loads nothing remote", async () => {
  const page = await openPage(env.browser, env.server.url);
  await dropLog(page, "hostile.jsonl", hostileLog());
  // Open every row so every body is in the DOM, then give handlers a chance to run.
  await page.keyboard.press("e");
  await markdownRendered(page);
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, "no injected script ran");
  assert.deepEqual(page.remoteRequests, [], "no remote requests");
  const scripts = await page.$$eval(".live script, .live iframe, .live object, .live style, .live link, .live svg", (e) => e.length);
  assert.equal(scripts, 0, "no active elements from the log");
  const handlers = await page.$$eval(".live *", (els) => els.filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length);
  assert.equal(handlers, 0, "no event-handler attributes");
  // The page's own row permalinks are in-page anchors; every other link came from the log.
  const rowLinks = await page.$$eval(".live a.row-link", (as) => as.map((a) => a.getAttribute("href")));
  assert.ok(rowLinks.length > 0 && rowLinks.every((h) => /^#\d+$/.test(h)), `row links: ${rowLinks}`);
  const links = await page.$$eval(".live a:not(.row-link)", (as) => as.map((a) => ({ href: a.getAttribute("href"), rel: a.getAttribute("rel") })));
  for (const l of links) {
    assert.ok(!/^\s*javascript:/i.test(l.href ?? ""), `javascript: link ${l.href}`);
    assert.equal(l.rel, "noopener noreferrer");
  }
  const remoteImgs = await page.$$eval(".live img", (is) => is.map((i) => i.getAttribute("src")).filter((s) => s && !s.startsWith("data:")));
  // Any remote image left in the markup is blocked by the CSP (img-src 'self' data:); none loads.
  if (remoteImgs.length) console.log(`  note: ${remoteImgs.length} remote <img> left in markup, blocked by CSP`);
  const text = await page.$eval(".live", (e) => e.textContent);
  assert.ok(!text.includes("\u001b"), "no raw escape sequences");
  assert.deepEqual(page.errors.filter((e) => !/Content Security Policy|img-src/.test(e)), []);
  await page.screenshot({ path: path.join(SHOTS, "hostile.png") });
  await page.context().close();
});
