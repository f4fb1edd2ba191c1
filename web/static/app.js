// gamerules playground: a client of the public REST API only.
// States are values: the page keeps a history of them, so undo and redo
// need no server. Every board comes from RenderState (with its marks: the
// selection, the legal destinations and the last move), every move list
// from LegalMoves. The page has no game logic of its own: it matches board
// clicks to the listed moves' notations, and the computer player picks
// among the listed moves (or asks the server's Playout, whose greedy
// policy is the page's only game sense).
"use strict";

const $ = (id) => document.getElementById(id);
const app = $("app");

const optKey = { backgammon: "backgammon", abalone: "abalone", labyrinth: "labyrinth", gravity_trap: "gravityTrap" };
const hints = {
  backgammon: "Click a point to move from (green dots show where its checkers can go), then where to (or pick a play from the list). Roll with the button or pick a roll from the list.",
  abalone: "Click the trailing marble (green dots show where it can go), then where it goes; for a broadside click both ends of the group, then where the first goes.",
  labyrinth: "Shift: rotate the spare if you like, then click a marked arrow. Move: click a marked square (your own square to stay).",
  gravity_trap: "Click a marked station: to place your ship during set-up, then to fly along a line.",
};

let game = "backgammon";
let history = []; // [{state, move}] — move is the notation that led to state ("" for the start)
let at = -1; // index into history of the shown state
let moves = []; // the legal moves of the shown state (notations)
let chance = false;
let finished = false;
let selection = []; // board clicks so far (board names: points, cells)
let rotation = 0; // labyrinth: quarter turns for the next shift
let autoplay = null;
let computerTimer = null;
let players = 2;
let side = 0; // backgammon, Abalone: the player drawn at the bottom
const pointMaps = {}; // backgammon: side -> [player] -> {notation name: board name}, read from the board's data-point-N
let pendingView = null; // a permalink's Labyrinth view, for setViewer
let playoutMissing = false; // the server has no Playout (answered 404 or 501)
const computerDelay = 700; // ms: a visible pause before the computer moves

// ---- the API: the page's one network function ----

// The offline switch (offline.js): with ?offline=1 the rules run in the
// page as WebAssembly and api() answers without the network.
const offline = import("/static/offline.js").then((m) => m.install(), () => null);

async function api(path, body) {
  const local = await offline;
  if (local) return local.api(path, body);
  const init = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const resp = await fetch(path, init);
  if (!resp.ok) {
    let msg = resp.status + " " + resp.statusText;
    try { msg = (await resp.json()).message || msg; } catch (e) { /* not JSON */ }
    const err = new Error(msg);
    err.status = resp.status;
    throw err;
  }
  return resp;
}
const call = async (rpc, body) => (await api(`/v1/games/${game}:${rpc}`, body)).json();

// ---- reading states: the only places that know the typed fields ----

const enumIndex = (v, names) => {
  if (typeof v === "number") return v - 1;
  const i = names.findIndex((n) => String(v || "").endsWith("_" + n));
  return i;
};

// toAct is the seat (0-based) to act in st, -1 if unknown.
function toAct(st) {
  if (st.backgammon) return enumIndex(st.backgammon.turn, ["WHITE", "BLACK"]);
  if (st.abalone) return enumIndex(st.abalone.turn, ["BLACK", "WHITE"]);
  if (st.labyrinth) return Number(st.labyrinth.turn || 0);
  if (st.gravityTrap) return enumIndex(st.gravityTrap.turn, ["RED", "BLUE"]);
  return -1;
}

// seatNames are the players' names in st, by seat: one vocabulary for the
// whole page (the pictures use the same).
function seatNames(st) {
  if (game === "backgammon") return ["White", "Black"];
  if (game === "abalone") return ["Black", "White"];
  if (game === "gravity_trap") return ["Red", "Blue"];
  const ps = (st && st.labyrinth && st.labyrinth.players) || [];
  return ps.map((p, i) => {
    const c = String(p.color || "").replace(/^LABYRINTH_COLOR_/, "").toLowerCase();
    return c ? c[0].toUpperCase() + c.slice(1) : `Player ${i}`;
  });
}

// bgMatch is the backgammon match and cube of st: {length, scores, cube, value, owner} (owner a seat or -1).
function bgMatch(st) {
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

// gtShip is the station of a Gravity Trap player's ship in st, or "".
function gtShip(st, seat) {
  const g = st.gravityTrap || {};
  const v = seat === 0 ? g.redShip : g.blueShip;
  return v === undefined || v === null ? "" : String(v);
}

// playoutWins reads a Playout answer: the share of games seat won
// (winCounts[seat] / gameCount, issue 21's answer).
function playoutWins(r, seat) {
  const games = Number(r.gameCount || r.games || 0);
  const wins = r.winCounts || r.wins || [];
  if (Array.isArray(wins) && games > 0) return Number(wins[seat] || 0) / games;
  if (Array.isArray(r.outcomes)) {
    let n = 0, won = 0;
    for (const o of r.outcomes) { const c = Number(o.count || 0); n += c; if (Number(o.winner) === seat) won += c; }
    return n ? won / n : 0;
  }
  return 0;
}

// wire returns what to send of a state: its text, unless it is on a custom
// Gravity Trap board, whose board travels only in the typed state.
function wire(st) {
  if (game === "gravity_trap" && st.gravityTrap && st.gravityTrap.board && !st.gravityTrap.board.name) return st;
  return { text: st.text };
}

// ---- sides ----

const flips = () => game === "backgammon" || game === "abalone";
// defaultSide: backgammon White, Abalone Black at the bottom; a single
// person against the computer sits at the bottom.
function defaultSide() {
  const persons = seats().map((s, i) => (s === "person" ? i : -1)).filter((i) => i >= 0);
  return persons.length === 1 ? persons[0] : 0;
}

// ---- marks: from the selection and the listed moves' notations ----

const cur = () => history[at].state;

// bgPaths are the checker paths of a backgammon play's notation.
function bgPaths(n) {
  return n.split(" ").map((tok) => tok.replace(/\(\d+\)$/, "").replace(/\*/g, "").split("/"));
}
const isBgPlay = (n) => /\//.test(n);

// bgBoardName maps a name in player's notation to the board's name (from
// the data-point-N attributes the board carries).
function bgBoardName(player, n) {
  const m = pointMaps[side] && pointMaps[side][player];
  return m ? m[n] : undefined;
}
function readPointMap() {
  if (game !== "backgammon" || pointMaps[side]) return;
  const maps = [{}, {}];
  for (const el of $("board").querySelectorAll("[data-point]")) {
    const name = el.id.replace(/^point-/, "");
    for (const p of [0, 1]) {
      const n = el.getAttribute(`data-point-${p}`);
      if (n) maps[p][n] = name;
    }
  }
  pointMaps[side] = maps;
}

// destinations are the board names a click may go to next.
function destinations() {
  if (finished || chance) return [];
  if (game === "gravity_trap") return moves.map((n) => n.replace(/^place /, ""));
  if (game === "labyrinth") return [...new Set(moves.map((n) => n.replace(/^V:/, "").replace(/:\d$/, "")))];
  if (game === "abalone") {
    if (!selection.length) return [];
    const s = selection.join("");
    return [...new Set(moves.filter((n) => n.startsWith(s) && n.length === s.length + 2).map((n) => n.slice(s.length)))];
  }
  if (game === "backgammon" && selection.length) {
    const me = toAct(cur());
    const from = selection[1]; // the selection is [board name, notation name]
    const out = new Set();
    for (const n of moves) {
      for (const path of bgPaths(n)) {
        const i = path.indexOf(from);
        if (i >= 0) for (const q of path.slice(i + 1)) { const b = bgBoardName(me, q); if (b) out.add(b); }
      }
    }
    return [...out];
  }
  return [];
}

// lastMarks mark the last move: where it started and where it ended.
function lastMarks() {
  const out = [];
  const add = (atName, style) => { if (atName !== undefined && atName !== "") out.push({ at: String(atName), style }); };
  // The last move that moved something (backgammon: skip rolls and cube actions).
  let i = at;
  if (game === "backgammon") while (i > 0 && !isBgPlay(history[i].move)) i--;
  if (i <= 0) return out;
  const m = history[i].move, before = history[i - 1].state;
  const mover = toAct(before);
  if (game === "backgammon") {
    for (const path of bgPaths(m)) {
      add(bgBoardName(mover, path[0]), "STYLE_LAST_FROM");
      add(bgBoardName(mover, path[path.length - 1]), "STYLE_LAST_TO");
    }
  } else if (game === "abalone") {
    const cells = m.match(/[a-i][1-9]/g) || [];
    cells.slice(0, -1).forEach((c) => add(c, "STYLE_LAST_FROM"));
    add(cells[cells.length - 1], "STYLE_LAST_TO");
  } else if (game === "gravity_trap") {
    if (!m.startsWith("place ")) add(gtShip(before, mover), "STYLE_LAST_FROM");
    add(m.replace(/^place /, ""), "STYLE_LAST_TO");
  } else if (game === "labyrinth") {
    if (/^[NESW]\d/.test(m)) add(m.replace(/:\d$/, ""), "STYLE_LAST_TO");
    else {
      add(m.replace(/^V:/, ""), "STYLE_LAST_TO");
      const shift = history[i - 1].move;
      if (/^[NESW]\d/.test(shift)) add(shift.replace(/:\d$/, ""), "STYLE_LAST_FROM");
    }
  }
  return out;
}

function marks() {
  const out = lastMarks();
  for (const d of destinations()) out.push({ at: d, style: "STYLE_DESTINATION" });
  if (game === "abalone") for (const c of selection) out.push({ at: c, style: "STYLE_SELECTED" });
  if (game === "backgammon" && selection.length) out.push({ at: selection[0], style: "STYLE_SELECTED" });
  return out;
}

// ---- drawing ----

function renderRequest(st, withMarks) {
  const body = { state: wire(st), hideCoordinates: !$("coords").checked };
  const v = $("viewer").value;
  if (game === "labyrinth" && v === "turn") body.side = toAct(st);
  else if (game === "labyrinth" && v !== "all") body.side = Number(v);
  if (flips()) body.side = side;
  if (withMarks) body.marks = marks();
  return body;
}

// paint draws the shown state with the current marks.
async function paint() {
  if (game === "backgammon" && !pointMaps[side]) {
    $("board").innerHTML = await (await api(`/v1/games/${game}:render`, renderRequest(cur(), false))).text();
    readPointMap();
  }
  $("board").innerHTML = await (await api(`/v1/games/${game}:render`, renderRequest(cur(), true))).text();
  bindBoard();
  const svg = $("board").querySelector("svg");
  $("board").dataset.side = flips() ? String(side) : "";
  if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.height) {
    // The whole board within the window's height (72% of it) at any width.
    const vb = svg.viewBox.baseVal;
    svg.style.maxWidth = `min(760px, calc(72vh * ${(vb.width / vb.height).toFixed(4)}))`;
  }
  if (svg) svg.setAttribute("aria-label", `${game.replace("_", " ")} board; ${$("turn").textContent}`);
}

// ---- showing a state ----

async function show() {
  stopComputer();
  app.dataset.busy = "1";
  say("");
  $("hint").textContent = hints[game];
  const st = cur();
  selection = [];
  try {
    const viewer = $("viewer").value;
    const [lm, sc, view] = await Promise.all([
      call("legalMoves", { state: wire(st) }),
      call("score", { state: wire(st) }),
      game === "labyrinth" && viewer !== "all" && viewer !== "turn" ? call("observe", { state: wire(st), player: Number(viewer) }) : Promise.resolve(null),
    ]);
    moves = lm.moves.map((m) => m.notation);
    chance = lm.chance;
    finished = sc.finished;
    await paint();
    showMoves(lm.moves);
    showScore(sc, st);
    showMatch(st);
    const status = $("board").querySelector("#status");
    $("turn").textContent = status ? status.textContent : "";
    $("state-text").value = st.text;
    $("view-wrap").hidden = !view;
    $("view-text").value = view ? view.state.text : "";
    $("roll").hidden = !chance;
    $("rotate-wrap").hidden = !(game === "labyrinth" && moves.length && /^[NESW]\d/.test(moves[0]));
    $("flip").hidden = !flips();
    showHistory();
    permalink();
  } catch (e) {
    say(e.message, true);
  }
  app.dataset.version = String(Number(app.dataset.version) + 1);
  app.dataset.busy = "0";
  scheduleComputer();
}

// say writes a message next to the board: an error (role=alert) or a
// notice (aria-live polite).
function say(msg, isError) {
  $("error").textContent = isError ? msg : "";
  $("notice").textContent = isError ? "" : msg;
}

function showMoves(list) {
  const ol = $("moves");
  ol.textContent = "";
  for (const m of list) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "move";
    b.dataset.notation = m.notation;
    b.textContent = m.notation + (m.probability ? `  (${(m.probability * 100).toFixed(1)}%)` : "");
    b.addEventListener("click", () => { if (!personToAct()) { say("It is the computer's turn: wait, or make this seat a person.", true); return; } play(m.notation); });
    li.appendChild(b);
    ol.appendChild(li);
  }
  $("move-count").textContent = `(${list.length}${chance ? ", chance" : ""})`;
}

function showScore(sc, st) {
  const el = $("score");
  const names = seatNames(st);
  el.dataset.finished = String(sc.finished);
  el.dataset.winner = sc.winner === undefined || sc.winner === null ? "" : String(sc.winner);
  el.dataset.points = sc.points.join(",");
  const pts = sc.points.map((p, i) => `${names[i] || "Player " + i} ${p}`).join(" – ");
  if (sc.finished) {
    const who = sc.winner === undefined || sc.winner === null ? "a draw" : `${names[sc.winner]} wins`;
    el.textContent = `Game over: ${who}${sc.detail ? " (" + sc.detail + ")" : ""}. Points: ${pts}`;
  } else {
    el.textContent = `Points so far: ${pts}`;
  }
}

// showMatch shows backgammon's match score and cube beside the board.
function showMatch(st) {
  const el = $("match");
  if (game !== "backgammon") { el.hidden = true; return; }
  const m = bgMatch(st);
  const names = seatNames(st);
  const parts = [m.length ? `Match to ${m.length}: ${names[0]} ${m.scores[0]} – ${names[1]} ${m.scores[1]}` : "Money game"];
  if (m.cube) parts.push(`cube ${m.value}, ${m.owner >= 0 ? "owned by " + names[m.owner] : "in the middle"}`);
  el.textContent = parts.join(" · ");
  el.dataset.cube = m.cube ? String(m.value) : "";
  el.dataset.owner = m.cube ? String(m.owner) : "";
  el.hidden = false;
}

function showHistory() {
  const ol = $("history");
  ol.textContent = "";
  history.forEach((h, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = i === 0 ? "start" : h.move;
    b.addEventListener("click", () => { stopAutoplay(); at = i; show(); });
    li.appendChild(b);
    if (i === at) li.className = "current";
    ol.appendChild(li);
  });
  $("undo").disabled = at <= 0;
  $("redo").disabled = at >= history.length - 1;
}

function permalink() {
  const st = cur();
  const w = wire(st);
  const p = new URLSearchParams({ game });
  if (w.text !== undefined && Object.keys(w).length === 1) p.set("text", st.text);
  else p.set("json", JSON.stringify(w));
  if (flips()) p.set("side", String(side));
  if (game === "labyrinth" && $("viewer").value !== "turn") p.set("view", $("viewer").value);
  $("permalink").href = "#" + p;
}

// ---- playing ----

async function play(notation) {
  stopComputer();
  app.dataset.busy = "1";
  const body = { state: wire(cur()), move: { notation } };
  try {
    const r = await call("applyMove", body);
    history = history.slice(0, at + 1);
    history.push({ state: r.state, move: r.move.notation });
    at++;
    rotation = 0;
    $("rotation").textContent = "0";
    $("rotation").dataset.rotation = "0";
  } catch (e) {
    say(e.message, true);
    app.dataset.busy = "0";
    return;
  }
  await show();
}

async function start(state) {
  stopAutoplay();
  history = [{ state, move: "" }];
  at = 0;
  setViewer(state);
  showSeats(state);
  await show();
}

async function newGame() {
  game = $("game").value;
  showOpts();
  const body = {};
  const seed = $("seed").value.trim();
  if (seed) body.seed = seed;
  const o = {};
  if (game === "backgammon") {
    if ($("bg-cube").checked) o.cube = true;
    const ml = Number($("bg-match").value);
    if (ml > 0) o.matchLength = ml;
  } else if (game === "abalone") {
    o.layout = $("ab-layout").value;
    const mp = Number($("ab-maxplies").value);
    if (mp > 0) o.maxPlies = mp;
  } else if (game === "labyrinth") {
    o.players = Number($("lb-players").value);
    o.vader = $("lb-vader").checked;
    o.openCards = $("lb-open").checked;
    o.noReturn = $("lb-noreturn").checked;
  } else if (game === "gravity_trap") {
    o.board = $("gt-board").value;
    o.firstPlayer = Number($("gt-first").value);
    o.allowMirrorPlacement = $("gt-mirror").checked;
  }
  body[optKey[game]] = o;
  try {
    const r = await call("new", body);
    side = defaultSide();
    await start(r.state);
  } catch (e) {
    say(e.message, true);
  }
}

function setViewer(state) {
  const sel = $("viewer");
  const keep = pendingView !== null ? pendingView : sel.value;
  pendingView = null;
  sel.textContent = "";
  players = game === "labyrinth" && state.labyrinth ? state.labyrinth.players.length : 2;
  const names = seatNames(state);
  const add = (v, label) => { const o = document.createElement("option"); o.value = v; o.textContent = label; sel.appendChild(o); };
  add("turn", "the player to act");
  add("all", "everything (debug)");
  add("-1", "a spectator");
  for (let p = 0; p < players; p++) add(String(p), names[p]);
  sel.value = [...sel.options].some((o) => o.value === keep) ? keep : "turn";
  $("viewer-label").hidden = game !== "labyrinth";
}

function showOpts() {
  for (const d of document.querySelectorAll(".opts")) d.hidden = d.dataset.for !== game;
  $("hint").textContent = hints[game];
}

// ---- seats: a person or the computer ----

function showSeats(state) {
  const box = $("seats");
  const keep = seats();
  box.textContent = "";
  const names = seatNames(state);
  const n = game === "labyrinth" ? names.length : 2;
  for (let i = 0; i < n; i++) {
    const label = document.createElement("label");
    label.textContent = names[i] + " ";
    const sel = document.createElement("select");
    sel.id = `seat-${i}`;
    sel.className = "seat";
    for (const [v, t] of [["person", "person"], ["random", "computer: random"], ["greedy", "computer: greedy"], ["playout", "computer: playouts"]]) {
      const o = document.createElement("option"); o.value = v; o.textContent = t; sel.appendChild(o);
    }
    sel.value = keep[i] || "person";
    sel.addEventListener("change", () => { scheduleComputer(); });
    label.appendChild(sel);
    box.appendChild(label);
  }
}
const seats = () => [...document.querySelectorAll("#seats select.seat")].map((s) => s.value);
function seatOf() { return toAct(cur()); }
function personToAct() {
  const s = seats()[seatOf()];
  return s === undefined || s === "person";
}

function stopComputer() {
  if (computerTimer) { clearTimeout(computerTimer); computerTimer = null; }
  app.dataset.computer = "0";
}

// scheduleComputer lets the computer act after a visible pause when the
// seat to act is the computer's (rolls included).
function scheduleComputer() {
  stopComputer();
  if (finished || !moves.length || at < 0) return;
  const kind = seats()[seatOf()];
  if (!kind || kind === "person") return; // a person acts (and rolls with the button)
  say(`${seatNames(cur())[seatOf()]} (computer) is thinking…`);
  const version = app.dataset.version;
  app.dataset.computer = "1";
  computerTimer = setTimeout(async () => {
    computerTimer = null;
    if (app.dataset.version !== version) return;
    try {
      const m = chance ? "roll" : await chooseMove(kind);
      if (app.dataset.version === version) await play(m); else app.dataset.computer = "0";
    } catch (e) {
      app.dataset.computer = "0";
      say(e.message, true);
    }
  }, computerDelay);
}

// chooseMove is the computer's pick among the listed moves: uniformly at
// random; ("greedy") the move the server's greedy playout policy plays,
// asked of Playout as one game of one ply; or ("playout") the move after
// which the server's Playout, its games played by that greedy policy,
// wins most often for the mover. Without Playout on the server (404 or
// 501) it falls back to random: the page has no policy of its own.
async function chooseMove(kind) {
  const random = () => moves[Math.floor(Math.random() * moves.length)];
  if (kind === "random" || playoutMissing || moves.length === 1) return random();
  const seed = () => String(Math.floor(Math.random() * 1e9));
  if (kind === "greedy") {
    try {
      const p = await call("playout", { state: wire(cur()), games: 1, maxPlies: 1, includeMoves: true, policy: "PLAYOUT_POLICY_GREEDY", firstMoveByPolicy: true, seed: seed() });
      const m = ((((p.played || {}).games || [])[0] || {}).moves || [])[0];
      if (moves.includes(m)) return m;
    } catch (e) {
      if (e.status === 404 || e.status === 501) { playoutMissing = true; say("The server has no Playout yet: the computer plays at random."); return random(); }
      throw e;
    }
    return random();
  }
  const me = seatOf();
  // One Playout from the state: its firstMoves list every legal move with
  // the games that began with it (dealt round robin) and their winCounts,
  // for the player to move (turn); a draw counts half.
  try {
    const p = await call("playout", { state: wire(cur()), games: 200, policy: "PLAYOUT_POLICY_GREEDY", seed: seed() });
    if (p.turn !== undefined && Array.isArray(p.firstMoves)) {
      let best = null, bestValue = -1;
      for (const f of p.firstMoves) {
        const n = Number(f.playCount || 0);
        if (!n || !moves.includes(f.notation)) continue;
        const v = (Number((f.winCounts || [])[p.turn] || 0) + Number(f.drawCount || 0) / 2) / n;
        if (v > bestValue) { best = f.notation; bestValue = v; }
      }
      if (best) return best;
    }
  } catch (e) {
    if (e.status === 404 || e.status === 501) { playoutMissing = true; say("The server has no Playout yet: the computer plays at random."); return random(); }
    throw e;
  }
  const candidates = moves.length <= 12 ? moves : [...moves].sort(() => Math.random() - 0.5).slice(0, 12);
  let best = null, bestValue = -1;
  for (const m of candidates) {
    try {
      const r = await call("applyMove", { state: wire(cur()), move: { notation: m } });
      const p = await call("playout", { state: wire(r.state), games: 40, policy: "PLAYOUT_POLICY_GREEDY", seed: seed() });
      const v = playoutWins(p, me);
      if (v > bestValue) { best = m; bestValue = v; }
    } catch (e) {
      if (e.status === 404 || e.status === 501) { playoutMissing = true; say("The server has no Playout yet: the computer plays at random."); return random(); }
      throw e;
    }
  }
  return best || random();
}

// ---- board clicks ----

const clickable = "[data-point],[data-cell],[data-square],[data-insertion],[data-station]";

function bindBoard() {
  for (const el of $("board").querySelectorAll(clickable)) {
    if (el.tagName === "text") continue;
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    const name = el.dataset.point || el.dataset.cell || el.dataset.square || el.dataset.insertion || el.dataset.station;
    el.setAttribute("aria-label", name);
  }
}

function boardTarget(ev) {
  const el = ev.target.closest(clickable);
  return el && $("board").contains(el) ? el : null;
}

async function reselect() {
  app.dataset.busy = "1";
  try { await paint(); } catch (e) { say(e.message, true); }
  app.dataset.selection = String(Number(app.dataset.selection || 0) + 1);
  app.dataset.busy = "0";
}

function onBoard(el) {
  if (app.dataset.busy === "1") return;
  if (finished) { say("The game is over: start a new game, or undo.", true); return; }
  if (!personToAct()) { say(`It is ${seatNames(cur())[seatOf()]}'s turn, played by the computer.`, true); return; }
  if (chance) { say("Roll first: press “Roll dice” (or pick a roll from the list).", true); return; }
  if (!moves.length) return;
  say("");
  const d = el.dataset;
  if (game === "gravity_trap" && d.station !== undefined) {
    const m = moves.find((n) => n === d.station || n === "place " + d.station);
    if (m) play(m); else say(`No legal move to station ${d.station}: the green dots are where you can go.`, true);
  } else if (game === "labyrinth" && d.insertion) {
    if (d.forbidden) { say(`${d.insertion} would undo the previous push.`, true); return; }
    const want = rotation ? `${d.insertion}:${rotation}` : d.insertion;
    const m = moves.includes(want) ? want : moves.find((n) => n === d.insertion || n.startsWith(d.insertion + ":"));
    if (m) play(m); else say(`Now is not the time to insert at ${d.insertion}: move your ship first.`, true);
  } else if (game === "labyrinth" && d.square) {
    const m = moves.find((n) => n === d.square) || moves.find((n) => n === "V:" + d.square);
    if (m) play(m);
    else if (/^[NESW]\d/.test(moves[0])) say("Insert the spare tile first: click a marked arrow.", true);
    else say(`Cannot reach ${d.square}: the green dots are the squares you can reach.`, true);
  } else if (game === "abalone" && d.cell) {
    clickSelect(d.cell, (sel) => sel.join(""));
  } else if (game === "backgammon" && d.point) {
    clickBackgammon(el);
  }
}

// clickSelect adds name to the selection and plays the move it spells,
// if exactly one; a selection no move starts with starts again at name.
function clickSelect(name, spell) {
  selection.push(name);
  let s = spell(selection);
  if (!moves.some((n) => n.startsWith(s))) {
    selection = [name];
    s = spell(selection);
    if (!moves.some((n) => n.startsWith(s))) { selection = []; say(`No legal move starts at ${name}.`, true); }
  }
  const exact = moves.filter((n) => n === spell(selection));
  if (exact.length === 1 && selection.length > 1) { play(exact[0]); return; }
  reselect();
}

// Backgammon: a play matches from→to when one of its checker paths passes
// from and later to (notation from the mover's side: the board's
// data-point-<mover> names it). One match is played; several are listed.
function clickBackgammon(el) {
  const me = toAct(cur());
  const p = el.getAttribute(`data-point-${me}`);
  const board = el.id.replace(/^point-/, "");
  if (selection.length === 0) {
    if (p && moves.some((n) => bgPaths(n).some((path) => path.slice(0, -1).includes(p)))) { selection = [board, p]; reselect(); }
    else { say(`No checker of ${seatNames(cur())[me]} can move from there.`, true); reselect(); }
    return;
  }
  const from = selection[1];
  if (board === selection[0]) { selection = []; reselect(); return; } // a second click on it unselects
  const fits = p ? moves.filter((n) => bgPaths(n).some((path) => {
    const i = path.indexOf(from), j = path.lastIndexOf(p);
    return i >= 0 && j > i;
  })) : [];
  selection = [];
  if (fits.length === 1) { play(fits[0]); return; }
  reselect();
  if (fits.length > 1) {
    for (const b of $("moves").querySelectorAll("button.move")) b.parentElement.hidden = !fits.includes(b.dataset.notation);
    say(`${fits.length} plays move a checker ${from}→${p}: pick one in the list.`);
  } else {
    say(`No legal play moves a checker from ${from} to ${p || "there"}.`, true);
  }
}

// ---- autoplay ----

function stopAutoplay() {
  if (autoplay) { clearTimeout(autoplay); autoplay = null; }
  $("autoplay").setAttribute("aria-pressed", "false");
  $("autoplay").textContent = "Autoplay random";
}
async function autoStep() {
  if (!autoplay) return;
  if (!moves.length) { stopAutoplay(); return; }
  if (chance) await play("roll");
  else await play(moves[Math.floor(Math.random() * moves.length)]);
  if (autoplay) autoplay = setTimeout(autoStep, 250);
}

// ---- wiring ----

$("board").addEventListener("click", (ev) => { const el = boardTarget(ev); if (el) onBoard(el); });
$("board").addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" && ev.key !== " ") return;
  const el = boardTarget(ev);
  if (el) { ev.preventDefault(); onBoard(el); }
});
$("new-game").addEventListener("click", newGame);
$("game").addEventListener("change", newGame);
$("undo").addEventListener("click", () => { stopAutoplay(); if (at > 0) { at--; show(); } });
$("redo").addEventListener("click", () => { stopAutoplay(); if (at < history.length - 1) { at++; show(); } });
$("roll").addEventListener("click", () => { if (!personToAct()) { say("The computer rolls for its seat.", true); return; } play("roll"); });
$("coords").addEventListener("change", show);
$("viewer").addEventListener("change", show);
$("flip").addEventListener("click", () => { side = 1 - side; show(); });
$("rotate").addEventListener("click", () => {
  rotation = (rotation + 1) % 4;
  $("rotation").textContent = String(rotation);
  $("rotation").dataset.rotation = String(rotation);
  const g = $("board").querySelector("#spare-tile") || $("board").querySelector("#spare");
  const spare = g && g.querySelector("rect");
  if (spare) {
    // Preview the turn on the drawn spare (the server turns it for real).
    const r = spare.getBBox();
    g.setAttribute("transform", `rotate(${90 * rotation} ${r.x + r.width / 2} ${r.y + r.height / 2})`);
  }
});
$("autoplay").addEventListener("click", () => {
  if (autoplay) { stopAutoplay(); return; }
  $("autoplay").setAttribute("aria-pressed", "true");
  $("autoplay").textContent = "Stop autoplay";
  autoplay = setTimeout(autoStep, 0);
});
$("copy").addEventListener("click", async () => {
  const t = $("state-text");
  try { await navigator.clipboard.writeText(t.value); } catch (e) { t.select(); document.execCommand("copy"); }
});
$("load").addEventListener("click", async () => {
  const raw = $("load-text").value.trim();
  if (!raw) { say("Paste a state first.", true); return; }
  let st;
  try { st = raw.startsWith("{") ? JSON.parse(raw) : { text: raw }; } catch (e) { say(`The pasted JSON does not parse: ${e.message}`, true); return; }
  try { await loadState(st); } catch (e) { say(`Not a ${game.replace("_", " ")} state: ${e.message}`, true); }
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input,textarea,select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "u") $("undo").click();
  else if (ev.key === "r") $("redo").click();
  else if (ev.key === "a") $("autoplay").click();
  else if (ev.key === "f" && flips()) $("flip").click();
});

// loadState checks a state with the server (ObserveState with a
// spectator decodes and validates it and gives back both forms) and
// starts from it; it throws what the server said is wrong.
async function loadState(st, keepSide) {
  if (game === "labyrinth" && !st.text) throw new Error("paste a Labyrinth state as text");
  const r = await call("observe", { state: st, player: -1 });
  // ObserveState masks Labyrinth cards: keep the state as given, with
  // the typed form only for a custom Gravity Trap board.
  const state = game === "labyrinth" ? { text: st.text || r.state.text, labyrinth: r.state.labyrinth } : r.state;
  side = keepSide === undefined ? 0 : keepSide;
  await start(state);
}

// fromHash opens what the page's #… names: a game, and a state with a side.
// A bad link opens a new game and says what was wrong, with the link's
// state in the paste box to fix.
async function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  // Object.hasOwn, not optKey[name]: a hash such as #game=__proto__ or
  // #game=toString names an inherited property, not a game.
  if (p.get("game") && !Object.hasOwn(optKey, p.get("game"))) {
    await newGame();
    say(`The link names an unknown game ${JSON.stringify(p.get("game"))}: pick one of ${Object.keys(optKey).join(", ")}.`, true);
    return;
  }
  if (!p.get("game")) { await newGame(); return; }
  game = p.get("game");
  $("game").value = game;
  showOpts();
  const raw = p.get("json") || p.get("text");
  if (!raw) { await newGame(); return; }
  const sideParam = p.get("side");
  const s = sideParam === null ? undefined : Number(sideParam);
  let problem = "";
  if (s !== undefined && !(s === 0 || s === 1)) problem = `side ${JSON.stringify(sideParam)} is not 0 or 1`;
  if (!problem) {
    try {
      pendingView = p.get("view");
      await loadState(p.get("json") ? JSON.parse(p.get("json")) : { text: p.get("text") }, s);
      return;
    } catch (e) {
      problem = e.message;
    }
  }
  await newGame();
  $("load-text").value = raw;
  say(`The link's state could not be opened (${problem}); a new game started instead. The link's state is in the paste box below to fix and load.`, true);
}

window.addEventListener("hashchange", () => { stopAutoplay(); fromHash(); });
fromHash();
