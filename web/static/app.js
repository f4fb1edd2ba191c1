// gamerules playground: a client of the public REST API only.
// States are values: the page keeps a history of them, so undo and redo
// need no server. Every board comes from RenderState (with its marks: the
// selection, the legal destinations and the last move), every move list
// from LegalMoves. The page has no game logic of its own: it matches board
// clicks to the listed moves' notations, and the computer player picks
// among the listed moves (or asks the server's Playout, whose greedy
// policy is the page's only game sense).
//
// This file names no game. The games are ListGames' answer; what the page
// knows of one game (its options form, how its state says whose turn it
// is, how a board click spells a move, which marks to draw) is its module
// /static/games/<id>.js, loaded for each listed id (a game without one is
// still played from the move list). A module's default export is a
// function of the page's helpers (`page` below) returning the game's
// hooks, every one optional:
//
//   label, order       the menu's name (else ListGames' displayName) and
//                      place (lower first, else after, in ListGames' order)
//   hint               the line under the buttons saying how to play
//   options            the HTML of the game's NewGame options (hidden
//                      unless the game is chosen); newGameOptions() reads
//                      it into the request's options message
//   controls, setup()  HTML added to the view row (shown with the game),
//                      and what wires it once it is in the page
//   css                style rules of the game's own
//   targets            the board's data attributes a click goes to
//                      ("point" for data-point)
//   toAct(st)          the seat (0-based) to act in a state, -1 unknown
//   seatNames(st)      the players' names by seat
//   wire(st)           what of a state to send (default: its text)
//   flips              true when the board can be drawn from either side
//   match(st, names)   a line beside the score ({text, cube, owner}) or null
//   beforePaint()      async, before each paint (page.renderPlain())
//   renderOptions()    fields added to each marked RenderState request
//                      (e.g. a play in progress, partialPlay)
//   painted()          after each paint, the board in the page
//   destinations()     the board names a click may go to next
//   selectedMarks()    the board names of the selection
//   movesPieces(n)     false for moves the last-move marks skip
//   lastMarks(last, add) marks the last move: last {move, before, mover,
//                      previous}; add(boardName, style)
//   click(el)          a click on the board element el
//   shown()            after a state is shown
//   moved()            after any move is played (every game's module)
//
// The page's contract with the tests and links stays: #game=…&text=…
// links, #state-text, #app[data-busy], data-point-0/1 on backgammon points.
"use strict";

const $ = (id) => document.getElementById(id);
const app = $("app");

let game = "";
let g = {}; // games.get(game): the chosen game's hooks and its ListGames info
const games = new Map(); // id -> hooks, in the menu's order
let history = []; // [{state, move}] — move is the notation that led to state ("" for the start)
let at = -1; // index into history of the shown state
let moves = []; // the legal moves of the shown state (notations)
let chance = false;
let finished = false;
let selection = []; // board clicks so far (board names: points, cells)
let autoplay = null;
let computerTimer = null;
let players = 2;
let side = 0; // games that flip: the player drawn at the bottom
let pendingView = null; // a permalink's view (hidden information), for setViewer
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

// ---- reading states: the games' modules know the typed fields ----

// enumIndex is the 0-based index of an enum value (its number, or its name
// ending in _<one of names>), -1 if none.
const enumIndex = (v, names) => {
  if (typeof v === "number") return v - 1;
  const i = names.findIndex((n) => String(v || "").endsWith("_" + n));
  return i;
};

// toAct is the seat (0-based) to act in st, -1 if unknown.
const toAct = (st) => (g.toAct ? g.toAct(st) : -1);

// seatNames are the players' names in st, by seat: one vocabulary for the
// whole page (the pictures use the same).
function seatNames(st) {
  if (g.seatNames) return g.seatNames(st);
  return Array.from({ length: Number((g.info && g.info.maxPlayers) || 2) }, (_, i) => `Player ${i}`);
}

// hidden: the game's states hold what some players must not see
// (ListGames' hasHiddenInformation): the page offers a viewer, and
// ObserveState's answer keeps the state's text.
const hidden = () => Boolean(g.info && g.info.hasHiddenInformation);

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

// wire returns what to send of a state: its text, unless the game's
// module says otherwise.
const wire = (st) => (g.wire ? g.wire(st) : { text: st.text });

// ---- sides ----

const flips = () => Boolean(g.flips);
// defaultSide: the first seat at the bottom; a single person against the
// computer sits at the bottom.
function defaultSide() {
  const persons = seats().map((s, i) => (s === "person" ? i : -1)).filter((i) => i >= 0);
  return persons.length === 1 ? persons[0] : 0;
}

// ---- marks: from the selection and the listed moves' notations ----

const cur = () => history[at].state;

// destinations are the board names a click may go to next.
function destinations() {
  if (finished || chance || !g.destinations) return [];
  return g.destinations();
}

// lastMarks mark the last move: where it started and where it ended.
function lastMarks() {
  const out = [];
  if (!g.lastMarks) return out;
  const add = (atName, style) => { if (atName !== undefined && atName !== "") out.push({ at: String(atName), style }); };
  // The last move that moved something (the module may skip some, such as rolls).
  let i = at;
  if (g.movesPieces) while (i > 0 && !g.movesPieces(history[i].move)) i--;
  if (i <= 0) return out;
  const before = history[i - 1].state;
  g.lastMarks({ move: history[i].move, before, mover: toAct(before), previous: history[i - 1].move }, add);
  return out;
}

function marks() {
  const out = lastMarks();
  for (const d of destinations()) out.push({ at: d, style: "STYLE_DESTINATION" });
  if (g.selectedMarks) for (const c of g.selectedMarks()) out.push({ at: c, style: "STYLE_SELECTED" });
  return out;
}

// ---- drawing ----

function renderRequest(st, withMarks) {
  const body = { state: wire(st), hideCoordinates: !$("coords").checked };
  const v = $("viewer").value;
  if (hidden() && v === "turn") body.side = toAct(st);
  else if (hidden() && v !== "all") body.side = Number(v);
  if (flips()) body.side = side;
  if (withMarks) body.marks = marks();
  if (withMarks && g.renderOptions) Object.assign(body, g.renderOptions());
  return body;
}

// renderPlain draws the shown state without marks (for a module that reads
// the board's data attributes before marking it).
async function renderPlain() {
  $("board").innerHTML = await (await api(`/v1/games/${game}:render`, renderRequest(cur(), false))).text();
}

// paint draws the shown state with the current marks.
async function paint() {
  if (g.beforePaint) await g.beforePaint();
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
  if (g.painted) g.painted();
}

// ---- showing a state ----

async function show() {
  stopComputer();
  app.dataset.busy = "1";
  say("");
  $("hint").textContent = hint();
  const st = cur();
  selection = [];
  try {
    const viewer = $("viewer").value;
    const [lm, sc, view] = await Promise.all([
      call("legalMoves", { state: wire(st) }),
      call("score", { state: wire(st) }),
      hidden() && viewer !== "all" && viewer !== "turn" ? call("observe", { state: wire(st), player: Number(viewer) }) : Promise.resolve(null),
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
    if (g.shown) g.shown();
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

// showMatch shows the game's match line (a match score, a doubling cube)
// beside the board.
function showMatch(st) {
  const el = $("match");
  const m = g.match ? g.match(st, seatNames(st)) : null;
  if (!m) { el.hidden = true; return; }
  el.textContent = m.text;
  el.dataset.cube = m.cube;
  el.dataset.owner = m.owner;
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
  if (hidden() && $("viewer").value !== "turn") p.set("view", $("viewer").value);
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
    for (const x of games.values()) if (x.moved) x.moved();
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

// choose makes id the page's game.
function choose(id) {
  game = id;
  g = games.get(id) || {};
}

async function newGame() {
  choose($("game").value);
  showOpts();
  const body = {};
  const seed = $("seed").value.trim();
  if (seed) body.seed = seed;
  body[g.field] = g.newGameOptions ? g.newGameOptions() : {};
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
  const names = seatNames(state);
  players = (hidden() && names.length) || 2;
  const add = (v, label) => { const o = document.createElement("option"); o.value = v; o.textContent = label; sel.appendChild(o); };
  add("turn", "the player to act");
  add("all", "everything (debug)");
  add("-1", "a spectator");
  for (let p = 0; p < players; p++) add(String(p), names[p]);
  sel.value = [...sel.options].some((o) => o.value === keep) ? keep : "turn";
  $("viewer-label").hidden = !hidden();
}

const hint = () => g.hint || "Pick a move from the list.";

// showOpts shows the chosen game's options and controls, and its hint.
function showOpts() {
  for (const d of document.querySelectorAll(".opts, .game-controls")) d.hidden = d.dataset.for !== game;
  $("hint").textContent = hint();
}

// ---- seats: a person or the computer ----

function showSeats(state) {
  const box = $("seats");
  const keep = seats();
  box.textContent = "";
  const names = seatNames(state);
  const n = names.length;
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

// clickable selects the board elements a click goes to: the games'
// targets (set when the games are loaded).
let clickable = "";

function bindBoard() {
  if (!clickable) return;
  for (const el of $("board").querySelectorAll(clickable)) {
    if (el.tagName === "text") continue;
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", targetName(el));
  }
}

// targetName is the board name a clickable element carries.
function targetName(el) {
  for (const x of games.values()) for (const t of x.targets || []) { const v = el.getAttribute(`data-${t}`); if (v) return v; }
  return "";
}

function boardTarget(ev) {
  if (!clickable) return null;
  const el = ev.target.closest(clickable);
  return el && $("board").contains(el) ? el : null;
}

async function reselect() {
  app.dataset.busy = "1";
  try { await paint(); } catch (e) { say(e.message, true); }
  app.dataset.selection = String(Number(app.dataset.selection || 0) + 1);
  app.dataset.busy = "0";
}

// boardOpen says whether the board takes a move now (a person to act, no
// roll pending, the page not busy), saying why not.
function boardOpen() {
  if (app.dataset.busy === "1") return false;
  if (finished) { say("The game is over: start a new game, or undo.", true); return false; }
  if (!personToAct()) { say(`It is ${seatNames(cur())[seatOf()]}'s turn, played by the computer.`, true); return false; }
  if (chance) { say("Roll first: press “Roll dice” (or pick a roll from the list).", true); return false; }
  if (!moves.length) return false;
  say("");
  return true;
}

function onBoard(el) {
  if (boardOpen() && g.click) g.click(el);
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

// page is what the games' modules may use of the page.
const page = {
  $, enumIndex, say, play, reselect, clickSelect, renderPlain, cur, boardOpen,
  toAct: (st) => toAct(st),
  seatNames: (st) => seatNames(st),
  get moves() { return moves; },
  get selection() { return selection; },
  set selection(s) { selection = s; },
  get side() { return side; },
};

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
  if (hidden() && !st.text) throw new Error(`paste a ${g.label} state as text`);
  const r = await call("observe", { state: st, player: -1 });
  // ObserveState masks what a spectator must not see: with hidden
  // information keep the state as given (its text and the typed form).
  const state = hidden() ? { text: st.text || r.state.text, [g.field]: r.state[g.field] } : r.state;
  side = keepSide === undefined ? 0 : keepSide;
  await start(state);
}

// fromHash opens what the page's #… names: a game, and a state with a side.
// A bad link opens a new game and says what was wrong, with the link's
// state in the paste box to fix.
async function fromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  // games.has, not an object's property: a hash such as #game=__proto__
  // or #game=toString names an inherited property, not a game.
  if (p.get("game") && !games.has(p.get("game"))) {
    await newGame();
    say(`The link names an unknown game ${JSON.stringify(p.get("game"))}: pick one of ${[...games.keys()].join(", ")}.`, true);
    return;
  }
  if (!p.get("game")) { await newGame(); return; }
  choose(p.get("game"));
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
      // A state opened by a link is played by persons in every seat.
      for (const sel of document.querySelectorAll("#seats select.seat")) sel.value = "person";
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

// ---- the games ----

// field is a game id's name as a JSON field (NewGame's options, the typed
// state): gravity_trap -> gravityTrap.
const field = (id) => id.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

// loadGames asks ListGames for the games, loads each one's module
// (/static/games/<id>.js), and builds the game menu, the options forms,
// the games' controls and styles.
async function loadGames() {
  const list = (await (await api("/v1/games")).json()).games || [];
  const hooks = await Promise.all(list.map((info) =>
    import(`/static/games/${encodeURIComponent(info.id)}.js`).then((m) => m.default(page), () => ({}))));
  const all = list.map((info, i) => ({ label: info.displayName || info.id, ...hooks[i], info, field: field(info.id), listed: i }));
  const order = (x) => (x.order === undefined ? Infinity : x.order);
  all.sort((a, b) => order(a) - order(b) || a.listed - b.listed);
  const menu = $("game"), before = $("new-game"), row = $("viewer-label").parentElement;
  const css = [];
  const targets = [];
  for (const x of all) {
    const id = x.info.id;
    games.set(id, x);
    const o = document.createElement("option");
    o.value = id;
    o.textContent = x.label;
    menu.appendChild(o);
    if (x.options) {
      const d = document.createElement("div");
      d.className = "opts";
      d.dataset.for = id;
      d.hidden = true;
      d.innerHTML = x.options;
      before.before(d);
    }
    if (x.controls) {
      const s = document.createElement("span");
      s.className = "game-controls";
      s.dataset.for = id;
      s.hidden = true;
      s.innerHTML = x.controls;
      row.appendChild(s);
    }
    if (x.css) css.push(x.css);
    for (const t of x.targets || []) if (!targets.includes(t)) targets.push(t);
  }
  clickable = targets.map((t) => `[data-${t}]`).join(",");
  if (clickable) css.unshift(`#board :is(${clickable}) { cursor: pointer; }`);
  const style = document.createElement("style");
  style.textContent = css.join("\n");
  document.head.appendChild(style);
  for (const x of all) if (x.setup) x.setup();
}

const ready = loadGames().catch((e) => { say(`The games could not be listed: ${e.message}`, true); app.dataset.busy = "0"; throw e; });
window.addEventListener("hashchange", () => { stopAutoplay(); ready.then(fromHash); });
ready.then(fromHash).catch(() => { /* said above */ });
