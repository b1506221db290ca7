// Writes a large, realistic Claude Code transcript (default 100,000 lines, about 150 MB):
// turns of prompts, thinking, assistant markdown, tool calls (Bash, Read, Edit, Grep) and
// their results, some of them errors, plus the bookkeeping lines transcripts carry.
// Usage: node e2e/gen-big-log.mjs OUT.jsonl [LINES]
import fs from "node:fs";

const out = process.argv[2];
const lines = Number(process.argv[3] || 100_000);
if (!out) {
  console.error("usage: node gen-big-log.mjs OUT.jsonl [LINES]");
  process.exit(2);
}
const fd = fs.openSync(out, "w");
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (a) => a[Math.floor(rnd() * a.length)];
const session = "5f2b8c1e-7d41-4a0e-9a6b-0c2d9e8f7a61";
let t = Date.parse("2026-11-30T02:00:00Z");
let n = 0;
let uuid = 0;
const id = () => `00000000-0000-4000-8000-${String(++uuid).padStart(12, "0")}`;
const words = "the build fails because the parser reads a line twice when the buffer ends exactly at a newline so we fix the reader and add a test for it".split(" ");
const sentence = (k) => Array.from({ length: k }, () => pick(words)).join(" ");
const code = (k) => Array.from({ length: k }, (_, i) => `    let x${i} = parse(&line[${i}..]).unwrap_or_default(); // ${sentence(6)}`).join("\n");

function base(type, extra) {
  t += Math.floor(rnd() * 4000);
  return { parentUuid: uuid ? `00000000-0000-4000-8000-${String(uuid).padStart(12, "0")}` : null, isSidechain: false, type, ...extra, uuid: id(), timestamp: new Date(t).toISOString(), userType: "external", entrypoint: "cli", cwd: "/home/dev/work/big", sessionId: session, version: "2.1.332", gitBranch: "main" };
}
function write(obj) {
  fs.writeSync(fd, JSON.stringify(obj) + "\n");
  n++;
}
const assistant = (content) => base("assistant", { message: { id: `msg_${uuid}`, type: "message", role: "assistant", model: "claude-opus-5-5", content, stop_reason: null, usage: { input_tokens: 1200, output_tokens: 300, cache_read_input_tokens: 50000 } }, requestId: `req_${uuid}` });
const result = (toolId, content, isError = false) => base("user", { message: { role: "user", content: [{ tool_use_id: toolId, type: "tool_result", content, is_error: isError }] }, toolUseResult: { stdout: content.slice(0, 200), stderr: "", interrupted: false } });

while (n < lines) {
  write(base("user", { message: { role: "user", content: `Turn ${n}: ${sentence(30)}` }, promptId: id() }));
  const steps = 8 + Math.floor(rnd() * 8);
  for (let s = 0; s < steps && n < lines; s++) {
    const k = rnd();
    if (k < 0.15) {
      write(assistant([{ type: "thinking", thinking: sentence(60), signature: "x".repeat(200) }]));
    } else if (k < 0.35) {
      write(assistant([{ type: "text", text: `## Step ${s}\n\n${sentence(40)}\n\n- ${sentence(8)}\n- ${sentence(8)}\n\n\`\`\`rust\n${code(6)}\n\`\`\`` }]));
    } else {
      const tid = `toolu_${uuid}`;
      const tool = pick(["Bash", "Read", "Edit", "Grep"]);
      const input = tool === "Bash" ? { command: `cargo test -p classifier ${pick(words)}`, description: sentence(5) }
        : tool === "Read" ? { file_path: `/home/dev/work/big/src/${pick(words)}.rs` }
        : tool === "Edit" ? { file_path: `/home/dev/work/big/src/lib.rs`, old_string: code(3), new_string: code(4) }
        : { pattern: pick(words), path: "src" };
      write(assistant([{ type: "tool_use", id: tid, name: tool, input }]));
      if (n >= lines) break;
      const err = rnd() < 0.03;
      const body = err ? `<tool_use_error>${sentence(12)}</tool_use_error>` : code(15 + Math.floor(rnd() * 20));
      write(result(tid, body, err));
    }
  }
  if (n < lines) write({ type: "file-history-snapshot", messageId: id(), snapshot: { messageId: id(), trackedFileBackups: {}, timestamp: new Date(t).toISOString() }, isSnapshotUpdate: false });
}
fs.closeSync(fd);
console.log(`${out}: ${n} lines, ${(fs.statSync(out).size / 1e6).toFixed(1)} MB`);
