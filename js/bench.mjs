// Times LegalMoves and ApplyMove (the first legal move) on each state of
// rest/wasmcall/testdata/bench-states.json through the wasm (load()'s
// call: the wasm's exported functions, wasm/main.go), as
// wasm's BenchmarkCall times them natively; prints, per call, the median
// of 5 rounds of about 0.5 s of CPU time each, after 3 s of warm-up on all
// the calls and 1 s on each: cpu-ns/op (the process's
// CPU time, as BenchmarkCall's cpu-ns/op) and ns/op (wall time, which on a
// loaded machine mostly measures the wait for a core). Run after
// js/build.sh:
//   node js/bench.mjs
import { readFileSync } from "node:fs";
import { load } from "./dist/index.js";

// GAMERULES_WASM: another wasm to time (an A/B comparison).
const rules = await load(process.env.GAMERULES_WASM || undefined);
const states = JSON.parse(readFileSync(new URL("../rest/wasmcall/testdata/bench-states.json", import.meta.url), "utf8"));
const cases = [];
for (const st of states) {
  const lm = JSON.stringify({ game: st.game, state: st.state });
  const first = JSON.parse(rules.call("LegalMoves", lm)).moves[0].notation;
  cases.push([`${st.game}/LegalMoves`, "LegalMoves", lm]);
  cases.push([`${st.game}/ApplyMove`, "ApplyMove", JSON.stringify({ game: st.game, state: st.state, move: { notation: first } })]);
}
for (const [name, rpc, req] of cases) {
  if (rules.call(rpc, req).startsWith('{"code":')) throw new Error(`${name}: ${rules.call(rpc, req)}`);
}
// Warm up on all the calls for 3 s of CPU first: V8 optimizes the 12 MB
// module's hot functions in background threads, whose CPU time
// process.cpuUsage counts, and it did so still during the first call's
// rounds (up to 3 ms a call in the first round) with its own warm-up only.
for (const c0 = process.cpuUsage(); (({ user, system }) => user + system)(process.cpuUsage(c0)) < 3_000_000; ) {
  for (const [, rpc, req] of cases) rules.call(rpc, req);
}
for (const [name, rpc, req] of cases) {
  // Warm up for 1 s of CPU: V8 compiles the wasm with its baseline
  // compiler first and optimizes hot functions in the background.
  for (const c0 = process.cpuUsage(); (({ user, system }) => user + system)(process.cpuUsage(c0)) < 1_000_000; ) {
    for (let i = 0; i < 20; i++) rules.call(rpc, req);
  }
  const cpu = [];
  const wall = [];
  for (let r = 0; r < 5; r++) {
    let n = 0;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    let used = 0;
    while (used < 500_000) {
      for (let i = 0; i < 20; i++) rules.call(rpc, req);
      n += 20;
      const c = process.cpuUsage(c0);
      used = c.user + c.system; // µs
    }
    wall.push(Number(process.hrtime.bigint() - t0) / n);
    cpu.push((used * 1000) / n);
  }
  const med = (xs) => Math.round([...xs].sort((a, b) => a - b)[2]);
  console.log(`BenchmarkWasm/${name}\t${med(wall)} ns/op\t${med(cpu)} cpu-ns/op\t(cpu rounds ${cpu.map(Math.round).join(" ")})`);
}
