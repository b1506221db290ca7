// Screenshots of the page for a person to look at (not a test): an offline log and, when a
// `hiveterm serve` is running at $HIVETERM_URL (e.g. `hiveterm serve --demo`), its start page
// and first session. Usage: node e2e/shoot.mjs OUT_DIR [LOG_FILE]
import path from "node:path";
import { serveStatic, launch, openPage, openLog, ROOT } from "./lib.mjs";

const out = process.argv[2] || path.join(ROOT, "e2e", "screenshots");
const log = process.argv[3] || path.join(ROOT, "fixtures", "claude-code-2.1.332", "partial_messages.stream.jsonl");
const browser = await launch();
const server = await serveStatic();
try {
  const page = await openPage(browser, server.url);
  await page.screenshot({ path: path.join(out, "shot-start.png") });
  await openLog(page, log);
  await page.screenshot({ path: path.join(out, "shot-offline.png") });
  await page.click(".summary-header summary").catch(() => {});
  await page.screenshot({ path: path.join(out, "shot-offline-summary.png") });
  console.log("offline errors:", page.errors);
  if (process.env.HIVETERM_URL) {
    const live = await openPage(browser, process.env.HIVETERM_URL);
    await live.waitForSelector(".sessions a", { timeout: 10_000 });
    await live.screenshot({ path: path.join(out, "shot-live-start.png") });
    await live.click(".sessions a");
    await live.waitForSelector(".live .row", { timeout: 10_000 });
    await live.waitForTimeout(1500);
    await live.screenshot({ path: path.join(out, "shot-live.png") });
    console.log("live errors:", live.errors, live.failed);
  }
} finally {
  await browser.close();
  await server.close();
}
