// A log whose text is full of HTML, script and javascript: links executes nothing, loads
// nothing remote, and every link it renders opens with rel="noopener noreferrer".
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { SHOTS, openPage, dropLog, markdownRendered, staticPageHooks, hostileLog } from "../lib.mjs";

const env = staticPageHooks();

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
