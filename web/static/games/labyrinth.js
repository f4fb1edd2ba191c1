// Labyrinth in the playground (app.js lists the hooks): the players and
// rule options, the players' colours, the spare's rotation button, and
// clicks on the arrows (shift) and squares (move). Its hidden information
// (ListGames) gives the page its viewer; the page does the rest.
export default (page) => {
  const { $ } = page;
  let rotation = 0; // quarter turns for the next shift
  const isShift = (n) => /^[NESW]\d/.test(n);
  function setRotation(r) {
    rotation = r;
    $("rotation").textContent = String(rotation);
    $("rotation").dataset.rotation = String(rotation);
  }
  return {
    label: "Labyrinth",
    order: 2,
    hint: "Shift: rotate the spare if you like, then click a marked arrow. Move: click a marked square (your own square to stay).",
    options: `<label>Players <select id="lb-players"><option>2</option><option>3</option><option>4</option></select></label>
    <label><input id="lb-vader" type="checkbox" checked> Darth Vader</label>
    <label><input id="lb-open" type="checkbox"> Open cards</label>
    <label><input id="lb-noreturn" type="checkbox"> No return</label>`,
    newGameOptions: () => ({
      players: Number($("lb-players").value),
      vader: $("lb-vader").checked,
      openCards: $("lb-open").checked,
      noReturn: $("lb-noreturn").checked,
    }),
    controls: `<span id="rotate-wrap" hidden><button id="rotate" type="button">Rotate spare</button> <span id="rotation" data-rotation="0">0</span> quarter turn(s)</span>`,
    setup() {
      $("rotate").addEventListener("click", () => {
        setRotation((rotation + 1) % 4);
        const g = $("board").querySelector("#spare-tile") || $("board").querySelector("#spare");
        const spare = g && g.querySelector("rect");
        if (spare) {
          // Preview the turn on the drawn spare (the server turns it for real).
          const r = spare.getBBox();
          g.setAttribute("transform", `rotate(${90 * rotation} ${r.x + r.width / 2} ${r.y + r.height / 2})`);
        }
      });
    },
    css: `@media (max-width: 600px) { #board svg[data-game="labyrinth"] { min-width: 580px; } }`,
    targets: ["square", "insertion"],
    toAct: (st) => (st.labyrinth ? Number(st.labyrinth.turn || 0) : -1),
    seatNames(st) {
      const ps = (st && st.labyrinth && st.labyrinth.players) || [];
      return ps.map((p, i) => {
        const c = String(p.color || "").replace(/^LABYRINTH_COLOR_/, "").toLowerCase();
        return c ? c[0].toUpperCase() + c.slice(1) : `Player ${i}`;
      });
    },
    destinations: () => [...new Set(page.moves.map((n) => n.replace(/^V:/, "").replace(/:\d$/, "")))],
    lastMarks({ move, previous }, add) {
      if (isShift(move)) add(move.replace(/:\d$/, ""), "STYLE_LAST_TO");
      else {
        add(move.replace(/^V:/, ""), "STYLE_LAST_TO");
        if (isShift(previous)) add(previous.replace(/:\d$/, ""), "STYLE_LAST_FROM");
      }
    },
    click(el) {
      const d = el.dataset, moves = page.moves;
      if (d.insertion) {
        if (d.forbidden) { page.say(`${d.insertion} would undo the previous push.`, true); return; }
        const want = rotation ? `${d.insertion}:${rotation}` : d.insertion;
        const m = moves.includes(want) ? want : moves.find((n) => n === d.insertion || n.startsWith(d.insertion + ":"));
        if (m) page.play(m); else page.say(`Now is not the time to insert at ${d.insertion}: move your ship first.`, true);
      } else if (d.square) {
        const m = moves.find((n) => n === d.square) || moves.find((n) => n === "V:" + d.square);
        if (m) page.play(m);
        else if (isShift(moves[0])) page.say("Insert the spare tile first: click a marked arrow.", true);
        else page.say(`Cannot reach ${d.square}: the green dots are the squares you can reach.`, true);
      }
    },
    shown() { $("rotate-wrap").hidden = !(page.moves.length && isShift(page.moves[0])); },
    // Any move played resets the rotation (as the page always did).
    moved() { setRotation(0); },
  };
};
