package pages

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"net/http"
	"strings"

	"google.golang.org/grpc/codes"

	"github.com/gamerules/gamerules/server/limit"
)

// rapidocJS is RapiDoc 9.3.8 (npm rapidoc, MIT licence: docsui/LICENSE),
// its dist/rapidoc-min.js gzipped as published. It renders /openapi.json at
// /docs; nothing is fetched from elsewhere at run time (fonts are the
// browser's: load-fonts="false"; the page's Content-Security-Policy allows
// this origin only).
//
//go:embed docsui/rapidoc-min.js.gz
var rapidocJS []byte

// docsPage is the /docs page.
const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>gamerules API</title>
<script type="module" src="/docs/rapidoc-min.js"></script>
</head>
<body>
<rapi-doc spec-url="/openapi.json" load-fonts="false" render-style="read" show-header="false"
  allow-server-selection="false" allow-authentication="false" schema-description-expanded="true"></rapi-doc>
</body>
</html>
`

// docsCSP keeps the page to this origin: scripts, the OpenAPI document and
// "try it" calls; RapiDoc's styles are inline.
const docsCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"

// registerDocs serves /docs and its script.
func registerDocs(mux *http.ServeMux) {
	mux.HandleFunc("GET /docs", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", docsCSP)
		_, _ = io.WriteString(w, docsPage)
	})
	mux.HandleFunc("GET /docs/rapidoc-min.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=86400")
		w.Header().Set("Vary", "Accept-Encoding")
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			w.Header().Set("Content-Encoding", "gzip")
			_, _ = w.Write(rapidocJS)
			return
		}
		zr, err := gzip.NewReader(bytes.NewReader(rapidocJS))
		if err != nil {
			limit.WriteError(w, http.StatusInternalServerError, codes.Internal, "internal error: the embedded RapiDoc script is not gzip")
			return
		}
		_, _ = io.Copy(w, zr)
	})
}
