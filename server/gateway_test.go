package server

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/service"
)

// TestRESTInProcessMatchesLoopback: every request of the hostile catalogue,
// and successful calls of every kind, answer byte for byte the same status,
// headers and body in process as over the loopback hop: the error mapping
// (status → HTTP code, JSON error body, Retry-After, Allow) and the answers
// are unchanged by the in-process gateway.
func TestRESTInProcessMatchesLoopback(t *testing.T) {
	in := newGatewayStack(t, nil, func(c *Options) { c.RESTGateway = GatewayInProcess })
	lo := newGatewayStack(t, nil, func(c *Options) { c.RESTGateway = GatewayLoopback })
	type req struct{ method, path, body string }
	var reqs []req
	bgOver, labOver := finishedStates(t)
	for _, c := range hostileCatalogue(bgOver, labOver) {
		reqs = append(reqs, req{http.MethodPost, c.path, c.body})
	}
	for _, c := range gatewayBenchCases {
		reqs = append(reqs, req{http.MethodPost, c.path, c.body})
	}
	reqs = append(reqs,
		req{http.MethodGet, "/v1/games", ""},
		req{http.MethodPost, "/v1/games/backgammon:new", `{"seed":"3"}`},
		req{http.MethodPost, "/v1/games/labyrinth:new", `{"seed":"7"}`},
		req{http.MethodPost, "/v1/games/backgammon:applyMove", `{"state":{"text":"` + bg31 + `"},"move":{"notation":"8/5 6/5"}}`},
		req{http.MethodPost, "/v1/games/abalone:score", `{"state":{"text":"` + abWon + `"}}`},
		req{http.MethodPost, "/v1/games/labyrinth:observe", `{"state":{"text":"` + labMove + `"},"player":1}`},
		req{http.MethodGet, "/v1/games/gravity_trap:render?state.text=" + strings.ReplaceAll(gtMove, " ", "%20"), ""},
		req{http.MethodGet, "/v1/games/gravity_trap/boards/rings", ""},
		req{http.MethodPost, "/v1/games/backgammon:replay", `{"moves":["roll 3-1","8/5 6/5"],"seed":"3"}`},
		req{http.MethodGet, "/v1/games/backgammon:legalMoves", ""},
		req{http.MethodPost, "/v1/nothing", `{}`},
	)
	differ := 0
	for _, r := range reqs {
		a := in.serve(r.method, r.path, r.body, "X-Request-Id", "same-id")
		b := lo.serve(r.method, r.path, r.body, "X-Request-Id", "same-id")
		same := a.Code == b.Code && a.Body.String() == b.Body.String()
		for _, h := range []string{"Content-Type", "Retry-After", "Allow", "X-Request-Id", "Content-Length"} {
			same = same && a.Header().Get(h) == b.Header().Get(h)
		}
		if !same {
			differ++
			t.Errorf("%s %s %.80s:\n in process %d %v %.300s\n loopback   %d %v %.300s", r.method, r.path, r.body, a.Code, a.Header(), a.Body, b.Code, b.Header(), b.Body)
		}
	}
	if len(reqs) < 100 {
		t.Errorf("compared %d requests; want the whole catalogue", len(reqs))
	}
	t.Logf("%d REST requests answered identically in process and over loopback (%d differ)", len(reqs), differ)
}

// panicky is the real service, except that LegalMoves panics.
type panicky struct {
	gamerulesv1grpc.GameRulesServer
}

func (panicky) LegalMoves(context.Context, *gamerulesv1.LegalMovesRequest) (*gamerulesv1.LegalMovesResponse, error) {
	panic("boom in LegalMoves")
}

// TestRESTPanicRecovered: a panic in a handler reached over REST is
// answered 500 with INTERNAL "internal error" and an ErrorInfo of reason
// INTERNAL (as over loopback), logged
// with its stack, and the call is still logged and counted as Internal;
// the server serves on.
func TestRESTPanicRecovered(t *testing.T) {
	for _, mode := range []string{GatewayInProcess, GatewayLoopback} {
		t.Run(mode, func(t *testing.T) {
			var logs syncBuffer
			g := newGatewayStack(t, panicky{NewGRPCService(service.New())}, func(c *Options) { c.RESTGateway = mode; c.LogLevel = "info"; c.logOutput = &logs })
			rec := g.serve(http.MethodPost, "/v1/games/backgammon:legalMoves", `{"state":{"text":"`+bg31+`"}}`)
			var body map[string]any
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			want := map[string]any{"code": 13.0, "message": "internal error", "details": []any{map[string]any{
				"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INTERNAL", "domain": "gamerules", "metadata": map[string]any{}}}}
			if rec.Code != 500 || !reflect.DeepEqual(body, want) {
				t.Errorf("panicking LegalMoves = %d %s; want 500 %v", rec.Code, rec.Body, want)
			}
			out := logs.String()
			if !strings.Contains(out, `"msg":"panic in handler"`) || !strings.Contains(out, `"panic":"boom in LegalMoves"`) || !strings.Contains(out, `"stack":"`) {
				t.Errorf("no panic line with its stack:\n%s", out)
			}
			if !regexp.MustCompile(`"grpc.method":"LegalMoves".*"grpc.code":"Internal"`).MatchString(out) {
				t.Errorf("no RPC line with code Internal:\n%s", out)
			}
			if m := metricsText(t, g); !strings.Contains(m, `grpc_server_handled_total{grpc_code="Internal",grpc_method="LegalMoves",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 1`) {
				t.Errorf("the panic is not counted as Internal")
			}
			if rec := g.serve(http.MethodPost, "/v1/games/backgammon:score", `{"state":{"text":"`+bg31+`"}}`); rec.Code != 200 {
				t.Errorf("after the panic, score = %d %s", rec.Code, rec.Body)
			}
		})
	}
}

// metricsText is the stack's /metrics page.
func metricsText(t *testing.T, g gatewayStack) string {
	t.Helper()
	rec := g.serve(http.MethodGet, "/metrics", "")
	if rec.Code != 200 {
		t.Fatalf("/metrics = %d", rec.Code)
	}
	return rec.Body.String()
}

// rpcLines are the RPC log lines (logger "rpc") of out, decoded.
func rpcLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, l)
		}
		if m["logger"] == "rpc" {
			lines = append(lines, m)
		}
	}
	return lines
}

// TestRESTLogLineAndMetrics: an in-process REST call writes one log line at
// info level, the RPC line, with the method, game, code, request id, the
// HTTP client's address as peer and a numeric duration in seconds; and it
// is counted in the gRPC server metrics with the same labels as a gRPC call
// (and as over loopback), and in the HTTP port's own.
func TestRESTLogLineAndMetrics(t *testing.T) {
	var logs syncBuffer
	g := newGatewayStack(t, nil, func(c *Options) { c.LogLevel = "info"; c.logOutput = &logs })
	rec := g.serve(http.MethodPost, "/v1/games/backgammon:legalMoves", `{"state":{"text":"`+bg31+`"}}`, "X-Request-Id", "rest-log-1")
	if rec.Code != 200 {
		t.Fatalf("legalMoves = %d %s", rec.Code, rec.Body)
	}
	if n := strings.Count(strings.TrimSpace(logs.String()), "\n") + 1; n != 1 {
		t.Errorf("%d log lines for one REST call; want 1:\n%s", n, logs.String())
	}
	lines := rpcLines(t, logs.String())
	if len(lines) != 1 {
		t.Fatalf("RPC lines %v; want 1", lines)
	}
	l := lines[0]
	for k, want := range map[string]any{
		"msg": "finished call", "level": "info", "grpc.service": "gamerules.v1.GameRules", "grpc.method": "LegalMoves",
		"grpc.method_type": "unary", "grpc.code": "OK", "game": "backgammon", "request_id": "rest-log-1",
		"peer.address": "192.0.2.7:4242", "protocol": "grpc", "grpc.component": "server",
	} {
		if l[k] != want {
			t.Errorf("log line %s = %v; want %v (line %v)", k, l[k], want, l)
		}
	}
	if d, ok := l["duration"].(float64); !ok || d <= 0 || d > 60 {
		t.Errorf("log line duration = %v; want seconds as a number", l["duration"])
	}
	// A failed call: logged with its code, and the HTTP line too (status ≥ 400).
	before := len(logs.String())
	if rec := g.serve(http.MethodPost, "/v1/games/backgammon:legalMoves", `{"state":{"text":"nonsense"}}`); rec.Code != 400 {
		t.Fatalf("bad state = %d", rec.Code)
	}
	failed := logs.String()[before:]
	if lines := rpcLines(t, failed); len(lines) != 1 || lines[0]["grpc.code"] != "InvalidArgument" || lines[0]["level"] != "info" {
		t.Errorf("failed call's RPC lines %v; want one, InvalidArgument", lines)
	}
	if !strings.Contains(failed, `"msg":"http request"`) {
		t.Errorf("failed call: no HTTP line:\n%s", failed)
	}
	m := metricsText(t, g)
	for _, want := range []string{
		`grpc_server_started_total{grpc_method="LegalMoves",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 2`,
		`grpc_server_handled_total{grpc_code="OK",grpc_method="LegalMoves",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 1`,
		`grpc_server_handled_total{grpc_code="InvalidArgument",grpc_method="LegalMoves",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 1`,
		`grpc_server_handling_seconds_count{grpc_method="LegalMoves",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 2`,
		`grpc_server_msg_received_total{grpc_method="LegalMoves",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 2`,
		`gamerules_http_requests_total{code="200",method="post",route="/v1/games/{game}:legalMoves"} 1`,
		`gamerules_http_requests_total{code="400",method="post",route="/v1/games/{game}:legalMoves"} 1`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	// The same series, with the same labels, as the loopback gateway's.
	lo := newGatewayStack(t, nil, func(c *Options) { c.RESTGateway = GatewayLoopback })
	lo.serve(http.MethodPost, "/v1/games/backgammon:legalMoves", `{"state":{"text":"`+bg31+`"}}`)
	lo.serve(http.MethodPost, "/v1/games/backgammon:legalMoves", `{"state":{"text":"nonsense"}}`)
	series := regexp.MustCompile(`(?m)^(grpc_server_[a-z_]+\{[^}]*grpc_method="LegalMoves"[^}]*\}) [0-9]+$`)
	counted := func(text string) map[string]bool {
		out := map[string]bool{}
		for _, s := range series.FindAllStringSubmatch(text, -1) {
			// Which latency bucket a call falls in is timing, not labels.
			if !strings.HasSuffix(s[0], " 0") && !strings.Contains(s[1], "_bucket{") {
				out[s[1]] = true
			}
		}
		return out
	}
	if a, b := counted(m), counted(metricsText(t, lo)); !reflect.DeepEqual(a, b) {
		t.Errorf("in-process series %v\nloopback series %v", a, b)
	}
}

// slow is the real service, except that LegalMoves reports the deadline it
// got (as an error naming how far off it is), and Score blocks until its
// release channel is closed (telling started first).
type slow struct {
	gamerulesv1grpc.GameRulesServer
	started chan struct{}
	release chan struct{}
}

func (s slow) LegalMoves(ctx context.Context, _ *gamerulesv1.LegalMovesRequest) (*gamerulesv1.LegalMovesResponse, error) {
	dl, ok := ctx.Deadline()
	if !ok {
		return nil, status.Error(codes.FailedPrecondition, "no deadline")
	}
	return nil, status.Errorf(codes.FailedPrecondition, "deadline in %d s", int(time.Until(dl).Round(time.Second)/time.Second))
}

func (s slow) Score(ctx context.Context, req *gamerulesv1.ScoreRequest) (*gamerulesv1.ScoreResponse, error) {
	s.started <- struct{}{}
	<-s.release
	return s.GameRulesServer.Score(ctx, req)
}

// TestRESTDeadline: an in-process REST call runs with --request-timeout's
// deadline; a client's shorter one (the gateway's Grpc-Timeout header)
// wins.
func TestRESTDeadline(t *testing.T) {
	g := newGatewayStack(t, slow{GameRulesServer: NewGRPCService(service.New())}, func(c *Options) { c.RequestTimeout = time.Hour })
	for _, tc := range []struct{ timeout, want string }{{"", "deadline in 3600 s"}, {"30S", "deadline in 30 s"}, {"2H", "deadline in 3600 s"}} {
		var hdr []string
		if tc.timeout != "" {
			hdr = []string{"Grpc-Timeout", tc.timeout}
		}
		rec := g.serve(http.MethodPost, "/v1/games/backgammon:legalMoves", `{}`, hdr...)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("Grpc-Timeout %q: %d %s; want %q", tc.timeout, rec.Code, rec.Body, tc.want)
		}
	}
}

// TestRESTLimitedOnce: REST calls count against the REST port's in-flight
// limit (a second call past it is refused 429 with Retry-After, and
// OVERLOADED) and not against the gRPC port's: with both limits at one
// call and no queue wait, a REST call in flight does not stop a gRPC call,
// and a gRPC call in flight does not stop a REST call.
func TestRESTLimitedOnce(t *testing.T) {
	s := slow{GameRulesServer: NewGRPCService(service.New()), started: make(chan struct{}, 4), release: make(chan struct{})}
	g := newGatewayStack(t, s, func(c *Options) { c.MaxInFlight = 1; c.QueueWait = 0 })
	conn := dial(t, g.grpc)
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	score := `{"state":{"text":"` + bg31 + `"}}`

	// A REST call holds the REST slot.
	done := make(chan int, 1)
	go func() { done <- g.serve(http.MethodPost, "/v1/games/backgammon:score", score).Code }()
	<-s.started
	rec := g.serve(http.MethodPost, "/v1/games/backgammon:score", score)
	if rec.Code != 429 || rec.Header().Get("Retry-After") != "1" || !strings.Contains(rec.Body.String(), `"OVERLOADED"`) {
		t.Errorf("second REST call = %d %q %s; want 429, Retry-After 1, OVERLOADED", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if _, err := client.GetBoard(context.Background(), &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: "rings"}); err != nil {
		t.Errorf("gRPC call while REST holds its slot: %v", err)
	}
	s.release <- struct{}{}
	if code := <-done; code != 200 {
		t.Errorf("the held REST call = %d", code)
	}

	// A gRPC call holds the gRPC slot.
	errc := make(chan error, 1)
	go func() {
		_, err := client.Score(context.Background(), &gamerulesv1.ScoreRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: bg31}})
		errc <- err
	}()
	<-s.started
	if _, err := client.GetBoard(context.Background(), &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: "rings"}); status.Code(err) != codes.ResourceExhausted {
		t.Errorf("second gRPC call = %v; want RESOURCE_EXHAUSTED", err)
	}
	if rec := g.serve(http.MethodGet, "/v1/games/gravity_trap/boards/rings", ""); rec.Code != 200 {
		t.Errorf("REST call while gRPC holds its slot = %d %s", rec.Code, rec.Body)
	}
	s.release <- struct{}{}
	if err := <-errc; err != nil {
		t.Errorf("the held gRPC call: %v", err)
	}
}

// TestRESTSpan: in process, a REST call's RPC span is a child of the HTTP
// request's span, named as otelgrpc names the gRPC server span, with the
// call's status code; a server error marks it failed.
func TestRESTSpan(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	g := newGatewayStack(t, panicky{NewGRPCService(service.New())}, func(c *Options) { c.TracerProvider = tp })
	g.serve(http.MethodPost, "/v1/games/backgammon:score", `{"state":{"text":"`+bg31+`"}}`)
	g.serve(http.MethodPost, "/v1/games/backgammon:legalMoves", `{"state":{"text":"`+bg31+`"}}`)
	spans := exp.GetSpans().Snapshots()
	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byName[s.Name()] = s
	}
	for _, c := range []struct{ http, rpc, code string }{
		{"POST /v1/games/{game}:score", "gamerules.v1.GameRules/Score", "OK"},
		{"POST /v1/games/{game}:legalMoves", "gamerules.v1.GameRules/LegalMoves", "INTERNAL"},
	} {
		h, r := byName[c.http], byName[c.rpc]
		if h == nil || r == nil {
			t.Fatalf("spans %v; want %q and %q", byName, c.http, c.rpc)
		}
		if r.Parent().SpanID() != h.SpanContext().SpanID() || r.SpanContext().TraceID() != h.SpanContext().TraceID() {
			t.Errorf("%s is not a child of %s", c.rpc, c.http)
		}
		attrs := map[string]string{}
		for _, a := range r.Attributes() {
			attrs[string(a.Key)] = a.Value.Emit()
		}
		if attrs["rpc.system.name"] != "grpc" || attrs["rpc.method"] != c.rpc || attrs["rpc.response.status_code"] != c.code {
			t.Errorf("%s attributes %v", c.rpc, attrs)
		}
		if failed := r.Status().Code.String() == "Error"; failed != (c.code != "OK") {
			t.Errorf("%s status %v", c.rpc, r.Status())
		}
	}
}

// TestGRPCCodeName: the span's status code names are gRPC's canonical ones.
func TestGRPCCodeName(t *testing.T) {
	for c, want := range map[codes.Code]string{codes.OK: "OK", codes.Canceled: "CANCELLED", codes.InvalidArgument: "INVALID_ARGUMENT",
		codes.DeadlineExceeded: "DEADLINE_EXCEEDED", codes.ResourceExhausted: "RESOURCE_EXHAUSTED", codes.Internal: "INTERNAL", codes.DataLoss: "DATA_LOSS"} {
		if got := grpcCodeName(c); got != want {
			t.Errorf("grpcCodeName(%v) = %q; want %q", c, got, want)
		}
	}
}

// TestRESTGatewayModes: the real server answers REST in both gateway
// modes (the flag's parsing is tested in cmd/gamerulesd).
func TestRESTGatewayModes(t *testing.T) {
	for _, mode := range []string{GatewayInProcess, GatewayLoopback} {
		a := startServerWith(t, func(c *Options) { c.RESTGateway = mode })
		if code, body := post(t, a.HTTP, "/v1/games/gravity_trap:legalMoves", `{"state":{"text":"`+gtMove+`"}}`); code != 200 || body["moves"] == nil {
			t.Errorf("%s: legalMoves = %d %v", mode, code, body)
		}
	}
}
