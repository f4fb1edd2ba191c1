// Package openapiv2 embeds the OpenAPI (Swagger 2.0) document that
// protoc-gen-openapiv2 writes next to this file, so the server can serve it.
// This file is hand-written; scripts/gen.sh keeps it and replaces the JSON.
package openapiv2

import _ "embed"

// GameRules is the OpenAPI document of the gamerules.v1 REST API (JSON).
//
//go:embed gamerules.swagger.json
var GameRules []byte
