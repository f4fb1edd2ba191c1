// A third-party MCP client, the reference TypeScript SDK's
// (@modelcontextprotocol/sdk, pinned in package-lock.json), against
// gamerules' MCP server: it lists the tools, checks the contract's names,
// and plays a whole game of every game list_games lists to the end, over
// streamable HTTP and over stdio. Each game: new_game, then the moves of the
// greedy playout's game from the current state (playout with games 1,
// policy greedy, include_moves), each played with apply_move; one refused
// move (chess notation) on the way, whose error must list legal moves; a
// move on the finished game, refused; score, which must agree.
//
// Usage: node play.mjs --bin path/to/gamerules-mcp [--transport http|stdio|both]
//        node play.mjs --url http://127.0.0.1:8080/mcp   (a running server's /mcp, e.g. gamerulesd's)
// Over HTTP it starts `gamerules-mcp --http 127.0.0.1:0` and reads the
// address from its "listening on" line; over stdio the SDK starts the
// command itself.
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const { values: opts } = parseArgs({
  options: {
    bin: { type: "string" },
    url: { type: "string" },
    transport: { type: "string", default: "both" },
  },
});
if (!opts.bin && !opts.url) {
  console.error("usage: node play.mjs --bin path/to/gamerules-mcp [--transport http|stdio|both] | --url http://host:port/mcp");
  process.exit(2);
}

const contract = ["list_games", "new_game", "legal_moves", "apply_move", "score"];

function fail(msg) {
  throw new Error(msg);
}

function text(res) {
  return (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

async function call(client, name, args) {
  return client.callTool({ name, arguments: args });
}

async function plan(client, game, state, seed) {
  const res = await call(client, "playout", {
    game, state, games: 1, policy: "greedy", include_moves: true, first_move_by_policy: true, seed: String(seed),
  });
  if (res.isError) fail(`playout: ${text(res)}`);
  const moves = res.structuredContent?.played?.games?.[0]?.moves;
  if (!moves?.length) fail(`playout planned no moves from ${state}`);
  return moves;
}

async function playGame(client, game) {
  const ng = await call(client, "new_game", { game, seed: "11" });
  if (ng.isError) fail(`new_game ${game}: ${text(ng)}`);
  let cur = ng.structuredContent;
  if (typeof cur.state !== "string" || cur.finished !== false) fail(`new_game ${game}: ${JSON.stringify(cur)}`);
  let moves = [];
  let seed = 1;
  let plies = 0;
  let refusedOnce = false;
  let last = "";
  while (!cur.finished) {
    if (plies > 3000) fail(`${game}: no end after ${plies} plies`);
    if (!moves.length) moves = await plan(client, game, cur.state, seed++);
    const mv = moves.shift();
    if (!refusedOnce && !mv.startsWith("roll")) {
      refusedOnce = true;
      const bad = await call(client, "apply_move", { game, state: cur.state, move: "e2e4" });
      if (!bad.isError || !text(bad).includes("Legal moves in the state you sent")) fail(`${game}: e2e4: ${text(bad)}`);
    }
    const res = await call(client, "apply_move", { game, state: cur.state, move: mv });
    if (res.isError) fail(`${game}: apply_move ${mv}: ${text(res)}`);
    const next = res.structuredContent;
    if (typeof next.state !== "string" || typeof next.finished !== "boolean" || !Array.isArray(next.legal_moves)) {
      fail(`${game}: apply_move answered ${JSON.stringify(next)}`);
    }
    last = next.move;
    cur = next;
    plies++;
  }
  const over = await call(client, "apply_move", { game, state: cur.state, move: last });
  if (!over.isError || !text(over).includes("finished")) fail(`${game}: a move on the finished game: ${text(over)}`);
  const sc = await call(client, "score", { game, state: cur.state });
  const s = sc.structuredContent;
  if (sc.isError || s.finished !== true || (s.winner ?? null) !== (cur.winner ?? null)) {
    fail(`${game}: score ${JSON.stringify(s)} after apply_move's ${JSON.stringify({ winner: cur.winner })}`);
  }
  return { plies, winner: s.winner, points: s.points };
}

async function session(client, label) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of contract) if (!names.includes(name)) fail(`${label}: no tool ${name} in ${names}`);
  const lg = await call(client, "list_games", {});
  const games = lg.structuredContent.games.map((g) => g.id);
  if (games.length < 4) fail(`${label}: list_games ${games}`);
  for (const game of games) {
    const r = await playGame(client, game);
    console.log(`${label}: ${game}: ${r.plies} plies, winner ${r.winner ?? "none"}, points ${JSON.stringify(r.points)}`);
  }
  console.log(`${label}: ${tools.length} tools listed; ${games.length} games played to the end`);
}

async function overHTTP() {
  const proc = spawn(opts.bin, ["--http", "127.0.0.1:0"], { stdio: ["ignore", "inherit", "pipe"] });
  try {
    const url = await new Promise((resolve, reject) => {
      let buf = "";
      proc.stderr.on("data", (d) => {
        buf += d;
        const m = buf.match(/listening on (http:\/\/\S+)/);
        if (m) resolve(m[1]);
      });
      proc.on("exit", (code) => reject(new Error(`gamerules-mcp --http exited (${code}): ${buf}`)));
    });
    const client = new Client({ name: "gamerules-clienttest", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await session(client, "http");
    await client.close();
  } finally {
    proc.kill();
  }
}

async function overURL(url) {
  const client = new Client({ name: "gamerules-clienttest", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await session(client, `http ${url}`);
  await client.close();
}

async function overStdio() {
  const client = new Client({ name: "gamerules-clienttest", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: opts.bin, args: [] }));
  await session(client, "stdio");
  await client.close();
}

try {
  if (opts.url) {
    await overURL(opts.url);
    process.exit(0);
  }
  if (opts.transport === "http" || opts.transport === "both") await overHTTP();
  if (opts.transport === "stdio" || opts.transport === "both") await overStdio();
} catch (e) {
  console.error("FAIL:", e.message);
  process.exit(1);
}
