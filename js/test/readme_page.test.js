// The README's page example ("## A page") runs as written, in Node with a
// stand-in document: its script, the import of load() aside, is run with
// load() of dist/, and the board it writes is the SVG RenderState drew,
// text beyond ASCII intact (Gravity Trap's status "Red to move · N
// marbles left": atob alone would give "Â·", issue 34).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import "../dist/wasm_exec.js";
import { load } from "../dist/index.js";

const wasm = new URL("../dist/gamerules.wasm", import.meta.url);

test("the README's page example decodes the board as UTF-8", async () => {
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## A page"));
  const html = section.slice(section.indexOf("```html"), section.indexOf("```", section.indexOf("```html") + 7));
  const script = html.match(/<script type="module">([\s\S]*?)<\/script>/);
  assert.ok(script, "the page example has a module script");
  const importLine = /^\s*import \{ load \} from "[^"]+";.*$/m;
  assert.match(script[1], importLine);
  const body = script[1].replace(importLine, "");
  const boards = {};
  const document = { getElementById: (id) => (boards[id] ??= { innerHTML: "" }) };
  const logged = [];
  const console = { log: (...a) => logged.push(a) };
  const AsyncFunction = (async () => {}).constructor;
  await new AsyncFunction("load", "document", "console", body)(() => load(wasm), document, console);
  const svg = boards.board && boards.board.innerHTML;
  assert.ok(svg && svg.startsWith("<svg"), `the board is not an SVG: ${String(svg).slice(0, 80)}`);
  assert.match(svg, /to move · \d+ marbles left/, "the status line lost its middle dot");
  assert.ok(!svg.includes("Â"), "the SVG was decoded as Latin-1");
  assert.equal(logged.length, 1);
  assert.ok(Array.isArray(logged[0][0]) && logged[0][0].length > 0, "the example logs the legal moves");
});
