// @gamerules/wasm: the gamerules rules service compiled to WebAssembly
// (wasm/ in the repository), answering the REST API's JSON in process, in
// Node and in browsers. See README.md beside this file.
import "./wasm_exec.js"; // the Go toolchain's loader: defines globalThis.Go

const isNode = typeof process !== "undefined" && process.versions != null && process.versions.node != null;

// instantiate makes an instance of the wasm source: a compiled module,
// bytes, a Response, or a URL or path (read in Node from the file system,
// elsewhere with fetch).
async function instantiate(source, imports) {
  if (source instanceof WebAssembly.Module) return WebAssembly.instantiate(source, imports);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return (await WebAssembly.instantiate(source, imports)).instance;
  if (typeof Response !== "undefined" && source instanceof Response) return (await WebAssembly.instantiateStreaming(source, imports)).instance;
  const url = source instanceof URL ? source : new URL(source, isNode ? `file://${process.cwd()}/` : globalThis.location.href);
  if (isNode && url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return (await WebAssembly.instantiate(await readFile(url), imports)).instance;
  }
  const resp = await fetch(url);
  if (!resp.ok) throw new Error(`gamerules: fetching ${url}: HTTP ${resp.status}`);
  if (WebAssembly.instantiateStreaming && (resp.headers.get("Content-Type") || "").startsWith("application/wasm")) {
    return (await WebAssembly.instantiateStreaming(resp, imports)).instance;
  }
  return (await WebAssembly.instantiate(await resp.arrayBuffer(), imports)).instance;
}

// isStatus reports whether an answer is an error: a google.rpc.Status. No
// answer message of the API has a "code" field (wasm's
// TestNoAnswerHasCode), so the key tells them apart.
export function isStatus(answer) {
  return answer !== null && typeof answer === "object" && typeof answer.code === "number" && "message" in answer;
}

/** GameRulesError is what request throws for an error answer. */
export class GameRulesError extends Error {
  constructor(status) {
    super(status.message);
    this.name = "GameRulesError";
    this.status = status;
    this.code = status.code;
    this.details = status.details || [];
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// exportedCall is gamerules.call through the wasm's exported functions
// gamerules_request and gamerules_call (wasm/main.go documents them), which
// skip syscall/js's callback (some 20 µs a call): the request is written
// as UTF-8 straight into the module's memory, the answer decoded from it.
// A call the exports do not take as they are (a method that is not a
// string, a request that is neither a string nor an object that
// JSON.stringify turns into one) goes to slow, the wasm's own
// globalThis.gamerules.call, which answers it as before. A wasm without
// the exports gets slow itself.
function exportedCall(exports, slow) {
  if (typeof exports.gamerules_request !== "function" || typeof exports.gamerules_call !== "function") return slow;
  return (method, request) => {
    if (typeof method !== "string") return slow(method, request);
    let body = request;
    if (typeof body !== "string") {
      if (body === null || typeof body !== "object") return slow(method, request);
      try {
        body = JSON.stringify(body);
      } catch {
        return slow(method, request);
      }
      if (typeof body !== "string") return slow(method, request);
    }
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    const cap = 3 * (method.length + body.length);
    if (cap > 0x7fff0000) return slow(method, request); // beyond an int32 address
    const at = exports.gamerules_request(cap) >>> 0;
    const buf = new Uint8Array(exports.mem.buffer, at, cap);
    const m = encoder.encodeInto(method, buf).written;
    const b = encoder.encodeInto(body, buf.subarray(m)).written;
    const r = exports.gamerules_call(m, b);
    const len = Number(r & 0xffffffffn);
    if (len === 0) return "";
    return decoder.decode(new Uint8Array(exports.mem.buffer, Number(r >> 32n) >>> 0, len));
  };
}

// load starts one instance of the rules and returns its functions.
export async function load(source = new URL("./gamerules.wasm", import.meta.url)) {
  const go = new globalThis.Go();
  const instance = await instantiate(source, go.importObject);
  const before = globalThis.gamerules;
  go.run(instance); // runs main until it waits for calls; never resolves
  const g = globalThis.gamerules;
  if (!g || g === before || typeof g.call !== "function") throw new Error("gamerules: the wasm did not register globalThis.gamerules");
  const slow = g.call;
  const fast = exportedCall(instance.exports, slow);
  // globalThis.gamerules.call keeps its contract (the same answers) and
  // goes through the exports too.
  if (fast !== slow) g.call = fast;
  const call = (method, request) => fast(method, request === undefined ? "" : request);
  return {
    call,
    request(method, request) {
      const answer = JSON.parse(call(method, request));
      if (isStatus(answer)) throw new GameRulesError(answer);
      return answer;
    },
  };
}
