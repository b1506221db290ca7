// The page's Web Worker: loads the page's own wasm (URLs in the query string); its main()
// sees no window and classifies the logs the page sends (app/src/worker.rs).
const q = new URLSearchParams(self.location.search);
const glue = await import(q.get("js"));
await glue.default({ module_or_path: q.get("wasm") });
