// Package openapipatch completes the OpenAPI (Swagger 2.0) document that
// protoc-gen-openapiv2 writes from the protos with what the generator cannot
// know, so that client generators in other languages get usable types:
//
//   - every response message lists its always-present fields as required (the
//     REST gateway writes zero values out, so only proto3 `optional` fields
//     and oneof cases can be absent);
//   - the game id (the `{game}` path parameter and GameInfo.id) gets its enum
//     of the ids this build serves;
//   - every route lists its real error responses: 400 (a google.rpc.Status
//     whose details are a google.rpc.ErrorInfo and a google.rpc.BadRequest),
//     413 and 429, with the error detail types described;
//   - every route gets an example request and the server's real answer to it
//     (computed here by calling the service, so the examples cannot drift);
//   - every route gets a short summary (summaries), the menu entry of /docs
//     and the method name of generated clients' docs; the generator puts
//     the proto comment's first paragraph there, which goes to the
//     description, in front of the rest;
//   - :render answers an image or text, not the google.api.HttpBody
//     message the generator describes;
//   - GET :render lists only the query parameters a GET is meant to take,
//     the state's text form and the drawing options, none of them required
//     (the generator lists every field of the typed state forms, some marked
//     required, which a generated client would have to send).
//
// scripts/gen.sh runs it (go run ./internal/openapipatch/cmd) after buf
// generate; the result is committed like the rest of gen/.
package openapipatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/service"
	"github.com/gamerules/gamerules/service/rpcs"
)

// Patch returns the completed document for the generator's output doc.
// Running it on its own output gives the same document again.
func Patch(doc []byte) ([]byte, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("openapipatch: %w", err)
	}
	defs, ok := d["definitions"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("openapipatch: the document has no definitions")
	}
	paths, ok := d["paths"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("openapipatch: the document has no paths")
	}
	markRequired(defs)
	games := service.New().Games()
	if info, ok := defs["v1GameInfo"].(map[string]any); ok {
		if id, ok := info["properties"].(map[string]any)["id"].(map[string]any); ok {
			id["enum"] = games
		}
	}
	addErrorDefinitions(defs)
	for path, item := range paths {
		for method, op := range item.(map[string]any) {
			o := op.(map[string]any)
			for _, p := range asList(o["parameters"]) {
				if pm := p.(map[string]any); pm["name"] == "game" && pm["in"] == "path" {
					pm["enum"] = games
				}
			}
			o["responses"] = errorResponses(o["responses"].(map[string]any))
			if err := summarize(o); err != nil {
				return nil, err
			}
			if strings.HasSuffix(path, ":render") {
				renderAnswer(o)
				if method == "get" {
					o["parameters"] = renderQuery(asList(o["parameters"]))
				}
			}
			if err := addExamples(defs, path, method, o); err != nil {
				return nil, err
			}
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("openapipatch: %w", err)
	}
	return buf.Bytes(), nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// responseMessages are the messages only ever sent by the server, with their
// definition names; their fields outside oneofs are always written.
var responseMessages = []proto.Message{
	&gamerulesv1.ListGamesResponse{}, &gamerulesv1.GameInfo{}, &gamerulesv1.NewGameResponse{},
	&gamerulesv1.LegalMovesResponse{}, &gamerulesv1.ApplyMoveResponse{}, &gamerulesv1.ScoreResponse{},
	&gamerulesv1.ObserveStateResponse{}, &gamerulesv1.GetBoardResponse{}, &gamerulesv1.ReplayGameResponse{},
	&gamerulesv1.ImportRecordResponse{}, &gamerulesv1.ExportRecordResponse{}, &gamerulesv1.NextMoves{},
	&gamerulesv1.ConvertStateResponse{},
}

// alwaysSetMessages are the message fields of responses the service always
// sets (the returned state, the applied move); other message fields may be
// absent.
var alwaysSetMessages = map[protoreflect.Name]bool{"state": true, "move": true, "start": true, "result": true, "replay": true}

// markRequired lists, in each response message's definition, the fields the
// server always writes: all but oneof cases (proto3 `optional` included).
// Of message fields, only those in alwaysSetMessages.
func markRequired(defs map[string]any) {
	for _, m := range responseMessages {
		md := m.ProtoReflect().Descriptor()
		def, ok := defs["v1"+string(md.Name())].(map[string]any)
		if !ok {
			continue
		}
		var req []string
		fields := md.Fields()
		for i := 0; i < fields.Len(); i++ {
			f := fields.Get(i)
			if f.ContainingOneof() != nil {
				continue
			}
			if f.Kind() == protoreflect.MessageKind && !f.IsList() && !alwaysSetMessages[f.Name()] {
				continue // e.g. ScoreResponse.backgammon, only with the cube in use
			}
			req = append(req, f.JSONName())
		}
		def["required"] = req
	}
}

// summaries are the routes' short summaries, by operation id: a few words
// each (at most maxSummary characters), the menu of /docs. The proto
// comment stays whole in the description.
var summaries = map[string]string{
	"GameRules_ListGames":    "List the games served",
	"GameRules_NewGame":      "Start a game",
	"GameRules_LegalMoves":   "List the legal moves",
	"GameRules_ApplyMove":    "Apply a move",
	"GameRules_Score":        "Score a state",
	"GameRules_ObserveState": "One player's view of a state",
	"GameRules_RenderState":  "Draw a state (text form in the query)",
	"GameRules_RenderState2": "Draw a state (JSON body, any form)",
	"GameRules_GetBoard":     "Get a built-in board",
	"GameRules_ConvertState": "Write a state in other text forms",
	"GameRules_ReplayGame":   "Replay a game from its moves",
	"GameRules_ImportRecord": "Import a game record",
	"GameRules_ExportRecord": "Export a game as a record",
	"GameRules_Batch":        "Many calls in one",
	"GameRules_Expand":       "Expand the game tree",
	"GameRules_Playout":      "Play games out to the end",
}

// maxSummary is the longest summary, in characters: one line of the menu.
const maxSummary = 60

// summarize sets op's summary from summaries, moving the generator's
// summary (the proto comment's first paragraph) in front of the
// description. On a patched operation it changes nothing.
func summarize(op map[string]any) error {
	id, _ := op["operationId"].(string)
	short, ok := summaries[id]
	if !ok {
		return fmt.Errorf("openapipatch: no summary for %s; add one", id)
	}
	if len(short) > maxSummary {
		return fmt.Errorf("openapipatch: the summary of %s is %d characters, over %d", id, len(short), maxSummary)
	}
	old, _ := op["summary"].(string)
	if old == short {
		return nil
	}
	desc, _ := op["description"].(string)
	if old != "" && desc != "" {
		desc = old + "\n\n" + desc
	} else if old != "" {
		desc = old
	}
	op["summary"] = short
	if desc != "" {
		op["description"] = desc
	}
	return nil
}

// renderOptions are the query parameters of GET :render besides the state's
// text form: RenderStateRequest's fields other than the state.
var renderOptions = func() map[string]bool {
	m := map[string]bool{}
	fields := (&gamerulesv1.RenderStateRequest{}).ProtoReflect().Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		if f := fields.Get(i); f.Name() != "state" && f.Name() != "game" {
			m[f.JSONName()] = true
		}
	}
	return m
}()

// renderAnswer says what :render answers over REST: the image or text
// itself (the gateway writes a google.api.HttpBody's data as the body, with
// its content type), not the HttpBody message the generator describes;
// errors stay JSON.
func renderAnswer(op map[string]any) {
	op["produces"] = []string{"image/svg+xml", "text/plain", "application/json"}
	if ok200, _ := op["responses"].(map[string]any)["200"].(map[string]any); ok200 != nil {
		ok200["description"] = "The board: an SVG image (Content-Type image/svg+xml), or with format RENDER_FORMAT_TEXT " +
			"plain text (text/plain; charset=utf-8)."
		ok200["schema"] = map[string]any{"type": "string"}
	}
}

// renderQuery keeps, of GET :render's parameters, the path ones, state.text
// and the options (size, side, format...), none of the query ones required
// and none with a default or a value the server refuses: the typed state
// forms go in POST's body.
func renderQuery(params []any) []any {
	var keep []any
	for _, p := range params {
		pm := p.(map[string]any)
		name, _ := pm["name"].(string)
		switch {
		case pm["in"] == "path":
		case pm["in"] == "query" && (name == "state.text" || renderOptions[name]):
			delete(pm, "required")
			// An enum's *_UNSPECIFIED is refused when given (format): it
			// is neither a value to offer nor a default for a client to
			// send (openapi-typescript-codegen sends a parameter's
			// default).
			if d, _ := pm["default"].(string); strings.HasSuffix(d, "_UNSPECIFIED") {
				delete(pm, "default")
			}
			if enum := asList(pm["enum"]); enum != nil {
				pm["enum"] = slices.DeleteFunc(slices.Clone(enum), func(v any) bool {
					s, _ := v.(string)
					return strings.HasSuffix(s, "_UNSPECIFIED")
				})
			}
		default:
			continue
		}
		keep = append(keep, pm)
	}
	return keep
}

// reasons are the ErrorInfo reasons the service returns.
var reasons = []string{
	service.ReasonUnknownGame, service.ReasonInvalidState, service.ReasonIllegalMove,
	service.ReasonGameOver, service.ReasonInvalidOptions, service.ReasonInvalidRequest,
}

// typeURL describes an Any's @type. It is a plain string, not an enum:
// TypeScript generators (openapi-typescript-codegen) cannot name an enum
// after a property called "@type".
func typeURL(urls ...string) map[string]any {
	return map[string]any{"type": "string", "description": "One of: " + strings.Join(urls, ", ") + ".", "example": urls[0]}
}

// addErrorDefinitions adds the error body of a 400 and its detail types.
func addErrorDefinitions(defs map[string]any) {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	defs["rpcErrorInfo"] = map[string]any{
		"type":        "object",
		"description": "google.rpc.ErrorInfo (third_party/google/rpc/error_details.proto): why the request failed.",
		"properties": map[string]any{
			"@type":    typeURL("type.googleapis.com/google.rpc.ErrorInfo"),
			"reason":   map[string]any{"type": "string", "enum": reasons, "description": "What is wrong; see the service documentation."},
			"domain":   map[string]any{"type": "string", "enum": []string{service.ErrorDomain}},
			"metadata": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": "`field`: the request field the error is about."},
		},
		"required": []string{"@type", "reason", "domain", "metadata"},
	}
	defs["rpcBadRequestFieldViolation"] = map[string]any{
		"type":        "object",
		"description": "One bad field of the request.",
		"properties": map[string]any{
			"field":       str("The field's path, e.g. `state`, `move.notation`, `options`."),
			"description": str("What is wrong with it, for people."),
			"reason":      map[string]any{"type": "string", "enum": reasons},
		},
		"required": []string{"field", "description", "reason"},
	}
	defs["rpcBadRequest"] = map[string]any{
		"type":        "object",
		"description": "google.rpc.BadRequest (third_party/google/rpc/error_details.proto): the bad fields.",
		"properties": map[string]any{
			"@type":           typeURL("type.googleapis.com/google.rpc.BadRequest"),
			"fieldViolations": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/rpcBadRequestFieldViolation"}},
		},
		"required": []string{"@type", "fieldViolations"},
	}
	// Swagger 2.0 has no oneOf: a detail is described as the union of the two
	// types' properties, told apart by @type.
	defs["gamerulesErrorDetail"] = map[string]any{
		"type": "object",
		"description": "One error detail: a google.rpc.ErrorInfo or a google.rpc.BadRequest (see rpcErrorInfo, " +
			"rpcBadRequest), told apart by `@type`; the properties of the other type are absent.",
		"properties": map[string]any{
			"@type":           typeURL("type.googleapis.com/google.rpc.ErrorInfo", "type.googleapis.com/google.rpc.BadRequest"),
			"reason":          map[string]any{"type": "string", "enum": reasons, "description": "ErrorInfo: what is wrong."},
			"domain":          map[string]any{"type": "string", "enum": []string{service.ErrorDomain}, "description": "ErrorInfo: always `gamerules`."},
			"metadata":        map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": "ErrorInfo: `field`, the request field the error is about."},
			"fieldViolations": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/rpcBadRequestFieldViolation"}, "description": "BadRequest: the bad fields."},
		},
		"required": []string{"@type"},
	}
	defs["gamerulesError"] = map[string]any{
		"type": "object",
		"description": "A google.rpc.Status (third_party/google/rpc/status.proto). An error of the request (code 3, " +
			"INVALID_ARGUMENT) has two details, an ErrorInfo and a BadRequest: the service's errors and the JSON " +
			"reader's alike (malformed JSON, a wrong type, an unknown field or enum name: reason INVALID_REQUEST, " +
			"the message naming the field, the shape expected and the line:column).",
		"properties": map[string]any{
			"code":    map[string]any{"type": "integer", "format": "int32", "description": "The gRPC code: 3 INVALID_ARGUMENT."},
			"message": str("What is wrong, naming the field."),
			"details": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/definitions/gamerulesErrorDetail"}},
		},
		"required": []string{"code", "message", "details"},
	}
	if st, ok := defs["rpcStatus"].(map[string]any); ok {
		st["required"] = []string{"code", "message", "details"}
	}
}

// errorResponses returns an operation's responses with the real errors.
func errorResponses(r map[string]any) map[string]any {
	r["400"] = map[string]any{
		"description": "INVALID_ARGUMENT: the request is wrong (unknown game, invalid state, illegal move, game over, " +
			"invalid options or request); the ErrorInfo reason says which, the BadRequest field which field.",
		"schema": map[string]any{"$ref": "#/definitions/gamerulesError"},
	}
	r["413"] = map[string]any{
		"description": "RESOURCE_EXHAUSTED: the body is larger than the server's limit (--max-recv-bytes); ErrorInfo reason REQUEST_TOO_LARGE.",
		"schema":      map[string]any{"$ref": "#/definitions/rpcStatus"},
	}
	r["429"] = map[string]any{
		"description": "RESOURCE_EXHAUSTED: too many requests in flight; retry after the Retry-After header's seconds; ErrorInfo reason OVERLOADED and a RetryInfo.",
		"schema":      map[string]any{"$ref": "#/definitions/rpcStatus"},
		"headers":     map[string]any{"Retry-After": map[string]any{"type": "integer", "description": "Seconds to wait before retrying."}},
	}
	if d, ok := r["default"].(map[string]any); ok {
		d["description"] = "Another error, with an ErrorInfo of its kind: 404 NOT_FOUND (no such route), 405 METHOD_NOT_ALLOWED " +
			"(the Allow header names the method), 408 REQUEST_TIMEOUT (the body did not arrive in time), 500 INTERNAL (a bug of ours)."
	}
	return r
}

// example is a route's example: the game and the request body (JSON).
type example struct {
	game string
	body string
}

// examples gives, per RPC, a small request on a small state.
var examples = map[string]example{
	"GameRules_ListGames":    {"", `{}`},
	"GameRules_NewGame":      {"gravity_trap", `{"seed":"1","gravityTrap":{"board":"rings","firstPlayer":1}}`},
	"GameRules_LegalMoves":   {"gravity_trap", `{"state":{"text":"RoooBooooooooooooooooo r"}}`},
	"GameRules_ApplyMove":    {"gravity_trap", `{"state":{"text":"RoooBooooooooooooooooo r"},"move":{"notation":"8"},"includeLegalMoves":true}`},
	"GameRules_Score":        {"gravity_trap", `{"state":{"text":"ooooooooo.RooooooooB.. b"}}`},
	"GameRules_ObserveState": {"abalone", `{"state":{"text":"wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"},"player":0}`},
	"GameRules_RenderState":  {"gravity_trap", `{"state":{"text":"RoooBooooooooooooooooo r"}}`},
	"GameRules_RenderState2": {"gravity_trap", `{"state":{"text":"RoooBooooooooooooooooo r"},"highlightFrom":"0","highlightTo":"8"}`},
	"GameRules_GetBoard":     {"gravity_trap", `{"name":"default"}`},
	"GameRules_ConvertState": {"backgammon", `{"state":{"text":"XGID=-b----E-C---eE---c-e----B-:0:0:1:21:2:1:0:5:10"}}`},
	"GameRules_ReplayGame":   {"gravity_trap", `{"moves":["8","0"],"seed":"1"}`},
	"GameRules_ImportRecord": {"gravity_trap", `{"text":"{\"format\":\"gamerules-record/1\",\"game\":\"gravity_trap\",\"seed\":\"1\",\"moves\":[\"8\",\"0\"]}"}`},
	"GameRules_ExportRecord": {"gravity_trap", `{"replay":{"moves":["8","0"]},"tags":{"event":"example"}}`},
	"GameRules_Batch":        {"", `{"requests":[{"legalMoves":{"game":"gravity_trap","state":{"text":"RoooBooooooooooooooooo r"}}},{"score":{"game":"gravity_trap","state":{"text":"ooooooooo.RooooooooB.. b"}}},{"score":{"game":"chess","state":{"text":"x"}}}]}`},
	"GameRules_Expand":       {"gravity_trap", `{"state":{"text":"RoooBooooooooooooooooo r"},"depth":1}`},
	"GameRules_Playout":      {"gravity_trap", `{"state":{"text":"RoooBooooooooooooooooo r"},"games":100,"seed":"7"}`},
}

// addExamples puts the route's example request on its body parameter and
// the service's answer to it on the 200 response.
func addExamples(defs map[string]any, path, method string, op map[string]any) error {
	id, _ := op["operationId"].(string)
	ex, ok := examples[id]
	if !ok {
		return fmt.Errorf("openapipatch: no example for %s (%s %s); add one", id, method, path)
	}
	rpc := strings.TrimRight(strings.TrimPrefix(id, "GameRules_"), "0123456789")
	srv := service.New()
	md := gamerulesv1grpc.File_gamerules_v1_service_proto.Services().ByName("GameRules").Methods().ByName(protoreflect.Name(rpc))
	if md == nil {
		return fmt.Errorf("openapipatch: no RPC %s", rpc)
	}
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
	if err != nil {
		return err
	}
	req := mt.New().Interface()
	if err := protojson.Unmarshal([]byte(ex.body), req); err != nil {
		return fmt.Errorf("openapipatch: example of %s: %w", rpc, err)
	}
	if ex.game != "" {
		req.ProtoReflect().Set(md.Input().Fields().ByName("game"), protoreflect.ValueOfString(ex.game))
	}
	var outJSON, inJSON any
	if err := json.Unmarshal([]byte(ex.body), &inJSON); err != nil {
		return err
	}
	// An image (google.api.HttpBody) has no JSON answer to show.
	if md.Output().FullName() != "google.api.HttpBody" {
		resp, err := call(srv, rpc, req)
		if err != nil {
			return fmt.Errorf("openapipatch: example of %s: %w", rpc, err)
		}
		out, err := protojson.MarshalOptions{EmitDefaultValues: true}.Marshal(resp)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(out, &outJSON); err != nil {
			return err
		}
	}
	for _, p := range asList(op["parameters"]) {
		pm := p.(map[string]any)
		if pm["in"] == "body" {
			ref, _ := pm["schema"].(map[string]any)["$ref"].(string)
			pm["schema"] = map[string]any{"$ref": ref, "example": inJSON}
			// A sibling of $ref is ignored when the reference is resolved
			// (RapiDoc then fills the body from the schema, every oneof
			// member at once): the example also goes on the body's own
			// definition, which only this route uses (GameRules<RPC>Body;
			// a route without path parameters, Batch, references its
			// request message itself, v1<RPC>Request, which no other
			// message holds).
			if def, ok := defs[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any); ok && (bodyDefinition(ref) || ref == "#/definitions/v1"+rpc+"Request") {
				def["example"] = inJSON
			}
			continue
		}
		if pm["name"] == "game" && ex.game != "" {
			pm["x-example"] = ex.game
			continue
		}
		// A path or query parameter (GetBoard's name, GET :render's
		// state.text) takes its value in the example request.
		if name, _ := pm["name"].(string); name != "" {
			if v, ok := lookup(inJSON, name); ok {
				pm["x-example"] = v
			}
		}
	}
	if outJSON != nil {
		ok200 := op["responses"].(map[string]any)["200"].(map[string]any)
		ok200["examples"] = map[string]any{"application/json": outJSON}
	}
	return nil
}

// bodyDefinition reports whether ref names a body definition the generator
// made for one route (GameRules<RPC>Body), not a message shared by others.
func bodyDefinition(ref string) bool {
	name := strings.TrimPrefix(ref, "#/definitions/")
	return strings.HasPrefix(name, "GameRules") && strings.HasSuffix(name, "Body")
}

// lookup is the value at a dotted JSON path ("state.text") of an example
// request, as a query or path parameter's string: a string as it is,
// anything else in JSON.
func lookup(v any, path string) (string, bool) {
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		if v, ok = m[part]; !ok {
			return "", false
		}
	}
	switch x := v.(type) {
	case string:
		return x, true
	case map[string]any, []any:
		return "", false
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

// call invokes the RPC named rpc of srv.
func call(srv *service.Server, rpc string, req proto.Message) (proto.Message, error) {
	m, ok := rpcs.ByName(rpc)
	if !ok {
		return nil, fmt.Errorf("no RPC %s", rpc)
	}
	return m.Run(context.Background(), srv, req)
}
