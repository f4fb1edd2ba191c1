// Gravity Trap in the playground (app.js lists the hooks): the board, first
// player and mirror options, Red and Blue, and station clicks (to place a
// ship, then to fly). A state on a custom board travels typed: its board is
// not in the text.
export default (page) => {
  const { $, enumIndex } = page;
  // ship is the station of a player's ship in st, or "".
  function ship(st, seat) {
    const g = st.gravityTrap || {};
    const v = seat === 0 ? g.redShip : g.blueShip;
    return v === undefined || v === null ? "" : String(v);
  }
  return {
    label: "Gravity Trap",
    order: 3,
    hint: "Click a marked station: to place your ship during set-up, then to fly along a line.",
    options: `<label>Board <select id="gt-board"><option>default</option><option>rings</option></select></label>
    <label>First <select id="gt-first"><option value="0">red</option><option value="1">blue</option></select></label>
    <label><input id="gt-mirror" type="checkbox"> Allow mirror placement</label>`,
    newGameOptions: () => ({
      board: $("gt-board").value,
      firstPlayer: Number($("gt-first").value),
      allowMirrorPlacement: $("gt-mirror").checked,
    }),
    targets: ["station"],
    toAct: (st) => (st.gravityTrap ? enumIndex(st.gravityTrap.turn, ["RED", "BLUE"]) : -1),
    seatNames: () => ["Red", "Blue"],
    // wire sends the text, unless the state is on a custom board, whose
    // board travels only in the typed state.
    wire(st) {
      if (st.gravityTrap && st.gravityTrap.board && !st.gravityTrap.board.name) return st;
      return { text: st.text };
    },
    destinations: () => page.moves.map((n) => n.replace(/^place /, "")),
    lastMarks({ move, before, mover }, add) {
      if (!move.startsWith("place ")) add(ship(before, mover), "STYLE_LAST_FROM");
      add(move.replace(/^place /, ""), "STYLE_LAST_TO");
    },
    click(el) {
      const station = el.dataset.station;
      if (station === undefined) return;
      const m = page.moves.find((n) => n === station || n === "place " + station);
      if (m) page.play(m); else page.say(`No legal move to station ${station}: the green dots are where you can go.`, true);
    },
  };
};
