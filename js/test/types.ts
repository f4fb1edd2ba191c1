// A use of the package's declarations, type-checked by build.sh (tsc): the
// generated request and answer types must fit what a client writes.
import { load, isStatus, type Request, type Answer } from "../dist/index.js";

const rules = await load();
const req: Request<"LegalMoves"> = { game: "backgammon", state: { text: "4HPwATDgc/ABMA:MIEFAAAAAAAE" }, includeResults: true };
const lm: Answer<"LegalMoves"> = rules.request("LegalMoves", req);
const first: string | undefined = lm.moves?.[0]?.notation;
const raw: string = rules.call("ApplyMove", { game: "backgammon", state: req.state, move: { notation: first } });
const parsed: unknown = JSON.parse(raw);
if (isStatus(parsed)) {
  const code: number | undefined = parsed.code;
  console.log(code, parsed.message);
}
const svg: Answer<"RenderState"> = rules.request("RenderState", { game: "abalone", state: { text: "x" } });
const ct: string | undefined = svg.contentType;
// @ts-expect-error: a typo in a field name is a type error
const bad: Request<"Score"> = { game: "abalone", stat: {} };
console.log(ct, bad);
