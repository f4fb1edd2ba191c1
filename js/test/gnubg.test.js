// The gnubg positions of testdata/backgammon (gnubg 1.07's legal plays,
// testdata/README.md) through the WebAssembly build: LegalMoves with
// results, from the typed state (a Position ID and dice, white on roll),
// must give exactly gnubg's set of next Position IDs, as
// service.TestBackgammonOracle checks natively; and for every 7th row,
// ApplyMove with gnubg's own notation must lead to gnubg's next ID.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { load } from "../dist/index.js";

const rules = await load();

function rows(name) {
  const text = gunzipSync(readFileSync(new URL(`../../testdata/backgammon/${name}`, import.meta.url))).toString("utf8");
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

for (const name of ["gnubg-curated.jsonl.gz", "gnubg-random.jsonl.gz"]) {
  test(`${name}: gnubg's plays`, () => {
    const all = rows(name);
    assert.ok(all.length > 200, `only ${all.length} rows`);
    all.forEach((r, i) => {
      const state = { backgammon: { positionId: r.position_id, dice: r.dice, turn: "BACKGAMMON_PLAYER_WHITE", phase: "BACKGAMMON_PHASE_MOVE" } };
      const lm = rules.request("LegalMoves", { game: "backgammon", state, includeResults: true });
      assert.equal(lm.chance, false, `row ${r.id}: chance in the move phase`);
      const got = lm.moves.filter((m) => m.notation !== "pass").map((m) => m.result.backgammon.positionId).sort();
      const want = r.details.map((d) => d.next_id).sort();
      assert.deepEqual(got, want, `row ${r.id} ${r.position_id} ${r.dice}`);
      if (r.count === 0) assert.deepEqual(lm.moves.map((m) => m.notation), ["pass"], `row ${r.id}`);
      if (i % 7 !== 0) return;
      for (const d of r.details) {
        const am = rules.request("ApplyMove", { game: "backgammon", state, move: { notation: d.gnubg } });
        assert.equal(am.state.text.split(":")[0], d.next_id, `row ${r.id}: ApplyMove(${d.gnubg})`);
      }
    });
  });
}
