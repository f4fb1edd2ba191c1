// Calls a gamerules server through the TypeScript client that
// openapi-typescript-codegen generated from the server's own /openapi.json
// (run.sh): GET :render with the state's text form alone, in SVG and in
// text, and POST :legalMoves, as a user of the generated client would
// write them, with no dummy value for a parameter the server does not
// need. tsc --strict compiles this file against the generated client, so a
// parameter the document marked required would fail the build here.
import { ApiError, GameRulesService, OpenAPI } from "./gen";

// Node's process, declared here rather than with @types/node.
declare const process: { argv: string[]; exit(code: number): never };

const state = "RoooBooooooooooooooooo r"; // Gravity Trap, red to move (the docs' example)

function fail(msg: string): never {
  console.error(`openapi-ts: ${msg}`);
  process.exit(1);
}

async function main(): Promise<void> {
  const base = process.argv[2];
  if (!base) fail("usage: node dist/call.js http://HOST:PORT");
  OpenAPI.BASE = base;
  try {
    const svg: unknown = await GameRulesService.gameRulesRenderState({ game: "gravity_trap", stateText: state });
    if (typeof svg !== "string" || !svg.includes("<svg")) fail(`GET :render answered ${String(svg).slice(0, 200)}`);
    console.log(`GET :render (SVG): ${svg.length} characters`);

    const text: unknown = await GameRulesService.gameRulesRenderState({
      game: "gravity_trap",
      stateText: state,
      format: "RENDER_FORMAT_TEXT",
    });
    if (typeof text !== "string" || text.includes("<svg") || text.length === 0) fail(`GET :render as text answered ${String(text).slice(0, 200)}`);
    console.log(`GET :render (text): ${text.split("\n").length} lines`);

    const legal = await GameRulesService.gameRulesLegalMoves({ game: "gravity_trap", body: { state: { text: state } } });
    if (!("moves" in legal) || !Array.isArray(legal.moves) || legal.moves.length === 0) {
      fail(`POST :legalMoves answered ${JSON.stringify(legal).slice(0, 300)}`);
    }
    console.log(`POST :legalMoves: ${legal.moves.length} moves: ${legal.moves.map((m) => m.notation).join(" ")}`);

    // An error is the document's 400: a google.rpc.Status with its reason.
    try {
      await GameRulesService.gameRulesLegalMoves({ game: "gravity_trap", body: { state: { text: "x" } } });
      fail("POST :legalMoves of a bad state did not fail");
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 400 || e.body?.details?.[0]?.reason !== "INVALID_STATE") throw e;
      console.log(`POST :legalMoves of a bad state: 400 ${e.body.details[0].reason}`);
    }
  } catch (e) {
    if (e instanceof ApiError) fail(`${e.status} ${e.url}: ${JSON.stringify(e.body).slice(0, 300)}`);
    throw e;
  }
}

void main();
