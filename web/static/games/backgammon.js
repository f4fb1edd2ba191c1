// Backgammon in the playground (app.js lists the hooks): the cube and match
// options, White and Black, the match line, the board drawn from either
// side, and point-to-point clicks matched against the listed plays'
// checker paths. The board's points carry data-point-0/data-point-1, the
// point's name in each player's notation (RenderState).
export default (page) => {
  const { $, enumIndex } = page;
  const pointMaps = {}; // side -> [player] -> {notation name: board name}, read from the board's data-point-N

  // paths are the checker paths of a play's notation.
  const paths = (n) => n.split(" ").map((tok) => tok.replace(/\(\d+\)$/, "").replace(/\*/g, "").split("/"));
  const isPlay = (n) => /\//.test(n);
  const toAct = (st) => (st.backgammon ? enumIndex(st.backgammon.turn, ["WHITE", "BLACK"]) : -1);
  const seatNames = () => ["White", "Black"];

  // boardName maps a name in player's notation to the board's name (from
  // the data-point-N attributes the board carries).
  function boardName(player, n) {
    const m = pointMaps[page.side] && pointMaps[page.side][player];
    return m ? m[n] : undefined;
  }
  function readPointMap() {
    if (pointMaps[page.side]) return;
    const maps = [{}, {}];
    for (const el of $("board").querySelectorAll("[data-point]")) {
      const name = el.id.replace(/^point-/, "");
      for (const p of [0, 1]) {
        const n = el.getAttribute(`data-point-${p}`);
        if (n) maps[p][n] = name;
      }
    }
    pointMaps[page.side] = maps;
  }

  // match is the match and cube of st: {length, scores, cube, value, owner} (owner a seat or -1).
  function match(st) {
    const b = st.backgammon || {};
    const c = b.cube; // present exactly when the cube is in use (v1)
    return {
      length: Number((b.match && b.match.length) || 0),
      scores: [Number(b.whiteScore || 0), Number(b.blackScore || 0)],
      cube: Boolean(c),
      value: Number((c && c.value) || 1),
      owner: enumIndex(c && c.owner, ["WHITE", "BLACK"]),
    };
  }

  // click: a play matches from→to when one of its checker paths passes
  // from and later to (notation from the mover's side: the board's
  // data-point-<mover> names it). One match is played; several are listed.
  function click(el) {
    if (!el.dataset.point) return;
    const moves = page.moves;
    const me = toAct(page.cur());
    const p = el.getAttribute(`data-point-${me}`);
    const board = el.id.replace(/^point-/, "");
    const selection = page.selection;
    if (selection.length === 0) {
      if (p && moves.some((n) => paths(n).some((path) => path.slice(0, -1).includes(p)))) { page.selection = [board, p]; page.reselect(); }
      else { page.say(`No checker of ${seatNames()[me]} can move from there.`, true); page.reselect(); }
      return;
    }
    const from = selection[1];
    if (board === selection[0]) { page.selection = []; page.reselect(); return; } // a second click on it unselects
    const fits = p ? moves.filter((n) => paths(n).some((path) => {
      const i = path.indexOf(from), j = path.lastIndexOf(p);
      return i >= 0 && j > i;
    })) : [];
    page.selection = [];
    if (fits.length === 1) { page.play(fits[0]); return; }
    page.reselect();
    if (fits.length > 1) {
      for (const b of $("moves").querySelectorAll("button.move")) b.parentElement.hidden = !fits.includes(b.dataset.notation);
      page.say(`${fits.length} plays move a checker ${from}→${p}: pick one in the list.`);
    } else {
      page.say(`No legal play moves a checker from ${from} to ${p || "there"}.`, true);
    }
  }

  return {
    label: "Backgammon",
    order: 0,
    hint: "Click a point to move from (green dots show where its checkers can go), then where to (or pick a play from the list). Roll with the button or pick a roll from the list.",
    options: `<label><input id="bg-cube" type="checkbox"> Doubling cube</label>
    <label>Match to <input id="bg-match" type="number" min="0" max="64" value="0" size="3"> points (0: money game)</label>`,
    newGameOptions() {
      const o = {};
      if ($("bg-cube").checked) o.cube = true;
      const ml = Number($("bg-match").value);
      if (ml > 0) o.matchLength = ml;
      return o;
    },
    css: `@media (max-width: 600px) { #board svg[data-game="backgammon"] { min-width: 580px; } }`,
    targets: ["point"],
    toAct,
    seatNames,
    flips: true,
    match(st, names) {
      const m = match(st);
      const parts = [m.length ? `Match to ${m.length}: ${names[0]} ${m.scores[0]} – ${names[1]} ${m.scores[1]}` : "Money game"];
      if (m.cube) parts.push(`cube ${m.value}, ${m.owner >= 0 ? "owned by " + names[m.owner] : "in the middle"}`);
      return { text: parts.join(" · "), cube: m.cube ? String(m.value) : "", owner: m.cube ? String(m.owner) : "" };
    },
    // The point names come from an unmarked board, once per side.
    async beforePaint() {
      if (pointMaps[page.side]) return;
      await page.renderPlain();
      readPointMap();
    },
    destinations() {
      const selection = page.selection;
      if (!selection.length) return [];
      const me = toAct(page.cur());
      const from = selection[1]; // the selection is [board name, notation name]
      const out = new Set();
      for (const n of page.moves) {
        for (const path of paths(n)) {
          const i = path.indexOf(from);
          if (i >= 0) for (const q of path.slice(i + 1)) { const b = boardName(me, q); if (b) out.add(b); }
        }
      }
      return [...out];
    },
    selectedMarks: () => (page.selection.length ? [page.selection[0]] : []),
    // The last move that moved a checker: rolls and cube actions skipped.
    movesPieces: isPlay,
    lastMarks({ move, mover }, add) {
      for (const path of paths(move)) {
        add(boardName(mover, path[0]), "STYLE_LAST_FROM");
        add(boardName(mover, path[path.length - 1]), "STYLE_LAST_TO");
      }
    },
    click,
  };
};
