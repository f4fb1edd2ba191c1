package stacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server"
)

// mcpResult is what a tools/call answers: the tool's result, or a
// JSON-RPC error.
type mcpResult struct {
	Result struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// text is the result's text content.
func (r *mcpResult) text() string {
	var b strings.Builder
	for _, c := range r.Result.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// callTool posts one tools/call of tool with args to base's /mcp, from
// forwardedFor (an X-Forwarded-For address; "": none), and answers the
// HTTP status and the decoded answer.
func callTool(ctx context.Context, client *http.Client, base, tool string, args map[string]any, forwardedFor string) (int, *mcpResult, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if forwardedFor != "" {
		req.Header.Set("X-Forwarded-For", forwardedFor)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	var r mcpResult
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(out, &r); err != nil {
			return resp.StatusCode, nil, fmt.Errorf("%w: %.200s", err, out)
		}
	}
	return resp.StatusCode, &r, nil
}

// TestMCPHeavyLane: the API calls of /mcp's tools take the same admission
// as REST calls. One MCP caller (behind a trusted proxy) floods long
// playouts, 8 at a time: past its share of the heavy lane they are
// refused (a tool error saying the server is busy, counted as the heavy
// lane's refusals), where before they took no seat at all; a second MCP
// caller behind the same proxy gets its own share (90% of its heavy
// playouts answered); polite LegalMoves calls over gRPC and REST are at
// least 95% answered; and the tools' calls are counted per RPC
// (grpc_method="Playout").
func TestMCPHeavyLane(t *testing.T) {
	addrs := startServerWith(t, func(c *server.Options) {
		c.HeavySeats = 2 // a share of 1 each, whatever the machine
		c.TrustedProxies = mustPrefixes(t, "127.0.0.1")
	})
	base := "http://" + addrs.HTTP
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var tally, restTally politeTally
	go stopWhenTallied(cancel, &tally)

	var busy, served, deadline, other atomic.Int64
	var wg sync.WaitGroup
	defer wg.Wait()
	longArgs := map[string]any{"game": "backgammon", "state": heavyStart, "games": 10000}
	for range 8 {
		wg.Go(func() {
			client := &http.Client{Transport: &http.Transport{}}
			defer client.CloseIdleConnections()
			for ctx.Err() == nil {
				code, r, err := callTool(ctx, client, base, "playout", longArgs, "203.0.113.1")
				switch {
				case err != nil || ctx.Err() != nil:
				case code == http.StatusTooManyRequests:
					busy.Add(1) // the REST port's own in-flight limit
					time.Sleep(time.Millisecond)
				case code != http.StatusOK || r.Error != nil:
					other.Add(1)
					t.Logf("playout: HTTP %d %+v", code, r.Error)
				case !r.Result.IsError:
					served.Add(1)
				case strings.Contains(r.text(), "server is busy"):
					busy.Add(1)
					time.Sleep(time.Millisecond)
				case strings.Contains(r.text(), "deadline"):
					deadline.Add(1)
				default:
					other.Add(1)
					t.Logf("playout: %s", r.text())
				}
			}
		})
	}
	time.Sleep(100 * time.Millisecond)

	var second politeTally
	var pw sync.WaitGroup
	pw.Go(func() {
		client := &http.Client{Transport: &http.Transport{}}
		defer client.CloseIdleConnections()
		short := map[string]any{"game": "backgammon", "state": heavyStart, "games": 2, "max_plies": 10000} // 20,000 plies, 40,000 µs of CPU (rpcs.Cost): heavy
		for ctx.Err() == nil {
			start := time.Now()
			code, r, err := callTool(ctx, client, base, "playout", short, "198.51.100.7")
			if ctx.Err() != nil {
				return
			}
			failure := ""
			switch {
			case err != nil:
				failure = err.Error()
			case code != http.StatusOK:
				failure = http.StatusText(code)
			case r.Result.IsError:
				failure = r.text()
			}
			second.add(time.Since(start), failure)
		}
	})
	polite := gamerulesv1grpc.NewGameRulesClient(dial(t, addrs.GRPC))
	pw.Go(func() { tally.politeGRPC(ctx, polite) })
	pw.Go(func() {
		client := &http.Client{Transport: &http.Transport{}}
		defer client.CloseIdleConnections()
		body := `{"state":{"text":"` + heavyStart + `"}}`
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/games/backgammon:legalMoves", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			start := time.Now()
			resp, err := client.Do(req)
			if ctx.Err() != nil {
				return
			}
			failure := ""
			if err != nil {
				failure = err.Error()
			} else {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failure = http.StatusText(resp.StatusCode)
				}
			}
			restTally.add(time.Since(start), failure)
			time.Sleep(10 * time.Millisecond)
		}
	})
	pw.Wait()
	wg.Wait()
	tally.check(t, "MCP playout flood, polite gRPC LegalMoves")
	restTally.check(t, "MCP playout flood, polite REST LegalMoves")
	second.mu.Lock()
	t.Logf("the second MCP caller's playouts: %d of %d answered (%v)", second.ok, second.ok+second.fail, second.failures)
	if second.ok == 0 || float64(second.ok) < 0.9*float64(second.ok+second.fail) {
		t.Errorf("the second MCP caller behind the proxy: %d of %d playouts answered (%v); want 90%%: its own share of the heavy lane", second.ok, second.ok+second.fail, second.failures)
	}
	second.mu.Unlock()
	t.Logf("the flooder's playouts: %d served, %d refused busy, %d cut by their deadline, %d other", served.Load(), busy.Load(), deadline.Load(), other.Load())
	if busy.Load() == 0 || other.Load() != 0 {
		t.Errorf("the flooder's playouts: %d refused busy, %d other failures; want some refused (past its share of the heavy lane), none other", busy.Load(), other.Load())
	}
	_, metrics := get(t, addrs.HTTP, "/metrics")
	if v := metricValue(metrics, `gamerules_requests_refused_total{port="both",reason="heavy"}`); v == 0 {
		t.Errorf("gamerules_requests_refused_total{port=\"both\",reason=\"heavy\"} = 0 after the MCP flood; want the tools' refusals counted by the heavy lane")
	}
	if !strings.Contains(metrics, `grpc_method="Playout"`) {
		t.Errorf("/metrics has no grpc_method=\"Playout\" series: the tools' calls are not counted per RPC")
	}
}

// metricValue is the value of the series line (name and labels as
// /metrics writes them), 0 when absent.
func metricValue(metrics, series string) float64 {
	for _, line := range strings.Split(metrics, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			var v float64
			_, _ = fmt.Sscan(rest, &v)
			return v
		}
	}
	return 0
}

// TestMCPDeadline: a tool's API call stops at the server's deadline
// (--request-timeout, which the chain's deadline link applies to each call
// of a tool): a playout of 10,000 greedy Abalone games under a 300 ms
// deadline answers a tool error saying so within the deadline and issue
// 30's grace of 1.5 s, and the server answers a small call at once after.
func TestMCPDeadline(t *testing.T) {
	const timeout = 300 * time.Millisecond
	addrs := startServerWith(t, func(c *server.Options) { c.RequestTimeout = timeout })
	base := "http://" + addrs.HTTP
	ng, err := gamerulesv1grpc.NewGameRulesClient(dial(t, addrs.GRPC)).NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "abalone"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"playout", map[string]any{"game": "abalone", "state": ng.GetState().GetText(), "games": 10000, "policy": "greedy"}},
		{"playout", map[string]any{"game": "backgammon", "state": heavyStart, "games": 10000}},
	} {
		start := time.Now()
		code, r, err := callTool(context.Background(), http.DefaultClient, base, tool.name, tool.args, "")
		took := time.Since(start)
		if err != nil || code != http.StatusOK {
			t.Fatalf("%s %v: HTTP %d, %v", tool.name, tool.args["game"], code, err)
		}
		if !r.Result.IsError || !strings.Contains(r.text(), "deadline") {
			t.Errorf("%s of 10,000 %v games under a %v deadline: isError %v, %.200q; want a tool error naming the deadline", tool.name, tool.args["game"], timeout, r.Result.IsError, r.text())
		}
		if took > timeout+1500*time.Millisecond {
			t.Errorf("%s of 10,000 %v games answered after %v; want within its deadline %v and 1.5 s", tool.name, tool.args["game"], took, timeout)
		}
		t.Logf("%s %v: answered in %v", tool.name, tool.args["game"], took)
	}
	_, lm, err := callTool(context.Background(), http.DefaultClient, base, "legal_moves", map[string]any{"game": "backgammon", "state": heavyStart}, "")
	if err != nil || lm.Result.IsError {
		t.Errorf("legal_moves after the cut playouts: %v, %.200q", err, lm.text())
	}
}
