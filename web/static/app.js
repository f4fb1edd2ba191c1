// gamerules playground: a client of the public REST API only.
// States are values: the page keeps a history of them, so undo and redo
// need no server. Every board comes from RenderState, every move list from
// LegalMoves.
"use strict";

const $ = (id) => document.getElementById(id);
const app = $("app");

const optKey = { backgammon: "backgammon", abalone: "abalone", labyrinth: "labyrinth", gravity_trap: "gravityTrap" };
const hints = {
  backgammon: "Click a point to move from, then where to (or pick a play from the list). Roll with the button or pick a roll from the list.",
  abalone: "Click the trailing marble, then where it goes (in line); for a broadside click both ends of the group, then where the first goes.",
  labyrinth: "Shift: rotate the spare if you like, then click an arrow. Move: click the square to go to (your own square to stay).",
  gravity_trap: "Click a station: to place your ship during set-up, then to fly along a line.",
};

let game = "backgammon";
let history = []; // [{state, move}] — move is the notation that led to state ("" for the start)
let at = -1; // index into history of the shown state
let moves = []; // the legal moves of the shown state (notations)
let chance = false;
let selection = []; // board clicks so far (points, cells)
let rotation = 0; // labyrinth: quarter turns for the next shift
let autoplay = null;
let players = 2;

// ---- the API ----

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
    throw new Error(msg);
  }
  return resp;
}
const call = async (rpc, body) => (await api(`/v1/games/${game}:${rpc}`, body)).json();

// wire returns what to send of a state: its text, unless it is on a custom
// Gravity Trap board, whose board travels only in the typed state.
function wire(st) {
  if (game === "gravity_trap" && st.gravityTrap && st.gravityTrap.board && !st.gravityTrap.board.name) return st;
  return { text: st.text };
}

async function render(st) {
  const p = new URLSearchParams();
  if (!$("coords").checked) p.set("hideCoordinates", "true");
  const v = $("viewer").value;
  if (game === "labyrinth" && v !== "all") p.set("side", v);
  const last = history[at] && history[at].move;
  if (last && game === "gravity_trap") {
    const to = last.replace("place ", "");
    p.set("highlightTo", to);
  }
  const w = wire(st);
  if (w.text !== undefined && Object.keys(w).length === 1) {
    p.set("state.text", w.text);
    return (await api(`/v1/games/${game}:render?${p}`)).text();
  }
  const body = { state: w, hideCoordinates: !$("coords").checked };
  return (await api(`/v1/games/${game}:render`, body)).text();
}

// ---- showing a state ----

const cur = () => history[at].state;

async function show() {
  app.dataset.busy = "1";
  $("error").textContent = "";
  $("hint").textContent = hints[game];
  const st = cur();
  try {
    const viewer = $("viewer").value;
    const [svg, lm, sc, view] = await Promise.all([
      render(st),
      call("legalMoves", { state: wire(st) }),
      call("score", { state: wire(st) }),
      game === "labyrinth" && viewer !== "all" ? call("observe", { state: wire(st), player: Number(viewer) }) : Promise.resolve(null),
    ]);
    $("board").innerHTML = svg;
    moves = lm.moves.map((m) => m.notation);
    chance = lm.chance;
    showMoves(lm.moves);
    showScore(sc);
    const status = $("board").querySelector("#status");
    $("turn").textContent = status ? status.textContent : "";
    $("state-text").value = st.text;
    $("view-wrap").hidden = !view;
    $("view-text").value = view ? view.state.text : "";
    $("roll").hidden = !chance;
    $("rotate-wrap").hidden = !(game === "labyrinth" && moves.length && /^[NESW]\d/.test(moves[0]));
    showHistory();
    permalink();
    bindBoard();
  } catch (e) {
    $("error").textContent = e.message;
  }
  selection = [];
  app.dataset.version = String(Number(app.dataset.version) + 1);
  app.dataset.busy = "0";
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
    b.addEventListener("click", () => play(m.notation));
    li.appendChild(b);
    ol.appendChild(li);
  }
  $("move-count").textContent = `(${list.length}${chance ? ", chance" : ""})`;
}

function showScore(sc) {
  const el = $("score");
  el.dataset.finished = String(sc.finished);
  el.dataset.winner = sc.winner === undefined || sc.winner === null ? "" : String(sc.winner);
  el.dataset.points = sc.points.join(",");
  if (sc.finished) {
    const who = sc.winner === undefined || sc.winner === null ? "a draw" : `player ${sc.winner} wins`;
    el.textContent = `Game over: ${who}; points ${sc.points.join(" – ")}${sc.detail ? " (" + sc.detail + ")" : ""}`;
  } else {
    el.textContent = `Score so far: ${sc.points.join(" – ")}`;
  }
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
  $("permalink").href = "#" + p;
}

// ---- playing ----

async function play(notation) {
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
    $("error").textContent = e.message;
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
    await start(r.state);
  } catch (e) {
    $("error").textContent = e.message;
  }
}

function setViewer(state) {
  const sel = $("viewer");
  const keep = sel.value;
  sel.textContent = "";
  players = game === "labyrinth" && state.labyrinth ? state.labyrinth.players.length : 2;
  const add = (v, label) => { const o = document.createElement("option"); o.value = v; o.textContent = label; sel.appendChild(o); };
  add("all", "everything (debug)");
  add("-1", "a spectator");
  for (let p = 0; p < players; p++) add(String(p), `player ${p}`);
  sel.value = [...sel.options].some((o) => o.value === keep) ? keep : "all";
  $("viewer-label").hidden = game !== "labyrinth";
}

function showOpts() {
  for (const d of document.querySelectorAll(".opts")) d.hidden = d.dataset.for !== game;
  $("hint").textContent = hints[game];
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

function mark() {
  for (const el of $("board").querySelectorAll(".sel")) el.classList.remove("sel");
  for (const name of selection) {
    const el = $("board").querySelector(`[data-point="${name}"],[data-cell="${name}"]`);
    if (el) el.classList.add("sel");
  }
}

function onBoard(el) {
  if (!moves.length || app.dataset.busy === "1") return;
  const d = el.dataset;
  if (game === "gravity_trap" && d.station !== undefined) {
    const m = moves.find((n) => n === d.station || n === "place " + d.station);
    if (m) play(m); else $("error").textContent = `no legal move to station ${d.station}`;
  } else if (game === "labyrinth" && d.insertion) {
    if (d.forbidden) { $("error").textContent = `${d.insertion} would undo the previous push`; return; }
    const want = rotation ? `${d.insertion}:${rotation}` : d.insertion;
    const m = moves.includes(want) ? want : moves.find((n) => n === d.insertion || n.startsWith(d.insertion + ":"));
    if (m) play(m);
  } else if (game === "labyrinth" && d.square) {
    const m = moves.find((n) => n === d.square) || moves.find((n) => n === "V:" + d.square);
    if (m) play(m); else $("error").textContent = `cannot reach ${d.square}`;
  } else if (game === "abalone" && d.cell) {
    clickSelect(d.cell, (sel) => sel.join(""));
  } else if (game === "backgammon" && d.point) {
    clickBackgammon(d.point);
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
    if (!moves.some((n) => n.startsWith(s))) selection = [];
  }
  const exact = moves.filter((n) => n === spell(selection));
  if (exact.length === 1 && selection.length > 1) { play(exact[0]); return; }
  mark();
}

// Backgammon: a play matches from→to when one of its checker paths passes
// from and later to (notation from the mover's side, as the board is
// drawn). One match is played; several are listed to choose from.
function pathsOf(n) {
  return n.split(" ").map((tok) => tok.replace(/\(\d+\)$/, "").replace(/\*/g, "").split("/"));
}
function clickBackgammon(p) {
  if (chance) return;
  if (selection.length === 0) {
    if (moves.some((n) => pathsOf(n).some((path) => path.slice(0, -1).includes(p)))) { selection = [p]; mark(); }
    return;
  }
  const from = selection[0];
  const fits = moves.filter((n) => pathsOf(n).some((path) => {
    const i = path.indexOf(from), j = path.lastIndexOf(p);
    return i >= 0 && j > i;
  }));
  selection = [];
  mark();
  if (fits.length === 1) { play(fits[0]); return; }
  if (fits.length > 1) {
    for (const b of $("moves").querySelectorAll("button.move")) b.parentElement.hidden = !fits.includes(b.dataset.notation);
    $("hint").textContent = `${fits.length} plays move a checker ${from}→${p}: pick one below.`;
  } else {
    $("error").textContent = `no legal play moves a checker from ${from} to ${p}`;
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
$("roll").addEventListener("click", () => play("roll"));
$("coords").addEventListener("change", show);
$("viewer").addEventListener("change", show);
$("rotate").addEventListener("click", () => {
  rotation = (rotation + 1) % 4;
  $("rotation").textContent = String(rotation);
  $("rotation").dataset.rotation = String(rotation);
  const spare = $("board").querySelector("#spare > rect");
  if (spare) {
    // Preview the turn on the drawn spare (the server turns it for real).
    const g = $("board").querySelector("#spare");
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
  if (!raw) return;
  await loadState(raw.startsWith("{") ? JSON.parse(raw) : { text: raw });
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest("input,textarea,select") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key === "u") $("undo").click();
  else if (ev.key === "r") $("redo").click();
  else if (ev.key === "a") $("autoplay").click();
});

// loadState checks a state with the server (Score decodes and validates
// it, and ObserveState with a spectator gives back both forms) and starts
// from it.
async function loadState(st) {
  try {
    const r = await call("observe", { state: st, player: -1 });
    // ObserveState masks Labyrinth cards: keep the state as given, with
    // the typed form only for a custom Gravity Trap board.
    const state = game === "labyrinth" ? { text: st.text || r.state.text, labyrinth: r.state.labyrinth } : r.state;
    if (game === "labyrinth" && !st.text) throw new Error("paste a Labyrinth state as text");
    await start(state);
  } catch (e) {
    $("error").textContent = e.message;
  }
}

async function boot() {
  const p = new URLSearchParams(location.hash.slice(1));
  // Object.hasOwn, not optKey[name]: a hash such as #game=__proto__ or
  // #game=toString names an inherited property, not a game.
  if (p.get("game") && !Object.hasOwn(optKey, p.get("game"))) {
    await newGame();
    $("error").textContent = `unknown game ${JSON.stringify(p.get("game"))} in the link; pick one of ${Object.keys(optKey).join(", ")}`;
    return;
  }
  if (p.get("game")) {
    game = p.get("game");
    $("game").value = game;
    showOpts();
    if (p.get("text") || p.get("json")) {
      await loadState(p.get("json") ? JSON.parse(p.get("json")) : { text: p.get("text") });
      if (history.length) return;
    }
  }
  await newGame();
}
boot();
