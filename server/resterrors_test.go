package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/service"
)

// restErrorBody is a REST error answer as a client reads it.
type restErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Details []struct {
		Type            string            `json:"@type"`
		Reason          string            `json:"reason"`
		Domain          string            `json:"domain"`
		Metadata        map[string]string `json:"metadata"`
		FieldViolations []struct {
			Field       string `json:"field"`
			Description string `json:"description"`
		} `json:"fieldViolations"`
	} `json:"details"`
}

// checkRESTError checks that raw is a google.rpc.Status whose details hold
// an ErrorInfo of domain gamerules and reason, and, with field, a BadRequest
// violation of that field; it returns the message.
func checkRESTError(t *testing.T, name string, code int, raw []byte, wantCode int, reason, field string) string {
	t.Helper()
	var b restErrorBody
	if err := json.Unmarshal(raw, &b); err != nil || b.Message == "" {
		t.Errorf("%s: %d %.300s is not a google.rpc.Status", name, code, raw)
		return ""
	}
	if code != wantCode {
		t.Errorf("%s: HTTP %d, want %d: %.300s", name, code, wantCode, raw)
	}
	if len(b.Details) == 0 {
		t.Errorf("%s: empty details: %s", name, raw)
	}
	var gotReason, gotField string
	for _, d := range b.Details {
		switch {
		case strings.HasSuffix(d.Type, "google.rpc.ErrorInfo"):
			gotReason = d.Reason
			if d.Domain != "gamerules" {
				t.Errorf("%s: ErrorInfo domain %q", name, d.Domain)
			}
		case strings.HasSuffix(d.Type, "google.rpc.BadRequest"):
			if len(d.FieldViolations) > 0 {
				gotField = d.FieldViolations[0].Field
			}
		}
	}
	if gotReason != reason || gotField != field {
		t.Errorf("%s: reason %q field %q; want reason %q field %q: %s", name, gotReason, gotField, reason, field, raw)
	}
	if strings.Contains(b.Message, "proto:") {
		t.Errorf("%s: protojson's jargon in %q", name, b.Message)
	}
	return b.Message
}

// stalledBody is a request body whose read fails as an http.Server's read
// timeout makes it fail.
type stalledBody struct{ sent bool }

func (s *stalledBody) Read(p []byte) (int, error) {
	if !s.sent {
		s.sent = true
		return copy(p, `{"state":`), nil
	}
	return 0, os.ErrDeadlineExceeded
}

// iotestErr is a reader that fails with its error.
type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }

// TestRESTErrorsHaveDetails sweeps the catalogue of every kind of error the
// REST port answers for the API (the JSON reader's, the service's, the
// query's, routing 404 and 405, the body limits 413, 408 and 400, overload
// 429) through the HTTP handler, in process and over loopback: each is a
// google.rpc.Status with an ErrorInfo (domain gamerules) of its reason, and
// a BadRequest naming the field where there is one; "details": [] nowhere.
// The server answers no 415: every body is read as JSON, whatever its
// Content-Type (README's curl -d sends form encoding's).
func TestRESTErrorsHaveDetails(t *testing.T) {
	for _, mode := range []string{GatewayInProcess, GatewayLoopback} {
		t.Run(mode, func(t *testing.T) {
			s := slow{GameRulesServer: NewGRPCService(service.New()), started: make(chan struct{}, 4), release: make(chan struct{})}
			g := newGatewayStack(t, s, func(c *Options) {
				c.RESTGateway = mode
				c.MaxRecvBytes = 2000
				c.MaxInFlight = 1
				c.QueueWait = 0
			})
			const gt = "/v1/games/gravity_trap"
			for _, c := range []struct {
				name, method, path, body string
				code                     int
				reason, field, fragment  string
			}{
				{"wrong JSON type", "POST", gt + ":legalMoves", `{"state":"RoooBooooooooooooooooo r"}`, 400, "INVALID_REQUEST", "state", `state must be an object such as {"text": "…"}`},
				{"an int as a word", "POST", gt + ":new", `{"gravityTrap":{"firstPlayer":"blue"}}`, 400, "INVALID_REQUEST", "gravityTrap.firstPlayer", "must be an integer"},
				{"unknown field", "POST", gt + ":applyMove", `{"state":{"text":"RoooBooooooooooooooooo r"},"move":{"notaton":"8"}}`, 400, "INVALID_REQUEST", "move.notaton", `did you mean "notation"?`},
				{"bad enum name", "POST", "/v1/games/backgammon:score", `{"state":{"backgammon":{"turn":"white"}}}`, 400, "INVALID_REQUEST", "state.backgammon.turn", `did you mean "BACKGAMMON_PLAYER_WHITE"?`},
				{"syntax error", "POST", gt + ":legalMoves", `{"state":{"text" "x"}}`, 400, "INVALID_REQUEST", "state.text", "not valid JSON: invalid character"},
				{"two oneof members", "POST", gt + ":applyMove", `{"state":{"text":"RoooBooooooooooooooooo r"},"move":{"backgammon":{},"gravityTrap":{}}}`, 400, "INVALID_REQUEST", "move.gravityTrap", "set at most one of"},
				{"a game error", "POST", gt + ":applyMove", `{"state":{"text":"RoooBooooooooooooooooo r"},"move":{"notation":"99"}}`, 400, "ILLEGAL_MOVE", "move.notation", ""},
				{"unknown game", "POST", "/v1/games/chess:new", `{}`, 400, "UNKNOWN_GAME", "game", "chess"},
				{"unknown query parameter", "GET", gt + ":render?state.txt=x", "", 400, "INVALID_REQUEST", "state.txt", "unknown query parameter"},
				{"bad query value", "GET", gt + ":render?state.text=RoooBooooooooooooooooo%20r&size=big", "", 400, "INVALID_REQUEST", "size", `size must be an integer, not the string "big"`},
				{"unknown route", "GET", "/v1/gamez", "", 404, "NOT_FOUND", "", "no route GET /v1/gamez"},
				{"unknown method", "POST", gt + ":fly", `{}`, 404, "NOT_FOUND", "", "no route"},
				{"wrong HTTP method", "DELETE", "/v1/games", "", 405, "METHOD_NOT_ALLOWED", "", "use GET"},
				{"GET on a POST route", "GET", gt + ":new", "", 405, "METHOD_NOT_ALLOWED", "", "use POST"},
				{"body too large", "POST", gt + ":legalMoves", `{"state":{"text":"` + strings.Repeat("x", 3000) + `"}}`, 413, "REQUEST_TOO_LARGE", "", "--max-recv-bytes"},
				{"path not UTF-8", "POST", "/v1/games/%ff:new", `{}`, 400, "INVALID_REQUEST", "", "not valid UTF-8"},
			} {
				rec := g.serve(c.method, c.path, c.body)
				if msg := checkRESTError(t, c.name, rec.Code, rec.Body.Bytes(), c.code, c.reason, c.field); !strings.Contains(msg, c.fragment) {
					t.Errorf("%s: message %q; want it to contain %q", c.name, msg, c.fragment)
				}
			}

			// A chunked body over the limit (no Content-Length to refuse
			// up front).
			req := httptest.NewRequest("POST", gt+":legalMoves", io.MultiReader(strings.NewReader(`{"state":{"text":"`), bytes.NewReader(bytes.Repeat([]byte("x"), 3000))))
			req.ContentLength = -1
			rec := httptest.NewRecorder()
			g.handler.ServeHTTP(rec, req)
			checkRESTError(t, "chunked body too large", rec.Code, rec.Body.Bytes(), 413, "REQUEST_TOO_LARGE", "")

			// A body shorter than its Content-Length.
			req = httptest.NewRequest("POST", gt+":legalMoves", io.MultiReader(strings.NewReader(`{"state":`), iotestErr{io.ErrUnexpectedEOF}))
			req.ContentLength = 100
			rec = httptest.NewRecorder()
			g.handler.ServeHTTP(rec, req)
			checkRESTError(t, "body ends early", rec.Code, rec.Body.Bytes(), 400, "INVALID_REQUEST", "")

			// A body that stops arriving (the read timeout).
			req = httptest.NewRequest("POST", gt+":legalMoves", &stalledBody{})
			req.ContentLength = -1
			rec = httptest.NewRecorder()
			g.handler.ServeHTTP(rec, req)
			checkRESTError(t, "body stalled", rec.Code, rec.Body.Bytes(), 408, "REQUEST_TIMEOUT", "")

			// Overload: a call holds the one place; the next is 429.
			score := `{"state":{"text":"RoooBooooooooooooooooo r"}}`
			done := make(chan int, 1)
			go func() { done <- g.serve("POST", gt+":score", score).Code }()
			<-s.started
			rec = g.serve("POST", gt+":score", score)
			checkRESTError(t, "overloaded", rec.Code, rec.Body.Bytes(), 429, "OVERLOADED", "")
			s.release <- struct{}{}
			if code := <-done; code != 200 {
				t.Errorf("the held call = %d", code)
			}

			// No 415: a body sent as text/plain (or curl -d's form type) is read
			// as JSON.
			for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded"} {
				rec = g.serve("POST", gt+":new", `{"seed":"1"}`, "Content-Type", ct)
				if rec.Code != 200 {
					t.Errorf("Content-Type %s: %d %s", ct, rec.Code, rec.Body)
				}
			}
		})
	}
}
