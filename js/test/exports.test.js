// index.js calls the wasm through its exported functions (gamerules_request
// and gamerules_call, wasm/main.go), not through the callback the wasm
// registers as globalThis.gamerules.call (syscall/js): both must answer
// every request alike, byte for byte, whatever the caller passes (text
// beyond ASCII, a lone surrogate, an object, no request, a request that is
// neither text nor an object, an unknown method, a request larger than the
// buffer the wasm keeps between calls).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import "../dist/wasm_exec.js";
import { load } from "../dist/index.js";

const wasm = new URL("../dist/gamerules.wasm", import.meta.url);

// syscallCall is the wasm's own globalThis.gamerules.call, from an
// instance started without index.js.
async function syscallCall() {
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(await readFile(wasm), go.importObject);
  go.run(instance);
  return globalThis.gamerules.call;
}

test("the exports answer as the wasm's callback", async () => {
  const slow = await syscallCall();
  const rules = await load(wasm);
  assert.equal(typeof rules.call, "function");
  assert.notEqual(globalThis.gamerules.call, slow, "load() routes globalThis.gamerules.call through the exports");
  const bg = { game: "backgammon", state: { text: "4HPwATDgc/ABMA:MIEFAAAAAAAE" } };
  const big = { requests: Array.from({ length: 3000 }, () => ({ legalMoves: bg })) }; // about 1.7 MB of JSON
  const cases = [
    ["ListGames", ""],
    ["ListGames", undefined],
    ["NewGame", { game: "labyrinth", seed: "7" }],
    ["LegalMoves", JSON.stringify(bg)],
    ["LegalMoves", bg],
    ["ApplyMove", { ...bg, move: { notation: "24/23 24/21" } }],
    ["ApplyMove", { ...bg, move: { notation: "24/23 24/21 é 🎲" } }],
    ["ApplyMove", `{"game":"backgammon","state":{"text":"4HPwATDgc/ABMA:MIEFAAAAAAAE"},"move":{"notation":"\ud800"}}`],
    ["ApplyMove", `{"game":"backgammon","state":{"text":"4HPwATDgc/ABMA:MIEFAAAAAAAE"},"move":{"notation":"x\u{1F3B2}"}}`],
    ["LegalMoves", "{not json"],
    ["LegalMoves", 42],
    ["LegalMoves", null],
    ["LegalMoves", true],
    ["Nope", "{}"],
    ["", "{}"],
    [7, "{}"],
    ["RenderState", { game: "gravity_trap", state: { text: "RoooBooooooooooooooooo r" } }],
    ["Batch", big],
    ["LegalMoves", bg], // after the large buffer was dropped
  ];
  for (const [method, request] of cases) {
    const what = `${String(method)}(${typeof request === "string" ? request.slice(0, 60) : typeof request})`;
    const want = slow(method, request);
    assert.equal(typeof want, "string", what);
    assert.equal(globalThis.gamerules.call(method, request), want, what);
    if (typeof method === "string") assert.equal(rules.call(method, request === undefined ? "" : request), want, what);
  }
});
