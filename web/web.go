// Package web is the playground: a static page (index.html, app.js,
// style.css, embedded in the binary) that plays every game through the
// public REST API only — NewGame, LegalMoves, ApplyMove, Score,
// ObserveState and RenderState — so it is also a worked example of a
// client. Nothing is fetched from the internet and there is no build step:
// edit the files in static/ and rebuild.
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

// Static holds the page's files: index.html, app.js, style.css.
var Static, _ = fs.Sub(files, "static")

// Register adds the playground's routes to mux: GET / (exactly) for the
// page and GET /static/ for its assets. Other paths are left to the
// mux's other handlers (the REST gateway).
func Register(mux *http.ServeMux) {
	assets := http.StripPrefix("/static/", http.FileServerFS(Static))
	mux.Handle("GET /static/", noCache(assets))
	mux.Handle("GET /{$}", noCache(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, Static, "index.html")
	})))
}

// noCache asks browsers to revalidate, so a new binary's page is used at
// once (the files are small).
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}
