package server

import (
	"net/http"

	"github.com/gamerules/gamerules/web"
)

// registerWeb serves the playground (package web) on the HTTP port: the
// page at "/" and its assets under "/static/"; every other path stays the
// REST gateway's.
func registerWeb(mux *http.ServeMux) { web.Register(mux) }
