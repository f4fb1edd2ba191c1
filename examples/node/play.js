// Plays a whole game against a gamerules server with @grpc/grpc-js, one
// ApplyMove call per move (include_legal_moves brings the next moves, every
// answer carries the outcome), then shows how a refused request reads: the
// google.rpc.ErrorInfo reason and the BadRequest field, decoded from the
// grpc-status-details-bin trailer with the protos in third_party/.
//
//   npm ci && node play.js --addr 127.0.0.1:50051 --game backgammon --seed 1
//
// Loader options: keepCase (the field names are the .proto's, as the API
// documents them), longs: String (uint64 seeds do not fit a JS number),
// enums: String, defaults and oneofs (every field is there to read, and the
// oneof case is named). protobufjs drops an unknown field name and turns an
// unknown enum name into 0 without a word; `checked` below refuses both
// before a request leaves, and the server refuses enum 0 (UNSPECIFIED)
// wherever the value matters.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const repo = path.resolve(__dirname, '..', '..');
const includeDirs = [path.join(repo, 'proto'), path.join(repo, 'third_party')];
const loaderOptions = { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true, includeDirs };
const pkgDef = protoLoader.loadSync(['gamerules/v1/service.proto'], loaderOptions);
const GameRules = grpc.loadPackageDefinition(pkgDef).gamerules.v1.GameRules;

// checked returns obj after checking, against the message type's
// descriptor, that every key is a field and every enum value a known one,
// recursively; it throws naming the path otherwise.
function checked(typeName, obj, where = typeName) {
  const def = pkgDef['gamerules.v1.' + typeName];
  if (!def) throw new Error(`${where}: no message type ${typeName}`);
  const fields = new Map(def.type.field.map((f) => [f.name, f]));
  const oneofs = new Set(def.type.oneofDecl.map((o) => o.name));
  for (const [key, value] of Object.entries(obj)) {
    if (oneofs.has(key)) continue; // the loader's virtual "which case" key
    const f = fields.get(key);
    if (!f) throw new Error(`${where}.${key}: ${typeName} has no such field (the fields: ${[...fields.keys()].join(', ')})`);
    const values = f.label === 'LABEL_REPEATED' ? value : [value];
    for (const v of values) {
      if (v === null || v === undefined) continue;
      if (f.type === 'TYPE_MESSAGE') checked(f.typeName, v, `${where}.${key}`);
      if (f.type === 'TYPE_ENUM') {
        const known = pkgDef['gamerules.v1.' + f.typeName].type.value;
        if (!known.some((e) => e.name === v || e.number === v)) {
          throw new Error(`${where}.${key}: ${JSON.stringify(v)} is not a value of ${f.typeName} (${known.slice(1).map((e) => e.name).join(', ')})`);
        }
      }
    }
  }
  return obj;
}

// Error details: google.rpc.Status with Any details, from third_party.
const rpcRoot = new protobuf.Root();
rpcRoot.resolvePath = (origin, target) => {
  for (const dir of includeDirs) {
    const p = path.join(dir, target);
    if (require('fs').existsSync(p)) return p;
  }
  return protobuf.util.path.resolve(origin, target);
};
rpcRoot.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto']);
const Status = rpcRoot.lookupType('google.rpc.Status');

// describe turns a gRPC error into "CODE: message [reason R] [field F]".
function describe(err) {
  let s = `${grpc.status[err.code]}: ${err.details}`;
  const bin = err.metadata && err.metadata.get('grpc-status-details-bin')[0];
  if (!bin) return s;
  for (const any of Status.decode(bin).details) {
    const type = rpcRoot.lookupType(any.type_url.slice(any.type_url.lastIndexOf('/') + 1));
    const d = type.decode(any.value);
    if (type.name === 'ErrorInfo') s += ` [reason ${d.reason}, domain ${d.domain}]`;
    if (type.name === 'BadRequest') for (const v of d.fieldViolations) s += ` [field ${v.field}]`;
  }
  return s;
}

function call(client, method, requestType, req) {
  return new Promise((resolve, reject) => {
    client[method](checked(requestType, req), { deadline: Date.now() + 30000 }, (err, resp) => (err ? reject(err) : resolve(resp)));
  });
}

// A small seeded generator (mulberry32), so a seed replays the same game.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const options = {
  abalone: { abalone: { max_plies: 200 } }, // random Abalone rarely pushes six off
  labyrinth: { labyrinth: { players: 2, open_cards: true, no_return: true } }, // a shorter game
};

async function play(client, game, seed, maxPlies) {
  const rand = rng(seed);
  const ng = await call(client, 'NewGame', 'NewGameRequest', { game, seed: String(seed), ...(options[game] || {}) });
  const lm = await call(client, 'LegalMoves', 'LegalMovesRequest', { game, state: ng.state });
  let state = ng.state;
  let moves = lm.moves;
  let plies = 0;
  let calls = 2;
  let last;
  while (moves.length > 0) {
    if (plies === maxPlies) throw new Error(`${game}: not finished after ${plies} plies`);
    const m = moves[Math.floor(rand() * moves.length)];
    last = await call(client, 'ApplyMove', 'ApplyMoveRequest', {
      game,
      state: { text: state.text, [state.state]: state[state.state] },
      move: { notation: m.notation },
      seed: String(Math.floor(rand() * 2 ** 32)),
      include_legal_moves: true,
    });
    calls++;
    plies++;
    state = last.state;
    moves = last.next.moves;
    if (last.finished !== (moves.length === 0)) throw new Error(`ply ${plies}: finished=${last.finished} with ${moves.length} moves`);
  }
  return { plies, calls, last };
}

async function main() {
  const args = { addr: '127.0.0.1:50051', game: 'backgammon', seed: '1', 'max-plies': '20000' };
  for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
  // deploy/grpc-service-config.json: round_robin over every address the
  // target resolves to (--addr dns:///gamerules-headless:50051 for a
  // fleet) and retries on UNAVAILABLE (grpc-js ignores healthCheckConfig).
  const serviceConfig = require('fs').readFileSync(path.join(__dirname, '..', '..', 'deploy', 'grpc-service-config.json'), 'utf8');
  const client = new GameRules(args.addr, grpc.credentials.createInsecure(), { 'grpc.service_config': serviceConfig });
  try {
    // --game all: every game the server lists (ListGames, sorted by id).
    const games = args.game === 'all' ? (await call(client, 'ListGames', 'ListGamesRequest', {})).games.map((g) => g.id) : [args.game];
    for (const game of games) {
      const { plies, calls, last } = await play(client, game, Number(args.seed), Number(args['max-plies']));
      const winner = last.winner === undefined || last.winner === null ? 'none (a draw)' : last.winner;
      console.log(`${game}: finished after ${plies} plies (${calls} calls): winner ${winner}, points ${last.points}, ${last.detail}`);
      // A refused request, to show the error details.
      try {
        await call(client, 'ApplyMove', 'ApplyMoveRequest', { game, state: { text: last.state.text, [last.state.state]: last.state[last.state.state] }, move: { notation: 'anything' } });
        throw new Error('a move after the end was accepted');
      } catch (err) {
        if (err.code === undefined) throw err;
        const d = describe(err);
        console.log(`a move after the end: ${d}`);
        if (!d.includes('reason GAME_OVER') || !d.includes('field move.notation')) throw new Error(`unexpected error details: ${d}`);
      }
    }
    // A misspelled field or enum is refused here, before it is silently dropped.
    for (const bad of [{ game: 'abalone', abalone: { layout: 'custom', turn: 'WHITE' } }, { game: 'abalone', includeLegalMoves: true }]) {
      try {
        checked('NewGameRequest', bad);
        throw new Error(`checked accepted ${JSON.stringify(bad)}`);
      } catch (err) {
        console.log(`refused before sending: ${err.message}`);
      }
    }
  } finally {
    client.close();
  }
}

main().catch((err) => {
  console.error(err.code !== undefined ? describe(err) : err);
  process.exit(1);
});
