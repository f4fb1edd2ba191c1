package stacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gamerules/gamerules/server"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// grpcCall maps a REST verb to its RPC and message types.
var grpcCall = map[string]struct {
	method    string
	req, resp func() proto.Message
}{
	"new":          {"NewGame", func() proto.Message { return &gamerulesv1.NewGameRequest{} }, func() proto.Message { return &gamerulesv1.NewGameResponse{} }},
	"legalMoves":   {"LegalMoves", func() proto.Message { return &gamerulesv1.LegalMovesRequest{} }, func() proto.Message { return &gamerulesv1.LegalMovesResponse{} }},
	"applyMove":    {"ApplyMove", func() proto.Message { return &gamerulesv1.ApplyMoveRequest{} }, func() proto.Message { return &gamerulesv1.ApplyMoveResponse{} }},
	"score":        {"Score", func() proto.Message { return &gamerulesv1.ScoreRequest{} }, func() proto.Message { return &gamerulesv1.ScoreResponse{} }},
	"observe":      {"ObserveState", func() proto.Message { return &gamerulesv1.ObserveStateRequest{} }, func() proto.Message { return &gamerulesv1.ObserveStateResponse{} }},
	"replay":       {"ReplayGame", func() proto.Message { return &gamerulesv1.ReplayGameRequest{} }, func() proto.Message { return &gamerulesv1.ReplayGameResponse{} }},
	"importRecord": {"ImportRecord", func() proto.Message { return &gamerulesv1.ImportRecordRequest{} }, func() proto.Message { return &gamerulesv1.ImportRecordResponse{} }},
	"exportRecord": {"ExportRecord", func() proto.Message { return &gamerulesv1.ExportRecordRequest{} }, func() proto.Message { return &gamerulesv1.ExportRecordResponse{} }},
	"render":       {"RenderState", func() proto.Message { return &gamerulesv1.RenderStateRequest{} }, func() proto.Message { return &httpbody.HttpBody{} }},
}

var restPath = regexp.MustCompile(`^/v1/games/([^/:]*):(\w+)$`)

// errorOf reads an error answer's reason from its details.
func reasonFromDetails(details []any) string {
	for _, d := range details {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			return ei.GetReason()
		}
	}
	return ""
}

// TestHostileCatalogue sends every catalogue case over REST and gRPC to the
// real server (default limits) and checks the status, the ErrorInfo reason
// and a fragment of the message, then that the server still answers. No
// case may be INTERNAL.
func TestHostileCatalogue(t *testing.T) {
	a := startServerWith(t, func(c *server.Options) {})
	conn := dial(t, a.GRPC)
	health := healthpb.NewHealthClient(conn)
	bgOver, labOver := finishedStates(t)
	cases := hostileCatalogue(bgOver, labOver)
	ran := 0
	for _, tc := range cases {
		// REST.
		code, body := postRaw(t, a.HTTP, tc.path, tc.body)
		var rs struct {
			Code    int               `json:"code"`
			Message string            `json:"message"`
			Details []json.RawMessage `json:"details"`
		}
		if err := json.Unmarshal(body, &rs); err != nil {
			t.Errorf("%s: REST answer is not a status: %d %.200s", tc.name, code, body)
		}
		reason := ""
		for _, d := range rs.Details {
			var ei struct {
				Type   string `json:"@type"`
				Reason string `json:"reason"`
			}
			if json.Unmarshal(d, &ei) == nil && strings.HasSuffix(ei.Type, "ErrorInfo") {
				reason = ei.Reason
			}
		}
		if code != tc.status || reason != tc.reason || !strings.Contains(rs.Message, tc.fragment) || rs.Code == int(codes.Internal) {
			t.Errorf("%s: REST %s = %d reason %q %.300q; want %d reason %q containing %q", tc.name, tc.path, code, reason, rs.Message, tc.status, tc.reason, tc.fragment)
		}
		if len(rs.Details) == 0 || reason == "" {
			t.Errorf("%s: REST answer without an ErrorInfo: %.300s", tc.name, body)
		}
		if strings.Contains(rs.Message, "proto:") {
			t.Errorf("%s: REST message in protojson's words: %q", tc.name, rs.Message)
		}
		if len(rs.Message) > 2000 {
			t.Errorf("%s: REST message is %d bytes; a long input must be quoted in part", tc.name, len(rs.Message))
		}
		ran++
		// gRPC.
		if !tc.restOnly {
			ran++
			m := restPath.FindStringSubmatch(tc.path)
			if m == nil {
				t.Fatalf("%s: path %s is not /v1/games/{game}:{verb}", tc.name, tc.path)
			}
			game, verb := m[1], m[2]
			if g, err := urlUnescape(game); err == nil {
				game = g
			}
			call, ok := grpcCall[verb]
			if !ok {
				t.Fatalf("%s: no RPC for verb %s", tc.name, verb)
			}
			req := call.req()
			if strings.TrimSpace(tc.body) != "" {
				if err := protojson.Unmarshal([]byte(tc.body), req); err != nil {
					t.Fatalf("%s: the body is not a %T (mark the case restOnly?): %v", tc.name, req, err)
				}
			}
			req.ProtoReflect().Set(req.ProtoReflect().Descriptor().Fields().ByName("game"), protoreflect.ValueOfString(game))
			err := conn.Invoke(context.Background(), "/gamerules.v1.GameRules/"+call.method, req, call.resp())
			s := status.Convert(err)
			want := codes.InvalidArgument
			if tc.status == 413 || tc.status == 429 {
				want = codes.ResourceExhausted
			}
			if s.Code() != want || reasonFromDetails(s.Details()) != tc.reason || !strings.Contains(s.Message(), tc.fragment) {
				t.Errorf("%s: gRPC %s = %v reason %q %.300q; want %v reason %q containing %q", tc.name, call.method, s.Code(), reasonFromDetails(s.Details()), s.Message(), want, tc.reason, tc.fragment)
			}
			if s.Message() != rs.Message && tc.status == 400 && reason != "" {
				t.Errorf("%s: REST and gRPC messages differ: %q vs %q", tc.name, rs.Message, s.Message())
			}
		}
		// The server still answers.
		if h, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil || h.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("after %s: health = %v, %v", tc.name, h, err)
		}
	}
	ran += rawGRPCCases(t, a, conn)
	ran += budgetCases(t, a, conn)
	ran += transportCases(t, a)
	if ran < 150 {
		t.Errorf("catalogue ran %d cases; want at least 150", ran)
	}
	t.Logf("hostile catalogue: %d cases over REST and gRPC", ran)
}

func urlUnescape(s string) (string, error) { return url.PathUnescape(s) }

// postRaw posts body and returns the status and the raw answer.
func postRaw(t *testing.T, base, path, body string) (int, []byte) {
	t.Helper()
	resp, err := http.Post("http://"+base+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

// rawCodec sends a []byte as the request message as it is, so that a test
// can put bytes on the wire that no generated client would.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return v.([]byte), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

// rawGRPCCases sends messages that are not valid protobuf: grpc-go refuses
// them with INTERNAL before any handler runs (its convention for a message
// it cannot parse), and the server logs and counts each one. It returns the
// number of cases.
func rawGRPCCases(t *testing.T, a server.Addrs, conn *grpc.ClientConn) int {
	t.Helper()
	// LegalMovesRequest: field 1 game (string), field 2 state (GameState: field 1 text).
	cases := []struct {
		name string
		msg  []byte
		code codes.Code
		frag string
	}{
		{"string that is not UTF-8", []byte{0x0a, 0x02, 0xff, 0xfe}, codes.Internal, "failed to unmarshal"},
		{"nested string that is not UTF-8", []byte{0x12, 0x04, 0x0a, 0x02, 0xc3, 0x28}, codes.Internal, "failed to unmarshal"},
		{"truncated length", []byte{0x0a, 0x10, 'b'}, codes.Internal, "failed to unmarshal"},
		{"truncated varint", []byte{0x18, 0xff, 0xff}, codes.Internal, "failed to unmarshal"},
		{"garbage", []byte("this is not protobuf at all"), codes.Internal, "failed to unmarshal"},
		{"field number 0", []byte{0x00, 0x01}, codes.Internal, "failed to unmarshal"},
		{"garbage inside a nested message", []byte{0x12, 0x02, 0xff, 0xff}, codes.Internal, "failed to unmarshal"},
		{"group start without end", []byte{0x13}, codes.Internal, "failed to unmarshal"},
		// The receive limit is --max-recv-bytes itself (grpcRecvLimit): grpc-go's text names it.
		{"oversized (600 KB, over the public limit)", append([]byte{0x0a, 0xc0, 0xcf, 0x24}, make([]byte, 600000)...), codes.ResourceExhausted, "larger than max (600004 vs. 524288)"},
		{"oversized (1.2 MB, over the transport's limit)", append([]byte{0x0a, 0x80, 0x9f, 0x49}, make([]byte, 1200000)...), codes.ResourceExhausted, "larger than max (1200004 vs. 524288)"},
	}
	malformed := 0
	for _, tc := range cases {
		var out []byte
		err := conn.Invoke(context.Background(), "/gamerules.v1.GameRules/LegalMoves", tc.msg, &out, grpc.ForceCodec(rawCodec{}))
		if s := status.Convert(err); s.Code() != tc.code || !strings.Contains(s.Message(), tc.frag) {
			t.Errorf("raw gRPC %s: %v; want %v containing %q", tc.name, err, tc.code, tc.frag)
		}
		if tc.code == codes.Internal {
			malformed++
		}
	}
	_, metrics := get(t, a.HTTP, "/metrics")
	for _, want := range []string{
		fmt.Sprintf(`gamerules_requests_refused_total{port="grpc",reason="malformed"} %d`, malformed),
		`gamerules_requests_refused_total{port="grpc",reason="too_large"} 2`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	return len(cases)
}

// transportCases covers what a JSON body cannot say: methods, paths,
// headers, stalled and short bodies. It returns the number of cases.
func transportCases(t *testing.T, a server.Addrs) int {
	t.Helper()
	n := 0
	check := func(name string, code int, body []byte, wantCode int, frag string) {
		t.Helper()
		n++
		if code != wantCode || !strings.Contains(string(body), frag) {
			t.Errorf("%s: HTTP %d %.300s; want %d containing %q", name, code, body, wantCode, frag)
		}
		if strings.Contains(string(body), "127.0.0.1") {
			t.Errorf("%s: the answer echoes a socket address: %s", name, body)
		}
	}
	do := func(method, path, body string, hdr map[string]string) (int, []byte) {
		req, _ := http.NewRequest(method, "http://"+a.HTTP+path, strings.NewReader(body))
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, raw
	}
	code, body := do("GET", "/v1/games/backgammon:legalMoves", "", nil)
	check("GET on a POST route", code, body, 405, "use POST")
	code, body = do("PUT", "/v1/games/backgammon:new", "{}", nil)
	check("PUT on a POST route", code, body, 405, "use POST")
	code, body = do("DELETE", "/v1/games", "", nil)
	check("DELETE /v1/games", code, body, 405, "use GET")
	code, body = do("GET", "/v1/games/backgammon:render?state.text=zzz", "", nil)
	check("GET render, a garbage state", code, body, 400, "INVALID_STATE")
	code, body = do("GET", "/v1/games/abalone:render?state.text="+url.QueryEscape(abStart)+"&size=abc", "", nil)
	check("GET render, size not a number", code, body, 400, "size")
	code, body = do("GET", "/v1/games/gravity_trap/boards/hexagon", "", nil)
	check("GET an unknown board", code, body, 400, "not built in")
	code, body = do("GET", "/v1/games/chess/boards/default", "", nil)
	check("GET a board of an unknown game", code, body, 400, "UNKNOWN_GAME")
	code, body = do("POST", "/v1/nothing", "{}", nil)
	check("unknown route", code, body, 404, "")
	code, body = do("POST", "/v1/games/%ff:new", "{}", nil)
	check("path not UTF-8", code, body, 400, "UTF-8")
	code, body = do("POST", "/v1/games/backgammon:legalMoves", obj(st(bg31)), map[string]string{"Content-Type": "text/plain"})
	check("any content type is read as JSON", code, body, 200, "moves")
	code, body = do("POST", "/v1/games/backgammon:legalMoves", obj(st(bg31)), map[string]string{"X-Huge": strings.Repeat("h", 100<<10)})
	check("a 100 KB header", code, body, 431, "")

	// Raw sockets: a body shorter than its Content-Length, and a stalled body.
	raw := func(req string, wait time.Duration) string {
		c, err := net.Dial("tcp", a.HTTP)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = io.WriteString(c, req)
		if wait == 0 {
			c.(*net.TCPConn).CloseWrite()
		}
		_ = c.SetReadDeadline(time.Now().Add(wait + 10*time.Second))
		out, _ := io.ReadAll(c)
		return string(out)
	}
	out := raw("POST /v1/games/backgammon:legalMoves HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"state\":", 0)
	check("short body", statusOf(out), []byte(out), 400, "ended after 9 of its 100 declared bytes")
	return n
}

// statusOf reads the status code of a raw HTTP/1.1 answer.
func statusOf(resp string) int {
	var code int
	fmt.Sscanf(resp, "HTTP/1.1 %d", &code)
	return code
}

// budgetCases sends requests just over the element budget (MaxElements
// sub-messages and strings) on both transports: gRPC refuses them before
// decoding with INVALID_REQUEST on the field where the budget ran out, REST
// with a 400 from the JSON reader. It returns the number of cases.
func budgetCases(t *testing.T, a server.Addrs, conn *grpc.ClientConn) int {
	t.Helper()
	n := server.MaxElements + 1
	players := make([]*gamerulesv1.LabyrinthPlayer, n)
	for i := range players {
		players[i] = &gamerulesv1.LabyrinthPlayer{}
	}
	cells := make([]string, n)
	for i := range cells {
		cells[i] = "a1"
	}
	cases := []struct {
		name, method, field string
		req                 proto.Message
		path, body          string
	}{
		{"labyrinth players", "LegalMoves", "state.labyrinth.players",
			&gamerulesv1.LegalMovesRequest{Game: "labyrinth", State: &gamerulesv1.GameState{State: &gamerulesv1.GameState_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthState{Players: players}}}},
			"/v1/games/labyrinth:legalMoves", `{"state":{"labyrinth":{"players":[` + repeatJSON("{}", n) + `]}}}`},
		{"abalone cells", "NewGame", "abalone.black",
			&gamerulesv1.NewGameRequest{Game: "abalone", Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: "custom", Black: cells}}},
			"/v1/games/abalone:new", `{"abalone":{"layout":"custom","black":[` + repeatJSON(`"a1"`, n) + `]}}`},
	}
	for _, tc := range cases {
		err := conn.Invoke(context.Background(), "/gamerules.v1.GameRules/"+tc.method, tc.req, new(gamerulesv1.ScoreResponse))
		s := status.Convert(err)
		if s.Code() != codes.InvalidArgument || reasonFromDetails(s.Details()) != "INVALID_REQUEST" || !strings.HasPrefix(s.Message(), tc.field+": ") || !strings.Contains(s.Message(), "more than 10000") {
			t.Errorf("gRPC over budget, %s: %v (reason %q); want INVALID_REQUEST on %s", tc.name, err, reasonFromDetails(s.Details()), tc.field)
		}
		code, body := postRaw(t, a.HTTP, tc.path, tc.body)
		if code != 400 || !strings.Contains(string(body), "more than 10000 JSON objects and strings") {
			t.Errorf("REST over budget, %s: %d %.300s; want 400 naming the budget", tc.name, code, body)
		}
	}
	// Exactly at the budget (game, state, labyrinth and the players) is
	// decoded and judged by the rules as usual.
	under := &gamerulesv1.LegalMovesRequest{Game: "labyrinth", State: &gamerulesv1.GameState{State: &gamerulesv1.GameState_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthState{Players: players[:server.MaxElements-3]}}}}
	err := conn.Invoke(context.Background(), "/gamerules.v1.GameRules/LegalMoves", under, new(gamerulesv1.LegalMovesResponse))
	if s := status.Convert(err); reasonFromDetails(s.Details()) != "INVALID_STATE" || !strings.Contains(s.Message(), "players; want 2..4") {
		t.Errorf("gRPC just under the budget: %v; want the rules' INVALID_STATE on the player count", err)
	}
	return 2*len(cases) + 1
}
