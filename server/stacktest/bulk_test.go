package stacktest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestBulkREST: the bulk calls' REST contract through the whole stack: a
// Batch's items answer under their requests' keys or as {"error":{...}}
// with the single call's details; Expand and Playout answer at their
// routes; a batch over its item limit, and one over the element budget
// (refused before it is decoded), are HTTP 400.
func TestBulkREST(t *testing.T) {
	a := startServer(t)
	post := func(path, body string) (int, map[string]any) {
		t.Helper()
		resp, err := http.Post("http://"+a.HTTP+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s: %v: %s", path, err, raw)
		}
		return resp.StatusCode, out
	}
	gt := `{"game":"gravity_trap","state":{"text":"RoooBooooooooooooooooo r"}}`
	code, out := post("/v1/games:batch", `{"requests":[{"legalMoves":`+gt+`},{"score":{"game":"chess","state":{"text":"x"}}}]}`)
	if code != 200 {
		t.Fatalf("batch: HTTP %d %v", code, out)
	}
	items := out["responses"].([]any)
	lm := items[0].(map[string]any)["legalMoves"].(map[string]any)
	if moves := lm["moves"].([]any); len(moves) != 3 {
		t.Errorf("batch item 0: %v; want 3 moves", lm)
	}
	_, single := post("/v1/games/chess:score", `{"state":{"text":"x"}}`)
	if got, want := fmt.Sprint(items[1].(map[string]any)["error"]), fmt.Sprint(single); got != want {
		t.Errorf("batch item 1: %s; want the single call's error %s", got, want)
	}
	many := strings.TrimSuffix(strings.Repeat(`{"score":`+gt+`},`, 1001), ",")
	if code, out := post("/v1/games:batch", `{"requests":[`+many+`]}`); code != 400 || !strings.Contains(fmt.Sprint(out), "at most 1000") {
		t.Errorf("1001 items: HTTP %d %v; want 400 naming the limit", code, out)
	}
	tooMany := strings.TrimSuffix(strings.Repeat(`{"score":{"state":{"text":"x"}}},`, 3000), ",")
	if code, out := post("/v1/games:batch", `{"requests":[`+tooMany+`]}`); code != 400 {
		t.Errorf("12,000 elements: HTTP %d %v; want 400", code, out)
	}
	code, out = post("/v1/games/gravity_trap:expand", `{"state":{"text":"RoooBooooooooooooooooo r"},"depth":2}`)
	if code != 200 || len(out["root"].(map[string]any)["children"].([]any)) != 3 {
		t.Errorf("expand: HTTP %d %v", code, out)
	}
	code, out = post("/v1/games/gravity_trap:playout", `{"state":{"text":"RoooBooooooooooooooooo r"},"games":200,"seed":"7"}`)
	if code != 200 || out["totalPlies"] == nil || out["turn"] != 0.0 || len(out["firstMoves"].([]any)) != 3 {
		t.Errorf("playout: HTTP %d %v", code, out)
	}
}
