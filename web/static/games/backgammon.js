// Backgammon in the playground (app.js lists the hooks): the cube and match
// options, White and Black, the match line, the board drawn from either
// side, and the play made die by die on the board: the server draws the
// board after the hops so far (RenderState's partialPlay) and lists the
// plays they start and the hops that may follow; clicks are matched
// against those lists (no rules here). The board's points carry
// data-point-0/data-point-1, the point's name in each player's notation.
export default (page) => {
  const { $, enumIndex } = page;
  const pointMaps = {}; // side -> [player] -> {notation name: board name}, read from the board's data-point-N

  // paths are the checker paths of a play's notation.
  const paths = (n) => n.split(" ").map((tok) => tok.replace(/\(\d+\)$/, "").replace(/\*/g, "").split("/"));
  const isPlay = (n) => /\//.test(n);
  const toAct = (st) => (st.backgammon ? enumIndex(st.backgammon.turn, ["WHITE", "BLACK"]) : -1);
  const seatNames = () => ["White", "Black"];
  const inMovePhase = (st) => Boolean(st.backgammon) && enumIndex(st.backgammon.phase, ["OPENING", "ROLL", "MOVE", "OVER"]) === 2;

  // The play in progress, die by die: the hops made so far ("8/5", in the
  // mover's notation) in the state hopsOf. The server draws the board
  // after them (RenderState's partialPlay) and says, on the board's
  // #partial group, which plays they start (data-plays), which hops may
  // come next (data-next) and whether they make a whole play: the page
  // only matches clicks against those lists.
  let hops = [];
  let hopsOf = null;
  let partial = null; // {plays, next: [[from, to]], complete} of the last board drawn
  const current = () => {
    if (hopsOf !== page.cur()) { hops = []; hopsOf = page.cur(); partial = null; }
    return hops;
  };
  // playing: a play in progress is drawn (a person's move phase with plays).
  const playing = () => inMovePhase(page.cur()) && page.moves.some(isPlay);

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

  // readPartial reads the #partial group of the board just drawn.
  function readPartial() {
    const el = $("board").querySelector("#partial");
    if (!el) { partial = null; return; }
    const plays = el.getAttribute("data-plays");
    const next = el.getAttribute("data-next");
    partial = {
      plays: plays ? plays.split("|") : [],
      next: next ? next.split(" ").map((h) => h.replace(/\*$/, "").split("/")) : [],
      complete: el.getAttribute("data-complete") === "true",
    };
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

  const sources = () => (partial ? partial.next.map((h) => h[0]) : []);
  const targetsFrom = (from) => (partial ? partial.next.filter((h) => h[0] === from).map((h) => h[1]) : []);

  // hop makes the hop from→to (a next hop the server listed) and redraws;
  // when the hops leave one legal play, it is played.
  async function hop(from, to) {
    current().push(`${from}/${to}`);
    page.selection = [];
    await page.reselect();
    if (partial && partial.plays.length === 1) {
      await page.play(partial.plays[0]);
    } else if (partial && partial.plays.length > 1) {
      page.say(`${hops.join(" ")}: ${partial.plays.length} plays go on from here.`);
    }
  }

  async function undoHop() {
    if (!current().length) return;
    hops.pop();
    page.selection = [];
    await page.reselect();
  }

  // dragHop is a hop dragged with the mouse from fromEl to toEl (as the
  // two clicks).
  function dragHop(fromEl, toEl) {
    if (!playing()) { page.say("No checker moves now: the list holds the moves.", true); return; }
    current();
    const me = toAct(page.cur());
    const a = fromEl.getAttribute(`data-point-${me}`), b = toEl.getAttribute(`data-point-${me}`);
    if (a && b && targetsFrom(a).includes(b)) { hop(a, b); return; }
    page.say(`No legal play moves a checker from ${a || "there"} to ${b || "there"} now.`, true);
  }

  // click: the first click picks a checker (a point, or the bar) that a
  // listed next hop starts from; the second a point (or the tray) it goes
  // to. A click on another checker that can move picks it instead.
  function click(el) {
    if (!el.dataset.point) return;
    if (!playing()) { page.say("No checker moves now: the list holds the moves.", true); return; }
    current();
    const me = toAct(page.cur());
    const p = el.getAttribute(`data-point-${me}`);
    const board = el.id.replace(/^point-/, "");
    const selection = page.selection;
    if (selection.length && board === selection[0]) { page.selection = []; page.reselect(); return; } // a second click on it unselects
    if (selection.length && p && targetsFrom(selection[1]).includes(p)) { hop(selection[1], p); return; }
    if (p && sources().includes(p)) { page.selection = [board, p]; page.reselect(); return; }
    if (selection.length) page.say(`No legal play moves a checker from ${selection[1]} to ${p || "there"} now.`, true);
    else page.say(`No checker of ${seatNames()[me]} can move from there now.`, true);
    page.selection = [];
    page.reselect();
  }

  return {
    label: "Backgammon",
    order: 0,
    hint: "Play die by die: click a checker (or the bar), then where it goes (the tray to bear off), or drag it there; a point two dice away moves it with both. The board shows the play so far, the dice used grey; “Undo step” takes back the last. The play is made when it is whole or only one play is left. Roll with the button, or pick any move from the list.",
    controls: `<button id="bg-undo-step" type="button" disabled title="Take back the last checker moved this turn (Backspace)">Undo step</button>`,
    setup() {
      $("bg-undo-step").addEventListener("click", undoHop);
      // Drag and drop with a mouse: press on a checker, release where it
      // goes. (A press and release on one point is a click; touch keeps
      // the page's scrolling, and a tap plays as a click.)
      const board = $("board");
      let down = null;
      board.addEventListener("pointerdown", (ev) => {
        down = ev.pointerType === "mouse" && ev.button === 0 && board.querySelector('svg[data-game="backgammon"]') ? ev.target.closest("[data-point]") : null;
      });
      board.addEventListener("pointerup", (ev) => {
        const from = down;
        down = null;
        if (!from || ev.pointerType !== "mouse") return;
        const at = document.elementFromPoint(ev.clientX, ev.clientY);
        const to = at && at.closest("[data-point]");
        if (!to || to === from || !board.contains(to)) return; // a click: the page's click handler takes it
        if (page.boardOpen()) dragHop(from, to);
      });
      document.addEventListener("keydown", (ev) => {
        if (ev.key === "Backspace" && !ev.target.closest("input,textarea,select") && hops.length) { ev.preventDefault(); undoHop(); }
      });
    },
    options: `<label><input id="bg-cube" type="checkbox"> Doubling cube</label>
    <label>Match to <input id="bg-match" type="number" min="0" max="64" value="0" size="3"> points (0: money game)</label>`,
    newGameOptions() {
      const o = {};
      if ($("bg-cube").checked) o.cube = true;
      const ml = Number($("bg-match").value);
      if (ml > 0) o.matchLength = ml;
      return o;
    },
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
    renderOptions() {
      const h = current();
      return playing() ? { partialPlay: h.join(" ") } : {};
    },
    painted() {
      readPartial();
      const on = playing() && partial;
      $("bg-undo-step").disabled = !(on && hops.length);
      // The list shows the plays the hops so far start.
      for (const b of $("moves").querySelectorAll("button.move")) b.parentElement.hidden = Boolean(on && hops.length && !partial.plays.includes(b.dataset.notation));
    },
    destinations() {
      const selection = page.selection;
      if (!selection.length) return [];
      const me = toAct(page.cur());
      return targetsFrom(selection[1]).map((q) => boardName(me, q)).filter(Boolean); // the selection is [board name, notation name]
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
