package server

import (
	"net/http"

	"github.com/rs/cors"
)

// withCORS lets the browser origins of cfg.CORSOrigins call the REST API
// (github.com/rs/cors): preflights are answered (204, with the allowed
// methods and headers, cached for 10 minutes), and answers carry
// Access-Control-Allow-Origin for an allowed origin. With no origins (the
// default) nothing changes: no CORS headers, and a preflight is 405.
func withCORS(cfg Options, next http.Handler) http.Handler {
	if len(cfg.CORSOrigins) == 0 {
		return next
	}
	return cors.New(cors.Options{
		AllowedOrigins: cfg.CORSOrigins,
		AllowedMethods: []string{http.MethodGet, http.MethodPost},
		AllowedHeaders: []string{"Content-Type", requestIDHeader, "Traceparent", "Tracestate"},
		ExposedHeaders: []string{requestIDHeader, "Retry-After"},
		MaxAge:         600,
	}).Handler(next)
}
