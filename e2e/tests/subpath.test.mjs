// The built page works from a subfolder of any static host: dist/ served below
// /tools/hiveterm/ (and nothing at the root), a log opened there starts the worker next to
// the page, shows its rows, asks for nothing outside the folder and logs no error.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { ROOT, SHOTS, openPage, openLog, rowFacts, staticPageHooks } from "../lib.mjs";

const PREFIX = "/tools/hiveterm";
const env = staticPageHooks({ prefix: PREFIX });

for (const at of ["", "index.html"]) {
  test(`a log opened at ${PREFIX}/${at}`, async () => {
    const page = await openPage(env.browser, env.server.url + at);
    const requests = [];
    page.on("request", (r) => requests.push(new URL(r.url()).pathname));
    // The worker starts with the page: loaded again, now that its requests are listened to.
    await page.reload();
    await openLog(page, path.join(ROOT, "fixtures/claude-code-2.1.332/file_tools.stream.jsonl"));
    await page.waitForSelector(".live .row");
    const facts = await rowFacts(page);
    assert.ok(facts.length > 5, `rows shown: ${facts.length}`);
    assert.ok(facts.every((f) => /^\d+$/.test(f.seq)), "every row has its seq");
    assert.match(await page.$eval(".shown", (e) => e.textContent), /^\d+ rows$/);
    // The worker came from the folder, and so did everything else.
    assert.ok(requests.includes(`${PREFIX}/worker_loader.js`), `worker loaded from the folder: ${requests}`);
    assert.ok(requests.some((r) => r.startsWith(`${PREFIX}/worker_bg`) || r === `${PREFIX}/worker_bg.wasm`), `worker wasm: ${requests}`);
    const assets = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname));
    const outside = assets.filter((p) => !p.startsWith(`${PREFIX}/`));
    assert.deepEqual(outside, [], "nothing asked for outside the folder");
    assert.deepEqual(page.failed, [], "no failed answers");
    assert.deepEqual(page.errors, [], "no console errors");
    assert.deepEqual(page.remoteRequests, []);
    if (!at) await page.screenshot({ path: path.join(SHOTS, "subpath.png") });
    await page.context().close();
  });
}
