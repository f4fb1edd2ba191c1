package stacktest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/server"
	"github.com/gamerules/gamerules/server/servertest"
	"github.com/gamerules/gamerules/service"
)

// TestMCPMounted: gamerulesd serves the MCP tools at /mcp on its HTTP port
// (the SDK's streamable HTTP client lists them and plays a move), every
// answer there carries a request id as the API's do, the route has its own
// metric label, and --mcp=false turns it off (404).
func TestMCPMounted(t *testing.T) {
	s := servertest.Start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "stacktest", Version: "1"}, nil).Connect(ctx,
		&sdkmcp.StreamableClientTransport{Endpoint: "http://" + s.HTTPAddr() + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = true
	}
	for _, want := range []string{"list_games", "new_game", "legal_moves", "apply_move", "score"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "apply_move", Arguments: map[string]any{
		"game": "backgammon", "state": "4HPwATDgc/ABMA:MIEFAAAAAAAE", "move": "8-5 6-5"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("apply_move 8-5 6-5 (FIBS notation) after 3-1: isError %v", res.Content)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if st, _ := sc["state"].(string); st == "" || st == "4HPwATDgc/ABMA:MIEFAAAAAAAE" {
		t.Errorf("apply_move's state = %q; want the state after 8/5 6/5", st)
	}

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_games","arguments":{}}}`
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.HTTPAddr()+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-Id") == "" || !strings.Contains(string(out), "backgammon") {
		t.Errorf("POST /mcp tools/call list_games = %d, X-Request-Id %q, %.200s", resp.StatusCode, resp.Header.Get("X-Request-Id"), out)
	}
	_, metrics := get(t, s.HTTPAddr(), "/metrics")
	if !strings.Contains(metrics, `route="/mcp"`) {
		t.Errorf("/metrics has no route=\"/mcp\" series")
	}

	off := servertest.Start(t, func(o *server.Options) { o.MCP = false })
	resp, err = http.Post("http://"+off.HTTPAddr()+"/mcp", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("with MCP off, POST /mcp = %d; want 404", resp.StatusCode)
	}
}

// TestMCPFloodLimited: a flood of tool calls meets the HTTP port's limits
// as REST calls do (429 with Retry-After past --max-in-flight and the
// queue wait), and /healthz stays 200 meanwhile.
func TestMCPFloodLimited(t *testing.T) {
	s := servertest.Start(t, func(o *server.Options) { o.MaxInFlight, o.QueueWait = 1, 10*time.Millisecond })
	// A heavy call: a playout of many greedy Abalone games.
	start, err := service.New().NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "abalone"})
	if err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"playout","arguments":{"game":"abalone","state":"` +
		start.GetState().GetText() + `","games":200,"policy":"greedy"}}}`
	var mu sync.Mutex
	codes := map[int]int{}
	retryAfter := 0
	var wg sync.WaitGroup
	for i := 0; i < 24; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, "http://"+s.HTTPAddr()+"/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mu.Lock()
			codes[resp.StatusCode]++
			if resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "" {
				retryAfter++
			}
			mu.Unlock()
		}()
	}
	healthy, probes := 0, 0
	for i := 0; i < 10; i++ {
		resp, err := http.Get("http://" + s.HTTPAddr() + "/healthz")
		probes++
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				healthy++
			}
			resp.Body.Close()
		}
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	if codes[http.StatusTooManyRequests] == 0 || retryAfter != codes[http.StatusTooManyRequests] {
		t.Errorf("24 heavy tool calls at once with --max-in-flight 1: codes %v, %d 429s with Retry-After; want 429s, each with Retry-After", codes, retryAfter)
	}
	if healthy != probes {
		t.Errorf("/healthz answered 200 to %d of %d probes during the flood", healthy, probes)
	}
	t.Logf("codes %s", fmt.Sprint(codes))
}
