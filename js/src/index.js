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

// load starts one instance of the rules and returns its functions.
export async function load(source = new URL("./gamerules.wasm", import.meta.url)) {
  const go = new globalThis.Go();
  const instance = await instantiate(source, go.importObject);
  const before = globalThis.gamerules;
  go.run(instance); // runs main until it waits for calls; never resolves
  const g = globalThis.gamerules;
  if (!g || g === before || typeof g.call !== "function") throw new Error("gamerules: the wasm did not register globalThis.gamerules");
  const call = (method, request) => g.call(method, request === undefined ? "" : request);
  return {
    call,
    request(method, request) {
      const answer = JSON.parse(call(method, request));
      if (isStatus(answer)) throw new GameRulesError(answer);
      return answer;
    },
  };
}
