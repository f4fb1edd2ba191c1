// The WebAssembly build answers as the server does: every README example
// (the cases wasm's TestCallMatchesREST writes, GAMERULES_WASM_CASES) and a
// whole seeded game of each of the four games, played in lockstep, must
// give byte-identical answers from gamerules.call and from the running
// server's REST API (GAMERULES_HTTP, e.g. http://127.0.0.1:8080). An error
// answer must be the same google.rpc.Status JSON value (protojson, which
// writes it, varies its spacing between binaries, and the space after
// "proto:" in its decoding errors); RenderState's HttpBody
// must hold the REST answer's bytes and content type. js/test.sh sets both
// variables; without them this file is skipped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { load } from "../dist/index.js";

const base = process.env.GAMERULES_HTTP;
const casesFile = process.env.GAMERULES_WASM_CASES;
const skip = !base || !casesFile ? "set GAMERULES_HTTP and GAMERULES_WASM_CASES (js/test.sh does)" : false;

const rules = skip ? null : await load();

async function rest(method, path, body) {
  const init = method === "POST" ? { method, headers: { "Content-Type": "application/json" }, body } : {};
  const resp = await fetch(base + path, init);
  return { status: resp.status, contentType: resp.headers.get("Content-Type"), bytes: Buffer.from(await resp.arrayBuffer()) };
}

// same asserts that a wasm answer is the REST answer r.
function same(what, rpc, answer, r) {
  if (r.status !== 200) {
    // protobuf-go writes the space after "proto:" in its errors as a
    // space or a no-break space, chosen per binary (its detrand), so
    // that no one depends on the text: the two binaries may differ there.
    const norm = (s) => JSON.parse(s.replaceAll("\u00a0", " "));
    assert.deepEqual(norm(answer), norm(r.bytes.toString("utf8")), `${what}: error answers differ`);
    return;
  }
  if (rpc === "RenderState") {
    const hb = JSON.parse(answer);
    assert.equal(hb.contentType, r.contentType, `${what}: content type`);
    assert.ok(Buffer.from(hb.data, "base64").equals(r.bytes), `${what}: image bytes differ`);
    return;
  }
  assert.equal(answer, r.bytes.toString("utf8"), `${what}: answers differ`);
}

const seedField = /"seed":"[0-9]+"/g;

test("every README example: wasm answers as the server", { skip }, async () => {
  const cases = JSON.parse(readFileSync(casesFile, "utf8"));
  assert.ok(cases.length >= 15, `only ${cases.length} README cases`);
  for (const c of cases) {
    const r = await rest(c.httpMethod, c.path, c.body);
    let request = JSON.stringify(c.request);
    const drawn = !request.includes('"seed"') && r.status === 200;
    if (drawn && (c.rpc === "NewGame" || c.rpc === "ReplayGame")) {
      // The server drew the seed: the wasm is given it.
      request = request.slice(0, -1) + `,"seed":"${JSON.parse(r.bytes).seed}"}`;
    }
    let answer = rules.call(c.rpc, request);
    if (drawn) {
      // A seed drawn inside (ImportRecord's replay): the server's.
      const seeds = r.bytes.toString("utf8").match(seedField) || [];
      let i = 0;
      answer = answer.replace(seedField, (s) => (i < seeds.length ? seeds[i++] : s));
    }
    same(c.line, c.rpc, answer, r);
  }
});

// rng is a small seeded generator (mulberry32), for the moves played.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const games = {
  backgammon: {},
  abalone: { abalone: { maxPlies: 200 } }, // random Abalone rarely ends otherwise
  labyrinth: { labyrinth: { players: 2 } },
  gravity_trap: {},
};

for (const [game, options] of Object.entries(games)) {
  test(`a whole ${game} game: wasm answers every call as the server`, { skip }, async () => {
    const pick = rng(7);
    // both sends one request to both and returns the parsed answer.
    const both = async (rpc, verb, req) => {
      const answer = rules.call(rpc, JSON.stringify({ game, ...req }));
      const r = await rest("POST", `/v1/games/${game}:${verb}`, JSON.stringify(req));
      assert.equal(r.status, 200, `${rpc} ${JSON.stringify(req)}: HTTP ${r.status} ${r.bytes}`);
      same(`${game} ${rpc}`, rpc, answer, r);
      return JSON.parse(answer);
    };
    const ng = await both("NewGame", "new", { seed: "3", ...options });
    let state = ng.state;
    let moves = (await both("LegalMoves", "legalMoves", { state })).moves;
    let plies = 0;
    let finished = false;
    while (moves.length > 0) {
      assert.ok(plies < 20000, `${game}: not finished after ${plies} plies`);
      const move = moves[Math.floor(pick() * moves.length)];
      const seed = String(Math.floor(pick() * 2 ** 32));
      const am = await both("ApplyMove", "applyMove", { state, move: { notation: move.notation }, seed, includeLegalMoves: true });
      state = am.state;
      moves = am.next.moves; // v1: the next moves, present with includeLegalMoves
      finished = am.finished;
      plies++;
      if (plies % 25 === 0 || moves.length === 0) {
        await both("Score", "score", { state });
        await both("RenderState", "render", { state });
      }
    }
    assert.ok(finished, `${game}: no legal move but not finished`);
    assert.ok(plies > 2, `${game}: only ${plies} plies`);
  });
}
