// Abalone in the playground (app.js lists the hooks): the layout and ply
// limit options, Black and White, the board drawn from either side, and
// cell clicks that spell a move's notation (the trailing marble, then where
// it goes; a broadside's two ends, then where the first goes).
export default (page) => {
  const { $, enumIndex } = page;
  return {
    label: "Abalone",
    order: 1,
    hint: "Click the trailing marble (green dots show where it can go), then where it goes; for a broadside click both ends of the group, then where the first goes.",
    options: `<label>Layout <select id="ab-layout"><option>classic</option><option>belgian_daisy</option><option>german_daisy</option></select></label>
    <label>Ply limit <input id="ab-maxplies" type="number" min="0" max="1000000" value="0" size="6"></label>`,
    newGameOptions() {
      const o = { layout: $("ab-layout").value };
      const mp = Number($("ab-maxplies").value);
      if (mp > 0) o.maxPlies = mp;
      return o;
    },
    targets: ["cell"],
    toAct: (st) => (st.abalone ? enumIndex(st.abalone.turn, ["BLACK", "WHITE"]) : -1),
    seatNames: () => ["Black", "White"],
    flips: true,
    destinations() {
      if (!page.selection.length) return [];
      const s = page.selection.join("");
      return [...new Set(page.moves.filter((n) => n.startsWith(s) && n.length === s.length + 2).map((n) => n.slice(s.length)))];
    },
    selectedMarks: () => page.selection,
    lastMarks({ move }, add) {
      const cells = move.match(/[a-i][1-9]/g) || [];
      cells.slice(0, -1).forEach((c) => add(c, "STYLE_LAST_FROM"));
      add(cells[cells.length - 1], "STYLE_LAST_TO");
    },
    click(el) {
      if (el.dataset.cell) page.clickSelect(el.dataset.cell, (sel) => sel.join(""));
    },
  };
};
