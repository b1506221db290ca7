// hiveterm export: boots the page from the blocks of this file (onefile/src/html.rs).
// Runs after the page's wasm-bindgen glue, in the same module; asks nothing of any server.
// __PAGE_INIT__, __WORKER_INIT__ and __MDWORKER_INIT__ are replaced by the name of each
// glue's init function.
{
  // A block's text and its data-bytes, the element then removed.
  const block = (id) => {
    const el = document.getElementById(id);
    const text = el.textContent;
    const n = Number(el.dataset.bytes);
    el.remove();
    return [text, n];
  };
  // The n bytes of a text7 block (onefile/src/text7.rs): 7 bits a character, most
  // significant first; U+0080–U+037F is a forbidden group (NUL, CR, '<') and the next one.
  const text7 = (s, n) => {
    const forbidden = [0, 13, 60];
    const out = new Uint8Array(n);
    let acc = 0, bits = 0, o = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      let g = c, more = -1;
      if (c >= 128) {
        const k = c >> 7;
        g = forbidden[(k - 1) % 3];
        if (k <= 3) more = c & 127;
      }
      acc = (acc << 7) | g;
      bits += 7;
      if (bits >= 8) {
        bits -= 8;
        out[o++] = acc >> bits;
        acc &= (1 << bits) - 1;
      }
      if (more >= 0) {
        acc = (acc << 7) | more;
        bits += 7;
        if (bits >= 8) {
          bits -= 8;
          out[o++] = acc >> bits;
          acc &= (1 << bits) - 1;
        }
      }
    }
    return out;
  };
  // Raw DEFLATE bytes, inflated by the browser as they are read.
  const inflate = (z) => new Blob([z]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  performance.mark("hiveterm:boot");
  const meta = JSON.parse(block("hiveterm-export")[0]);
  // The page's wasm starts compiling first (off this thread, as it is inflated); it runs only
  // after this block, which sets up the rest meanwhile.
  const app = new Response(inflate(text7(...block("hiveterm-app-wasm"))), {
    headers: { "content-type": "application/wasm" },
  });
  const started = __PAGE_INIT__({ module_or_path: app });
  // A worker: its glue (made a classic script by the exporter: from file:// Chromium starts
  // no module worker from a blob: URL), then its wasm, carried deflated in its own source and
  // compiled as it is inflated, as a blob: URL (the CSP's worker-src). The classifier's, and
  // the markdown renderer's.
  const workerUrl = (js, wasm, init) => {
    const [z, n] = block(wasm);
    const source = `${block(js)[0]}
const text7 = ${text7};
const inflate = ${inflate};
${init}({ module_or_path: new Response(inflate(text7(${JSON.stringify(z)}, ${n})), { headers: { "content-type": "application/wasm" } }) });
`;
    return URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  };
  // A comparison's file carries no worker (onefile/src/compare.rs): none is made.
  const carried = (js) => document.getElementById(js) !== null;
  const worker = carried("hiveterm-worker-js")
    ? workerUrl("hiveterm-worker-js", "hiveterm-worker-wasm", "__WORKER_INIT__")
    : null;
  const mdworker = carried("hiveterm-mdworker-js")
    ? workerUrl("hiveterm-mdworker-js", "hiveterm-mdworker-wasm", "__MDWORKER_INIT__")
    : null;
  // The rows: JSON lines, inflated as they are read, from the data blocks in turn. This
  // script is async: it runs as soon as the parser has read it, and the blocks after it may
  // not be parsed yet; a block is whole once the parser is past it.
  const pieces = Number(document.getElementById("hiveterm-data").dataset.pieces || 1);
  const parsed = (id) =>
    new Promise((resolve) => {
      const done = () => {
        const el = document.getElementById(id);
        return (el && el.nextSibling) || document.readyState !== "loading";
      };
      if (done()) return resolve();
      const watch = new MutationObserver(() => {
        if (done()) {
          watch.disconnect();
          resolve();
        }
      });
      watch.observe(document.body, { childList: true });
      document.addEventListener("readystatechange", () => {
        watch.disconnect();
        resolve();
      }, { once: true });
    });
  // A task of its own for each block after the first (so the page draws in between).
  const yieldTask = () => new Promise((resolve) => setTimeout(resolve, 0));
  const rows = new DecompressionStream("deflate-raw");
  const feed = rows.writable.getWriter();
  (async () => {
    feed.write(text7(...block("hiveterm-data")));
    for (let i = 1; i < pieces; i++) {
      const id = `hiveterm-data-${i}`;
      await Promise.all([parsed(id), feed.ready, yieldTask()]);
      feed.write(text7(...block(id)));
    }
    feed.close();
  })().catch((e) => feed.abort(e));
  const reader = rows.readable.getReader();
  let first = true;
  window.hivetermExport = {
    meta,
    worker,
    mdworker,
    next: async () => {
      const r = await reader.read();
      if (first) {
        first = false;
        performance.mark("hiveterm:rows");
      }
      return r.done ? null : r.value;
    },
  };
  await started;
  performance.mark("hiveterm:started");
}
