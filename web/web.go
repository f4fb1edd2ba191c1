// Package web is the playground: a static page (index.html, app.js,
// style.css, embedded in the binary) that plays every game through the
// public REST API only — ListGames, NewGame, LegalMoves, ApplyMove, Score,
// ObserveState and RenderState — so it is also a worked example of a
// client. Nothing is fetched from the internet and there is no build step:
// edit the files in static/ and rebuild.
//
// The page names no game: it lists ListGames' games and loads, for each
// id, its module static/games/<id>.js (an ES module whose hooks app.js's
// head comment lists: the options form, whose turn it is, how a board
// click spells a move, the marks); a game without one is played from the
// move list.
//
//	static/index.html      the page: menus, buttons, the board's box
//	static/app.js          the generic page (history, moves, marks, seats, links)
//	static/offline.js      ?offline=1: the API answered by the wasm in the page
//	static/style.css       the page's style
//	static/games/<id>.js   one module per game
//	static/favicon.ico     the icon
//
// server (gamerulesd) serves Handler at "/" (the page) and "/static/" (its
// assets) on the HTTP port.
package web

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var files embed.FS

// Static holds the page's files: index.html, app.js, offline.js,
// style.css, games/<id>.js, and favicon.ico (16×16, a point and a
// checker), also served at /favicon.ico.
var Static, _ = fs.Sub(files, "static")

// Register adds the playground's routes to mux: GET / (exactly) for the
// page, GET /static/ for its assets and GET /favicon.ico (browsers ask for
// it on every page of the server, /docs too). Other paths are left to the
// mux's other handlers (the REST gateway).
func Register(mux *http.ServeMux) {
	assets := http.StripPrefix("/static/", http.FileServerFS(Static))
	mux.Handle("GET /static/", noCache(assets))
	mux.Handle("GET /{$}", noCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, Static, "index.html")
	})))
	mux.Handle("GET /favicon.ico", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=86400")
		w.Header().Set("Content-Type", "image/x-icon")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeFileFS(w, r, Static, "favicon.ico")
	}))
}

// WasmFiles are the files of js/build.sh's output that the server serves
// at /wasm/ for the playground's offline mode (server/pages, from
// --playground-wasm-dir): the rules as WebAssembly, the Go toolchain's
// loader and the ES module that starts them (web/static/offline.js imports
// it).
var WasmFiles = []string{"gamerules.wasm", "wasm_exec.js", "index.js"}

// noCache asks browsers to revalidate, so a new binary's page is used at
// once (the files are small).
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}
