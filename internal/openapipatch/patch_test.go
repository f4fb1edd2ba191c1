package openapipatch

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/gen/openapiv2"
)

// TestCommittedDocument checks the served document: patching it again
// changes nothing (gen.sh ran the patch), every route lists 400 with the
// error body, 413 and 429 and has an example, the game id is an enum, and
// the response messages list their always-present fields as required.
func TestCommittedDocument(t *testing.T) {
	again, err := Patch(openapiv2.GameRules)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, openapiv2.GameRules) {
		t.Error("gen/openapiv2/gamerules.swagger.json is not patched: run scripts/gen.sh")
	}
	var d struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name, In string
				Enum     []string
				Schema   map[string]any
			}
			Responses map[string]map[string]any
		}
		Definitions map[string]struct {
			Required []string
		}
	}
	if err := json.Unmarshal(openapiv2.GameRules, &d); err != nil {
		t.Fatal(err)
	}
	routes := 0
	for path, item := range d.Paths {
		for method, op := range item {
			routes++
			for _, code := range []string{"200", "400", "413", "429"} {
				if op.Responses[code] == nil {
					t.Errorf("%s %s: no %s response", method, path, code)
				}
			}
			if ref := op.Responses["400"]["schema"].(map[string]any)["$ref"]; ref != "#/definitions/gamerulesError" {
				t.Errorf("%s %s: 400 is %v", method, path, ref)
			}
			if op.Responses["200"]["examples"] == nil && !strings.HasSuffix(path, ":render") {
				t.Errorf("%s %s: no example answer", method, path)
			}
			for _, p := range op.Parameters {
				if p.Name == "game" && !slices.Equal(p.Enum, []string{"abalone", "backgammon", "gravity_trap", "labyrinth"}) {
					t.Errorf("%s %s: game enum %v", method, path, p.Enum)
				}
				if p.In == "body" && p.Schema["example"] == nil {
					t.Errorf("%s %s: no example body", method, path)
				}
			}
		}
	}
	if routes < 9 {
		t.Errorf("%d routes; want at least 9", routes)
	}
	for name, want := range map[string][]string{
		"v1ApplyMoveResponse": {"state", "move", "finished", "points", "detail"},
		"v1NextMoves":         {"moves", "chance"},
		"v1ScoreResponse":     {"finished", "points", "detail"},
		"v1GameInfo":          {"id", "displayName", "minPlayers", "maxPlayers", "hasChance", "hasHiddenInformation", "variants", "moveNotation", "stateNotation", "rulesVersion"},
		"gamerulesError":      {"code", "message", "details"},
	} {
		for _, f := range want {
			if !slices.Contains(d.Definitions[name].Required, f) {
				t.Errorf("%s: %s not required (required: %v)", name, f, d.Definitions[name].Required)
			}
		}
	}
	for _, f := range []string{"winner", "backgammon", "next"} {
		if slices.Contains(d.Definitions["v1ScoreResponse"].Required, f) || slices.Contains(d.Definitions["v1ApplyMoveResponse"].Required, f) {
			t.Errorf("%s (not always present) is required", f)
		}
	}
}

// TestDocsMenu checks what /docs and a generated client show: every route
// has a short summary (the menu entry; the proto comment goes whole into the
// description), and GET :render takes only the state's text form and the
// drawing options, none required, so that a client generated from the
// document calls it with the text form alone.
func TestDocsMenu(t *testing.T) {
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Summary     string
			Description string
			Parameters  []struct {
				Name, In string
				Required bool
				Default  any
				Enum     []string
			}
			Produces  []string
			Responses map[string]struct {
				Schema map[string]any
			}
		}
	}
	if err := json.Unmarshal(openapiv2.GameRules, &d); err != nil {
		t.Fatal(err)
	}
	for path, item := range d.Paths {
		for method, op := range item {
			if n := len([]rune(op.Summary)); n == 0 || n > 80 || strings.Contains(op.Summary, "\n") {
				t.Errorf("%s %s: summary %q (%d characters); want one line of at most 80", method, path, op.Summary, n)
			}
			rpc := strings.TrimRight(strings.TrimPrefix(op.OperationID, "GameRules_"), "0123456789")
			if !strings.HasPrefix(op.Description, rpc+" ") {
				t.Errorf("%s %s: the description does not start with the proto comment (%q...): %.60q", method, path, rpc, op.Description)
			}
		}
	}
	// :render answers the image (or text) itself, not an HttpBody message.
	for method, op := range d.Paths["/v1/games/{game}:render"] {
		if !slices.Contains(op.Produces, "image/svg+xml") || op.Responses["200"].Schema["type"] != "string" {
			t.Errorf("%s :render: produces %v, 200 schema %v; want image/svg+xml, a string", method, op.Produces, op.Responses["200"].Schema)
		}
	}
	get := d.Paths["/v1/games/{game}:render"]["get"]
	var query []string
	for _, p := range get.Parameters {
		if p.In == "query" {
			query = append(query, p.Name)
			if p.Required {
				t.Errorf("GET :render: query parameter %s is required", p.Name)
			}
			// A generated client sends a parameter's default; the
			// server refuses an enum's *_UNSPECIFIED.
			if p.Default != nil {
				t.Errorf("GET :render: query parameter %s has a default, %v", p.Name, p.Default)
			}
			for _, v := range p.Enum {
				if strings.HasSuffix(v, "_UNSPECIFIED") {
					t.Errorf("GET :render: query parameter %s offers %s, which the server refuses", p.Name, v)
				}
			}
		}
	}
	slices.Sort(query)
	want := []string{"format", "hideCoordinates", "highlightFrom", "highlightTo", "partialPlay", "side", "size", "state.text"}
	if !slices.Equal(query, want) {
		t.Errorf("GET :render query parameters %v; want %v", query, want)
	}
}

// TestNoLintDirective checks that no linter directive reaches generated
// text: not in proto/ (buf reads a buf:lint:ignore only in an element's
// leading comment, which is also its documentation, so the exceptions live
// in buf.yaml), not in gen/ (Go, OpenAPI). js/test/exports.test.js checks
// the TypeScript declarations js/build.sh generates.
func TestNoLintDirective(t *testing.T) {
	for _, dir := range []string{"../../proto", "../../gen"} {
		err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, directive := range []string{"buf:lint", "buf:breaking"} {
				if bytes.Contains(b, []byte(directive)) {
					t.Errorf("%s: holds %q", path, directive)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
