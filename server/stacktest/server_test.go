package stacktest

import (
	"context"
	"encoding/json"
	"github.com/gamerules/gamerules/server"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// startServer runs the real server on free loopback ports and stops it when
// the test ends.
func startServer(t testing.TB) server.Addrs {
	t.Helper()
	return startServerWith(t, func(c *server.Options) { c.MaxRecvBytes = 1 << 20 })
}

// startServerWith is startServer with the defaults changed by set.
func startServerWith(t testing.TB, set func(*server.Options)) server.Addrs {
	t.Helper()
	cfg := server.DefaultOptions()
	cfg.GRPCAddr = "127.0.0.1:0"
	cfg.HTTPAddr = "127.0.0.1:0"
	cfg.LogLevel = "error"
	set(&cfg)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan server.Addrs, 1)
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, ready) }()
	var addrs server.Addrs
	select {
	case addrs = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start in 10 s")
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run returned %v after shutdown", err)
		}
	})
	return addrs
}

func dial(t testing.TB, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// post sends a JSON body to the REST port and returns the status and the
// decoded JSON answer.
func post(t *testing.T, base, path, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post("http://"+base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST %s: answer is not JSON: %v: %s", path, err, raw)
	}
	return resp.StatusCode, out
}

func get(t *testing.T, base, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

func TestProbesMetricsOpenAPI(t *testing.T) {
	a := startServer(t)
	for _, tc := range []struct {
		path string
		want string
	}{
		{"/healthz", "ok"},
		{"/readyz", "ready"},
		{"/openapi.json", `"/v1/games/{game}:legalMoves"`},
	} {
		code, body := get(t, a.HTTP, tc.path)
		if code != 200 || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s = %d %q; want 200 containing %q", tc.path, code, body, tc.want)
		}
	}
	// One call, then the per-RPC counter must show it.
	if code, _ := get(t, a.HTTP, "/v1/games"); code != 200 {
		t.Fatalf("GET /v1/games = %d", code)
	}
	_, metrics := get(t, a.HTTP, "/metrics")
	want := `grpc_server_handled_total{grpc_code="OK",grpc_method="ListGames",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 1`
	if !strings.Contains(metrics, want) {
		t.Errorf("/metrics lacks %q", want)
	}
	if !strings.Contains(metrics, "grpc_server_handling_seconds_bucket") {
		t.Errorf("/metrics lacks the latency histogram")
	}
	_, doc := get(t, a.HTTP, "/openapi.json")
	for _, route := range []string{"/v1/games", "/v1/games/{game}:new", "/v1/games/{game}:applyMove", "/v1/games/{game}:score", "/v1/games/{game}:observe"} {
		if !strings.Contains(doc, `"`+route+`"`) {
			t.Errorf("/openapi.json lacks route %s", route)
		}
	}
}

func TestGRPCHealthAndList(t *testing.T) {
	a := startServer(t)
	conn := dial(t, a.GRPC)
	ctx := context.Background()
	h, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{Service: "gamerules.v1.GameRules"})
	if err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health = %v, %v; want SERVING", h, err)
	}
	games, err := gamerulesv1grpc.NewGameRulesClient(conn).ListGames(ctx, &gamerulesv1.ListGamesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	// REST and gRPC agree.
	code, body := get(t, a.HTTP, "/v1/games")
	if code != 200 {
		t.Fatalf("GET /v1/games = %d", code)
	}
	for _, g := range games.GetGames() {
		if !strings.Contains(body, `"id":"`+g.GetId()+`"`) {
			t.Errorf("REST list lacks %s: %s", g.GetId(), body)
		}
	}
}

func TestErrors(t *testing.T) {
	a := startServer(t)
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, a.GRPC))
	ctx := context.Background()

	_, err := client.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "chess"})
	wantReason(t, err, "UNKNOWN_GAME", "game")
	_, err = client.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "chess", State: &gamerulesv1.GameState{Text: "x"}})
	wantReason(t, err, "UNKNOWN_GAME", "game")

	// REST: the same error as JSON with HTTP 400.
	code, body := post(t, a.HTTP, "/v1/games/chess:new", `{}`)
	if code != 400 || body["code"] != float64(codes.InvalidArgument) || !strings.Contains(body["message"].(string), "chess") {
		t.Errorf("POST chess:new = %d %v; want 400, code 3, a message naming chess", code, body)
	}
	// Malformed JSON and a wrong JSON type are refused by the gateway with 400.
	for _, bad := range []string{`{bad`, `{"includeResults": "yes"}`, `{"state": 7}`, `{"noSuchField": 1}`} {
		code, body := post(t, a.HTTP, "/v1/games/backgammon:legalMoves", bad)
		if code != 400 || body["message"] == "" {
			t.Errorf("POST %s = %d %v; want 400 with a message", bad, code, body)
		}
	}
	// An oversized body is refused, not read into memory; without a length
	// it is cut off at the limit.
	big := `{"state":{"text":"` + strings.Repeat("x", 2<<20) + `"}}`
	req, _ := http.NewRequest(http.MethodPost, "http://"+a.HTTP+"/v1/games/backgammon:legalMoves", io.NopCloser(strings.NewReader(big)))
	req.ContentLength = -1 // chunked: the size is not known up front
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized chunked REST body: HTTP %d; want 413", resp.StatusCode)
	}
	_, err = client.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: strings.Repeat("x", 2<<20)}})
	if status.Code(err) != codes.ResourceExhausted {
		t.Errorf("oversized gRPC request: %v; want RESOURCE_EXHAUSTED", err)
	}
	// Unknown route; known route with the wrong method.
	if code, _ := get(t, a.HTTP, "/v2/nothing"); code != 404 {
		t.Errorf("GET /v2/nothing = %d; want 404", code)
	}
	resp, err = http.Get("http://" + a.HTTP + "/v1/games/backgammon:new")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET .../backgammon:new = %d, Allow %q; want 405, Allow POST", resp.StatusCode, resp.Header.Get("Allow"))
	}
	// A body announced as too large is refused before it is read: 413.
	{
		code, body := post(t, a.HTTP, "/v1/games/backgammon:legalMoves", big)
		if code != http.StatusRequestEntityTooLarge || body["code"] != float64(codes.ResourceExhausted) {
			t.Errorf("oversized REST body = %d %v; want 413, code RESOURCE_EXHAUSTED", code, body)
		}
	}
	// A path that is not UTF-8 is a bad request, not an internal error.
	if code, body := post(t, a.HTTP, "/v1/games/%ff:new", `{}`); code != 400 {
		t.Errorf("POST /v1/games/%%ff:new = %d %v; want 400", code, body)
	}
	// No gRPC metadata leaks into REST headers.
	resp, err = http.Get("http://" + a.HTTP + "/v1/games")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for k := range resp.Header {
		if strings.HasPrefix(k, "Grpc-") {
			t.Errorf("REST response has header %s", k)
		}
	}
	// The HTTP layer counts what the gateway refused too.
	_, metrics := get(t, a.HTTP, "/metrics")
	if !strings.Contains(metrics, `gamerules_http_requests_total{code="413",method="post",route="/v1/games/{game}:`) {
		t.Errorf("/metrics lacks the 413 in gamerules_http_requests_total, with its route")
	}
}

// wantReason checks that err is INVALID_ARGUMENT with the ErrorInfo reason
// and a BadRequest violation on field.
func wantReason(t *testing.T, err error, reason, field string) {
	t.Helper()
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.InvalidArgument {
		t.Fatalf("err = %v; want INVALID_ARGUMENT", err)
	}
	var gotReason, gotField string
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			gotReason = d.GetReason()
		case *errdetails.BadRequest:
			if len(d.GetFieldViolations()) > 0 {
				gotField = d.GetFieldViolations()[0].GetField()
			}
		}
	}
	if gotReason != reason || gotField != field {
		t.Errorf("err %q: reason %q field %q; want %q on %q", st.Message(), gotReason, gotField, reason, field)
	}
}
