// hiveterm export: boots the page from the blocks of this file (onefile/src/html.rs).
// Runs after the page's wasm-bindgen glue, in the same module; asks nothing of any server.
// __PAGE_INIT__, __WORKER_INIT__ and __MDWORKER_INIT__ are replaced by the name of each
// glue's init function.
{
  const block = (id) => {
    const el = document.getElementById(id);
    const text = el.textContent;
    el.remove();
    return text;
  };
  const bytes = (b64) =>
    Uint8Array.fromBase64 ? Uint8Array.fromBase64(b64) : Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const meta = JSON.parse(block("hiveterm-export"));
  // A worker: its glue (made a classic script by the exporter: from file:// Chromium starts
  // no module worker from a blob: URL), then its wasm started from the bytes carried in its
  // own source, as a blob: URL (the CSP's worker-src). The classifier's, and the markdown
  // renderer's.
  const workerUrl = (js, wasm, init) => {
    const source = `${block(js)}
const b64 = ${JSON.stringify(block(wasm))};
${init}({ module_or_path: Uint8Array.fromBase64 ? Uint8Array.fromBase64(b64) : Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) });
`;
    return URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  };
  const worker = workerUrl("hiveterm-worker-js", "hiveterm-worker-wasm", "__WORKER_INIT__");
  const mdworker = workerUrl("hiveterm-mdworker-js", "hiveterm-mdworker-wasm", "__MDWORKER_INIT__");
  // The rows: JSON lines, inflated as they are read.
  const data = new Blob([bytes(block("hiveterm-data"))]);
  const reader = data.stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  window.hivetermExport = {
    meta,
    worker,
    mdworker,
    next: async () => {
      const r = await reader.read();
      return r.done ? null : r.value;
    },
  };
  await __PAGE_INIT__({ module_or_path: bytes(block("hiveterm-app-wasm")) });
}
