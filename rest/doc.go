// Package rest is the REST/JSON face of the gamerules.v1 API: the
// grpc-gateway mux with the API's JSON (NewMux: protojson's names and
// options, the answers written by rest/fastjson, a request read by
// rest/restjson, which says in plain words why a body was refused), its
// error answers (a google.rpc.Status with details of its kind, 404 naming
// the routes, 405 with Allow, Retry-After on 429), the strict query of GET
// :render (StrictQuery), and the service as a gRPC service (NewServer: the
// in-process gateway's calls through the interceptor chain, and the gRPC
// port's registration).
//
// Every per-RPC table has one source: the Go calls come from package
// service/rpcs, and the routes, their metric and span labels and a 405's
// Allow from the service descriptor's google.api.http annotations
// (Routes, RouteOf, Allow). Package server wires it to its ports and
// limits; the WebAssembly build links only rest/restjson and
// rest/fastjson (no grpc-gateway), through rest/wasmcall.
//
// Files:
//
//	doc.go      this comment
//	gateway.go  NewMux: marshaler (strictJSON), routing errors (404, 405), error handler
//	errors.go   a refused request's details: the field and why (withDetails, readError)
//	query.go    StrictQuery: GET :render refuses a query parameter that is no field
//	routes.go   Route, Routes, RouteOf, Allow: from the descriptor's google.api.http rules
//	server.go   Server, NewServer (the service as a GameRulesServer through a chain), WithPeer
//
// Sub-packages: restjson (the JSON reader, checks, answer and error
// writers), fastjson (the fast answer writer), wasmcall (the REST API in
// process, for the WebAssembly build).
package rest
