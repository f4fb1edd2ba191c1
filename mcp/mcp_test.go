package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gamerules/gamerules/mcp"
)

// connect is a client session on NewServer(o) over the SDK's in-memory
// transport.
func connect(t *testing.T, o mcp.Options) *sdkmcp.ClientSession {
	t.Helper()
	ct, st := sdkmcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := mcp.NewServer(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

var wantTools = []string{"apply_move", "expand", "import_record", "legal_moves", "list_games", "new_game", "observe", "playout", "render", "replay", "score"}

// checkTools lists the tools and checks their names, descriptions and
// schemas.
func checkTools(t *testing.T, cs *sdkmcp.ClientSession) {
	t.Helper()
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 100 {
			t.Errorf("%s: description %q is not a paragraph", tool.Name, tool.Description)
		}
		if tool.InputSchema == nil {
			t.Errorf("%s: no input schema", tool.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, wantTools) {
		t.Errorf("tools %v, want %v", names, wantTools)
	}
}

func TestInMemory(t *testing.T) {
	cs := connect(t, mcp.Options{})
	checkTools(t, cs)
	checkAgent(t, cs)
}

// TestContract checks the contract's argument names and answer shapes on a
// hand-checked Gravity Trap opening: 22 stations to place on, "place 7" is
// action 7.
func TestContract(t *testing.T) {
	cs := connect(t, mcp.Options{})
	res := call(t, cs, "new_game", map[string]any{"game": "gravity_trap", "seed": "3"})
	var ng play
	structured(t, res, &ng)
	if res.IsError || ng.State != "...................... R" || ng.Finished || ng.LegalMovesTotal != 22 {
		t.Fatalf("new_game: %+v %s", ng, textOf(res))
	}
	if !strings.Contains(textOf(res), "state: "+ng.State) {
		t.Errorf("new_game's text lacks the state: %s", textOf(res))
	}
	res = call(t, cs, "legal_moves", map[string]any{"game": "gravity_trap", "state": ng.State, "limit": 5})
	var lm struct {
		Moves []struct {
			Notation string `json:"notation"`
			Action   int    `json:"action"`
		} `json:"moves"`
		Total int `json:"total"`
	}
	structured(t, res, &lm)
	if len(lm.Moves) != 5 || lm.Total != 22 || lm.Moves[0].Notation != "place 0" || lm.Moves[0].Action != 0 {
		t.Fatalf("legal_moves: %+v", lm)
	}
	res = call(t, cs, "apply_move", map[string]any{"game": "gravity_trap", "state": ng.State, "action": 7})
	var am play
	structured(t, res, &am)
	if res.IsError || am.Move != "place 7" || am.Finished || am.State == ng.State || am.Board == "" {
		t.Fatalf("apply_move by action: %+v %s", am, textOf(res))
	}
	res2 := call(t, cs, "apply_move", map[string]any{"game": "gravity_trap", "state": ng.State, "move": "place 7"})
	var am2 play
	structured(t, res2, &am2)
	if am2.State != am.State {
		t.Errorf("move %q and action 7 differ: %q, %q", "place 7", am2.State, am.State)
	}
	res = call(t, cs, "score", map[string]any{"game": "gravity_trap", "state": am.State})
	var sc map[string]any
	structured(t, res, &sc)
	if w, ok := sc["winner"]; !ok || w != nil || sc["finished"] != false {
		t.Errorf("score of a game going on: %v (want finished false and winner null)", sc)
	}
}

// TestOptions: new_game's options are the REST request's, under either
// spelling of a field; an unknown field is refused naming it.
func TestOptions(t *testing.T) {
	cs := connect(t, mcp.Options{})
	for _, opts := range []map[string]any{{"players": 2}, {"players": 2, "first_player": 1}, {"players": 2, "firstPlayer": 1}} {
		res := call(t, cs, "new_game", map[string]any{"game": "labyrinth", "seed": "5", "options": opts})
		var p play
		structured(t, res, &p)
		sc := call(t, cs, "score", map[string]any{"game": "labyrinth", "state": p.State})
		var s struct {
			Points []int `json:"points"`
		}
		structured(t, sc, &s)
		if res.IsError || len(s.Points) != 2 {
			t.Errorf("labyrinth with %v: %d players' points: %s", opts, len(s.Points), textOf(res))
		}
	}
	res := call(t, cs, "new_game", map[string]any{"game": "labyrinth", "options": map[string]any{"playerz": 2}})
	if !res.IsError || !strings.Contains(textOf(res), "playerz") || !strings.Contains(textOf(res), "options") {
		t.Errorf("an unknown option: %v %s", res.IsError, textOf(res))
	}
}

// TestRefusals checks the errors a model reads: each a tool result with
// isError, naming what was wrong.
func TestRefusals(t *testing.T) {
	cs := connect(t, mcp.Options{})
	start := "...................... R"
	for _, c := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"apply_move", map[string]any{"game": "gravity_trap", "state": start, "move": "place 99"}, []string{"move.notation", "Legal moves in the state you sent (22", "place 9"}},
		{"apply_move", map[string]any{"game": "gravity_trap", "state": start}, []string{"move or action is required", "Arguments of apply_move"}},
		{"apply_move", map[string]any{"game": "chess", "state": start, "move": "e4"}, []string{"game", "chess", "abalone", "Arguments of apply_move"}},
		{"apply_move", map[string]any{"game": "gravity_trap", "state": "nonsense", "move": "place 1"}, []string{"state", "exact string"}},
		{"apply_move", map[string]any{"game": "gravity_trap", "state": start, "move": "place 1", "seed": "-4"}, []string{"seed", "decimal digits"}},
		{"apply_move", map[string]any{"game": "gravity_trap", "state": map[string]any{"text": start}, "move": "place 1"}, []string{"state", "Arguments of apply_move"}},
		{"legal_moves", map[string]any{"game": "gravity_trap", "state": start, "limit": 5000}, []string{"limit", "1..1000"}},
		{"new_game", map[string]any{"game": "abalone", "options": map[string]any{"layout": "square"}}, []string{"layout", "Arguments of new_game"}},
		{"observe", map[string]any{"game": "labyrinth", "state": start}, []string{"player"}},
		{"expand", map[string]any{"game": "gravity_trap", "state": start, "depth": 8, "max_nodes": 50}, []string{"depth"}},
		{"playout", map[string]any{"game": "gravity_trap", "state": start, "games": 50, "include_moves": true}, []string{"games", "10"}},
		{"playout", map[string]any{"game": "gravity_trap", "state": start, "policy": "smart"}, []string{"policy", "greedy"}},
		{"replay", map[string]any{"game": "gravity_trap", "moves": []string{"place 1", "place 1"}}, []string{"moves[1]", "Legal moves in the state you sent (20", "Replace moves[1]"}},
	} {
		res := call(t, cs, c.tool, c.args)
		txt := textOf(res)
		if !res.IsError {
			t.Errorf("%s %v: not an error: %s", c.tool, c.args, txt)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(txt, w) {
				t.Errorf("%s %v: %q lacks %q", c.tool, c.args, txt, w)
			}
		}
	}
}

// TestDeadline: a call past the tool deadline is a tool error saying so.
func TestDeadline(t *testing.T) {
	cs := connect(t, mcp.Options{Timeout: time.Nanosecond})
	res := call(t, cs, "playout", map[string]any{"game": "labyrinth", "state": labyrinthStart(t), "games": 10000})
	if !res.IsError || !strings.Contains(textOf(res), "deadline") {
		t.Fatalf("playout past its deadline: %v %s", res.IsError, textOf(res))
	}
}

func labyrinthStart(t *testing.T) string {
	cs := connect(t, mcp.Options{})
	var p play
	structured(t, call(t, cs, "new_game", map[string]any{"game": "labyrinth", "seed": "1"}), &p)
	return p.State
}

// TestPictureAndViews: render answers the text board and an SVG resource;
// observe hides the other players' cards.
func TestPictureAndViews(t *testing.T) {
	cs := connect(t, mcp.Options{})
	st := labyrinthStart(t)
	res := call(t, cs, "render", map[string]any{"game": "labyrinth", "state": st})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("render: %v %d contents", res.IsError, len(res.Content))
	}
	er, ok := res.Content[1].(*sdkmcp.EmbeddedResource)
	if !ok || er.Resource.MIMEType != "image/svg+xml" || !strings.HasPrefix(er.Resource.Text, "<svg") {
		t.Fatalf("render's second content: %#v", res.Content[1])
	}
	res = call(t, cs, "observe", map[string]any{"game": "labyrinth", "state": st, "player": 0})
	var v struct {
		State string `json:"state"`
	}
	structured(t, res, &v)
	if res.IsError || v.State == st || v.State == "" {
		t.Fatalf("observe: %v %q", res.IsError, v.State)
	}
	if res := call(t, cs, "render", map[string]any{"game": "labyrinth", "state": v.State, "svg": false}); res.IsError || len(res.Content) != 1 || textOf(res) == "" {
		t.Fatalf("render of a view: %v %s", res.IsError, textOf(res))
	}
}

// TestResourcesAndPrompt: each game's rules are a resource; play_game sets
// a model up with the tools' names.
func TestResourcesAndPrompt(t *testing.T) {
	cs := connect(t, mcp.Options{})
	ctx := context.Background()
	lr, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lr.Resources) != 4 {
		t.Fatalf("%d resources, want 4", len(lr.Resources))
	}
	rr, err := cs.ReadResource(ctx, &sdkmcp.ReadResourceParams{URI: "gamerules://rules/gravity_trap"})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "Gravity Trap") {
		t.Fatalf("rules of gravity_trap: %v %v", err, rr)
	}
	gp, err := cs.GetPrompt(ctx, &sdkmcp.GetPromptParams{Name: "play_game", Arguments: map[string]string{"game": "backgammon", "player": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(gp.Messages) != 2 || !strings.Contains(gp.Messages[0].Content.(*sdkmcp.TextContent).Text, "apply_move") {
		t.Fatalf("play_game: %+v", gp.Messages)
	}
	if _, err := cs.GetPrompt(ctx, &sdkmcp.GetPromptParams{Name: "play_game", Arguments: map[string]string{"game": "go", "player": "1"}}); err == nil {
		t.Error("play_game for go: no error")
	}
}

// TestReplayAndImport: a replayed game's JSON record imports back to the
// same final state.
func TestReplayAndImport(t *testing.T) {
	cs := connect(t, mcp.Options{})
	res := call(t, cs, "replay", map[string]any{"game": "gravity_trap", "moves": []string{"place 1", "place 5"}})
	var r struct {
		State string   `json:"state"`
		Moves []string `json:"moves"`
	}
	structured(t, res, &r)
	if res.IsError || len(r.Moves) != 2 {
		t.Fatalf("replay: %s", textOf(res))
	}
	rec := `{"format":"gamerules-record/1","game":"gravity_trap","moves":["place 1","place 5"]}`
	res = call(t, cs, "import_record", map[string]any{"game": "gravity_trap", "text": rec})
	var im struct {
		State string `json:"state"`
	}
	structured(t, res, &im)
	if res.IsError || im.State != r.State {
		t.Fatalf("import_record: %q, replay %q: %s", im.State, r.State, textOf(res))
	}
	var lm struct {
		Total int `json:"total"`
	}
	structured(t, call(t, cs, "legal_moves", map[string]any{"game": "gravity_trap", "state": r.State}), &lm)
	res = call(t, cs, "expand", map[string]any{"game": "gravity_trap", "state": r.State, "depth": 1})
	var ex struct {
		NodeCount int `json:"node_count"`
	}
	structured(t, res, &ex)
	if res.IsError || lm.Total == 0 || ex.NodeCount != 1+lm.Total {
		t.Fatalf("expand depth 1 after the placements: %d nodes, want 1+%d: %s", ex.NodeCount, lm.Total, textOf(res))
	}
}

// TestStreamableHTTP: the SDK's client over HTTPHandler.
func TestStreamableHTTP(t *testing.T) {
	ts := httptest.NewServer(mcp.HTTPHandler(mcp.Options{}))
	defer ts.Close()
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &sdkmcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	checkTools(t, cs)
	checkAgent(t, cs)
}

// TestHTTPBounds: a body over MaxRequestBytes is refused (413) before it
// is read whole; a loopback request naming another host is refused (403)
// unless AllowAnyHost.
func TestHTTPBounds(t *testing.T) {
	ts := httptest.NewServer(mcp.HTTPHandler(mcp.Options{MaxRequestBytes: 1000}))
	defer ts.Close()
	post := func(url, host, body string) int {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 2000) + `"}}`
	if code := post(ts.URL, "", big); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 2 KB body with MaxRequestBytes 1000: HTTP %d, want 413", code)
	}
	if code := post(ts.URL, "evil.example", `{}`); code != http.StatusForbidden {
		t.Errorf("Host evil.example on loopback: HTTP %d, want 403", code)
	}
	open := httptest.NewServer(mcp.HTTPHandler(mcp.Options{AllowAnyHost: true}))
	defer open.Close()
	if code := post(open.URL, "evil.example", `{}`); code == http.StatusForbidden {
		t.Errorf("Host evil.example with AllowAnyHost: HTTP %d", code)
	}
}

// TestStdio: the SDK's client starts the built command and talks to it
// over stdio.
func TestStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "gamerules-mcp")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/gamerules-mcp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &sdkmcp.CommandTransport{Command: exec.Command(bin)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	checkTools(t, cs)
	checkAgent(t, cs)
}
