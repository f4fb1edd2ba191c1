package web

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/gen/openapiv2"
)

// TestOfflineRoutes checks offline.js's table of the REST routes' custom
// verbs against the OpenAPI document: every route /v1/games/{game}:<verb>
// must be in it with its RPC, and nothing else.
func TestOfflineRoutes(t *testing.T) {
	src, err := fs.ReadFile(Static, "offline.js")
	if err != nil {
		t.Fatal(err)
	}
	table := regexp.MustCompile(`(?s)const verbs = \{(.*?)\};`).FindSubmatch(src)
	if table == nil {
		t.Fatal("offline.js has no `const verbs = {...};`")
	}
	have := map[string]string{}
	for _, m := range regexp.MustCompile(`(\w+): "(\w+)"`).FindAllStringSubmatch(string(table[1]), -1) {
		have[m[1]] = m[2]
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openapiv2.GameRules, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for path, ops := range doc.Paths {
		_, verb, ok := strings.Cut(path, "}:")
		if !ok {
			continue
		}
		for _, op := range ops {
			want[verb] = strings.TrimRight(strings.TrimPrefix(op.OperationID, "GameRules_"), "0123456789")
		}
	}
	if len(want) < 9 {
		t.Fatalf("the OpenAPI document has only %d custom verbs: %v", len(want), want)
	}
	for verb, rpc := range want {
		if have[verb] != rpc {
			t.Errorf("offline.js: verb %q is %q; the OpenAPI document says %q", verb, have[verb], rpc)
		}
	}
	for verb := range have {
		if _, ok := want[verb]; !ok {
			t.Errorf("offline.js: verb %q is not a route of the OpenAPI document", verb)
		}
	}
}
