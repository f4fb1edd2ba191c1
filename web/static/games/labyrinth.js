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
        // Preview the turn on the drawn spare, and on the panel's copy on
        // a phone (the server turns it for real).
        for (const g of $("board").querySelectorAll('#spare-tile, [data-copy-of="spare-tile"]')) {
          const spare = g.querySelector("rect");
          if (!spare) continue;
          const r = spare.getBBox();
          g.setAttribute("transform", `rotate(${90 * rotation} ${r.x + r.width / 2} ${r.y + r.height / 2})`);
        }
      });
    },
    // On a phone the panel (spare tile, whose turn, the targets, the
    // legend) goes under the board, so the board's squares and arrows
    // stay over 32 CSS px at 390 px: see painted().
    css: `#board svg.lb-panel { width: 62%; max-width: 260px; margin: 6px auto 0; }`,
    painted() {
      const svg = $("board").querySelector('svg[data-game="labyrinth"]');
      if (!svg || !window.matchMedia("(max-width: 600px)").matches) return;
      // The board's picture cropped to the board, and under it a copy
      // cropped to the panel: the copy without ids or click targets (ids
      // become data-copy-of), so the page and its hooks see one board.
      const vb = svg.viewBox.baseVal, panel = 220, board = vb.width - panel;
      const copy = svg.cloneNode(true);
      for (const el of [copy, ...copy.querySelectorAll("*")]) {
        if (el.id) { el.dataset.copyOf = el.id; el.removeAttribute("id"); }
        for (const a of ["data-square", "data-insertion", "tabindex", "role", "aria-label"]) el.removeAttribute(a);
      }
      copy.setAttribute("class", "lb-panel");
      copy.setAttribute("aria-hidden", "true");
      copy.style.maxWidth = "";
      // (width and height too: they give the box its shape.)
      const h = vb.height;
      copy.setAttribute("viewBox", `${board} 0 ${panel} ${h}`);
      copy.setAttribute("width", String(panel));
      copy.setAttribute("height", String(h));
      svg.setAttribute("viewBox", `0 0 ${board} ${h}`);
      svg.setAttribute("width", String(board));
      svg.setAttribute("height", String(h));
      svg.style.maxWidth = "";
      svg.after(copy);
    },
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
