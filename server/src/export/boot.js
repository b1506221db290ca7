// hiveterm export: boots the page from the blocks of this file (server/src/export/html.rs).
// Runs after the page's wasm-bindgen glue, in the same module; asks nothing of any server.
// __PAGE_INIT__ and __WORKER_INIT__ are replaced by the name of each glue's init function.
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
  // The worker: its glue, then its wasm started from the bytes carried in its own source.
  const workerSource = `${block("hiveterm-worker-js")}
const b64 = ${JSON.stringify(block("hiveterm-worker-wasm"))};
await __WORKER_INIT__({ module_or_path: Uint8Array.fromBase64 ? Uint8Array.fromBase64(b64) : Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) });
`;
  const worker = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
  // The rows: JSON lines, inflated as they are read.
  const data = new Blob([bytes(block("hiveterm-data"))]);
  const reader = data.stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  window.hivetermExport = {
    meta,
    worker,
    next: async () => {
      const r = await reader.read();
      return r.done ? null : r.value;
    },
  };
  await __PAGE_INIT__({ module_or_path: bytes(block("hiveterm-app-wasm")) });
}
