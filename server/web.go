package server

import (
	"net/http"

	"github.com/gamerules/gamerules/web"
)

// registerWeb serves the playground (package web) on the HTTP port: the
// page at "/" and its assets under "/static/"; every other path stays the
// REST gateway's. With wasmDir (Options.PlaygroundWasmDir), the offline
// mode's files are served from it under "/wasm/".
func registerWeb(mux *http.ServeMux, wasmDir string) {
	web.Register(mux)
	web.RegisterWasm(mux, wasmDir)
}
