// The playground's offline mode: with ?offline=1 in the page's address
// (or the "Offline" switch this file adds to the header), app.js's api()
// is answered by the rules compiled to WebAssembly (wasm/ and js/ in the
// repository), running in this page, instead of by /v1: nothing of the
// API goes over the network. The server serves the wasm at /wasm/ when it
// was started with --playground-wasm-dir js/dist (js/build.sh's output);
// else the offline mode shows that it is not served here.
//
// app.js imports this module and calls install(); it returns null when the
// page is online, else a backend whose api(path, body) answers as fetch
// would (a Response), or throws the message of the error answer.

// The REST routes' custom verbs and their RPCs (gamerules.v1.GameRules;
// web's TestOfflineRoutes checks them against the OpenAPI document).
const verbs = {
  new: "NewGame",
  legalMoves: "LegalMoves",
  applyMove: "ApplyMove",
  score: "Score",
  observe: "ObserveState",
  render: "RenderState",
  convert: "ConvertState",
  replay: "ReplayGame",
  importRecord: "ImportRecord",
  exportRecord: "ExportRecord",
  expand: "Expand",
  playout: "Playout",
};

// request turns a page's REST call into an RPC and its JSON request: the
// body, or a GET's query (dotted names nested, true/false as booleans; the
// API accepts numbers and enums as strings), with the path's fields.
function request(path, body) {
  const url = new URL(path, location.href);
  let m;
  if (url.pathname === "/v1/games") return ["ListGames", {}];
  if (url.pathname === "/v1/games:batch") return ["Batch", body === undefined ? {} : JSON.parse(JSON.stringify(body))];
  if ((m = url.pathname.match(/^\/v1\/games\/([^/:]+)\/boards\/([^/:]+)$/))) {
    return ["GetBoard", { game: decodeURIComponent(m[1]), name: decodeURIComponent(m[2]) }];
  }
  m = url.pathname.match(/^\/v1\/games\/([^/:]+):(\w+)$/);
  if (!m || !Object.hasOwn(verbs, m[2])) throw new Error(`offline: no RPC for ${path}`);
  const req = body === undefined ? {} : JSON.parse(JSON.stringify(body));
  for (const [k, v] of url.searchParams) {
    const keys = k.split(".");
    let o = req;
    for (const key of keys.slice(0, -1)) o = o[key] = o[key] || {};
    o[keys[keys.length - 1]] = v === "true" ? true : v === "false" ? false : v;
  }
  req.game = decodeURIComponent(m[1]);
  return [verbs[m[2]], req];
}

// base64Bytes decodes base64 to bytes.
function base64Bytes(s) {
  const bin = atob(s);
  const b = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) b[i] = bin.charCodeAt(i);
  return b;
}

// install adds the switch and returns the offline backend, or null online.
export function install() {
  const params = new URLSearchParams(location.search);
  const on = params.get("offline") === "1";
  const header = document.querySelector("header");
  if (header) {
    const label = document.createElement("label");
    label.className = "offline-switch";
    label.innerHTML = '<input id="offline" type="checkbox"> Offline: the rules run in this page (WebAssembly), not on the server';
    header.append(label);
    const box = label.querySelector("input");
    box.checked = on;
    box.addEventListener("change", () => {
      if (box.checked) params.set("offline", "1");
      else params.delete("offline");
      location.search = params.toString();
    });
  }
  if (!on) return null;
  const ready = import("/wasm/index.js").then(
    async (m) => ({ rules: await m.load(), isStatus: m.isStatus }),
    () => {
      throw new Error("offline: the rules as WebAssembly are not served here (start gamerulesd with --playground-wasm-dir js/dist after js/build.sh)");
    },
  );
  return {
    async api(path, body) {
      const { rules, isStatus } = await ready;
      const [rpc, req] = request(path, body);
      const text = rules.call(rpc, JSON.stringify(req));
      const answer = JSON.parse(text);
      if (isStatus(answer)) throw new Error(answer.message);
      if (rpc === "RenderState") {
        return new Response(base64Bytes(answer.data), { headers: { "Content-Type": answer.contentType } });
      }
      return new Response(text, { headers: { "Content-Type": "application/json" } });
    },
  };
}
