package server

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// hostileImport is an ImportRecord request of the largest legal size
// shaped to cost the most to read and replay.
type hostileImport struct {
	name, game, format string
	text               func(size int) string // a record of at most size bytes
}

// fillTo writes head, then line(1), line(2)… while the record stays within
// size bytes (or until line returns "").
func fillTo(size int, head string, line func(i int) string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 1; ; i++ {
		l := line(i)
		if l == "" || b.Len()+len(l) > size {
			return b.String()
		}
		b.WriteString(l)
	}
}

// hostileImports are the costliest records per format: .mat records of
// one-roll lines (what made reading quadratic), empty move lines and a
// session of many short games (as rules/backgammon/mat's limits test);
// APGN, a game of 9,000 plies read in full before its replay and one of
// numbered lines without moves, and the start of the MIGS archive (many
// games); JSON records of 9,000 moves and of an options object of empty
// objects.
func hostileImports(t testing.TB) []hostileImport {
	t.Helper()
	f, err := os.Open("../testdata/abalone/migs-games.apgn.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	archive, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	matHead := " 5 point match\n\n Game 1\n White : 0                    Black : 0\n"
	apgnHead := "[Event \"x\"]\n[Black \"b\"]\n[White \"w\"]\n[Variant \"belgian\"]\n[Result \"*\"]\n\n"
	plies := strings.Fields("a1b2 a5b5 a2b3 b6c7 i9h8 i5h5 h8g7 g4g5 b3c4 c5c7d6 g7g8f7 h5g5 b1c2 d6e7 f8f7 h4g4")
	return []hostileImport{
		{"mat one-roll lines", "backgammon", "mat", func(n int) string {
			return fillTo(n, matHead, func(i int) string { return fmt.Sprintf("%3d) 31:\n", i) })
		}},
		{"mat empty lines", "backgammon", "mat", func(n int) string {
			return fillTo(n, matHead, func(i int) string { return fmt.Sprintf("%3d)\n", i) })
		}},
		{"mat session", "backgammon", "mat", func(n int) string {
			return fillTo(n, " 0 point match\n", func(i int) string {
				return fmt.Sprintf("\n Game %d\n White : 0                    Black : 0\n  1) 31: 8/5 6/5\n     Wins 1 point\n", i)
			})
		}},
		{"apgn 9000 plies", "abalone", "apgn", func(n int) string {
			return fillTo(n, apgnHead, func(i int) string {
				if i > 4500 {
					return ""
				}
				return fmt.Sprintf("%d. %s %s\n", i, plies[(2*i)%len(plies)], plies[(2*i+1)%len(plies)])
			})
		}},
		{"apgn empty move numbers", "abalone", "apgn", func(n int) string {
			return fillTo(n, apgnHead, func(i int) string { return fmt.Sprintf("%d. ", i) })
		}},
		{"apgn archive", "abalone", "apgn", func(n int) string {
			s := string(archive[:min(n, len(archive))])
			return s[:strings.LastIndex(s, "\n\n[Event")+1]
		}},
		{"json 9000 moves", "backgammon", "json", func(n int) string {
			return fillTo(n, `{"format":"gamerules-record/1","game":"backgammon","moves":["roll 3-1"`, func(i int) string {
				if i >= 9000 {
					return ""
				}
				return `,"8/5 6/5 8/5 6/5 13/10 13/10 24/21 24/21 roll 3-1"`
			}) + `]}`
		}},
		{"json options of empty objects", "backgammon", "json", func(n int) string {
			return fillTo(n-8, `{"format":"gamerules-record/1","game":"backgammon","moves":[],"options":{"x":[{}`, func(int) string { return ",{}" }) + `]}}`
		}},
	}
}

// grpcImport is the gRPC request of h: its record as large as the
// receive limit allows.
func (h hostileImport) grpcRequest(limit int) *gamerulesv1.ImportRecordRequest {
	return &gamerulesv1.ImportRecordRequest{Game: h.game, Format: h.format, Text: h.text(limit - 64)}
}

// restBody is the REST body of h: its record as large as the body limit
// allows once escaped as a JSON string.
func (h hostileImport) restBody(t testing.TB, limit int) string {
	t.Helper()
	for size := limit - 64; size > 0; {
		b, err := json.Marshal(map[string]string{"format": h.format, "text": h.text(size)})
		if err != nil {
			t.Fatal(err)
		}
		if len(b) <= limit {
			return string(b)
		}
		size -= len(b) - limit + 16
	}
	t.Fatalf("%s: no body fits", h.name)
	return ""
}

// importMargin is how late past its deadline an answer may come on a
// loaded 2-core machine running the race detector.
const importMargin = 1500 * time.Millisecond

// TestImportRecordDeadline: every costliest ImportRecord of the largest
// legal size, over gRPC and REST, answers (OK or an error) by its
// deadline plus importMargin: with a client deadline of 200 ms (gRPC's
// own, REST's Grpc-Timeout header), and with none but the server's
// --request-timeout (here 400 ms). The gRPC client's answer with a
// deadline is its own DEADLINE_EXCEEDED; so the server's handlers are also
// checked to have returned by then (none running). The figures are logged.
func TestImportRecordDeadline(t *testing.T) {
	const clientDeadline, requestTimeout = 200 * time.Millisecond, 400 * time.Millisecond
	opts := DefaultOptions()
	s, err := New(func() Options {
		opts.GRPCAddr, opts.HTTPAddr, opts.LogLevel = "127.0.0.1:0", "127.0.0.1:0", "error"
		opts.RequestTimeout = requestTimeout
		return opts
	}())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	client := gamerulesv1grpc.NewGameRulesClient(dial(t, s.GRPCAddr()))
	for _, h := range hostileImports(t) {
		req := h.grpcRequest(opts.MaxRecvBytes)
		body := h.restBody(t, opts.MaxRecvBytes)
		for _, withDeadline := range []bool{true, false} {
			bound := requestTimeout
			if withDeadline {
				bound = clientDeadline
			}
			// gRPC.
			cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
			if withDeadline {
				ccancel()
				cctx, ccancel = context.WithTimeout(context.Background(), clientDeadline)
			}
			start := time.Now()
			_, err := client.ImportRecord(cctx, req)
			took := time.Since(start)
			ccancel()
			for s.api.adm.Running() != 0 && time.Since(start) < bound+importMargin {
				time.Sleep(time.Millisecond)
			}
			handler := time.Since(start) // when no handler ran any more
			if s.api.adm.Running() != 0 {
				handler = -1
			}
			t.Logf("%-30s gRPC %6d bytes, deadline %v: %v after %v (handlers done after %v)", h.name, len(req.GetText()), bound, status.Code(err), took.Round(time.Millisecond), handler.Round(time.Millisecond))
			if took > bound+importMargin || handler < 0 {
				t.Errorf("%s over gRPC, deadline %v: answered %v after %v, handlers done: %v; want by %v", h.name, bound, err, took, handler >= 0, bound+importMargin)
			}
			// REST.
			hreq, err := http.NewRequest("POST", "http://"+s.HTTPAddr()+"/v1/games/"+h.game+":importRecord", strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			hreq.Header.Set("Content-Type", "application/json")
			if withDeadline {
				hreq.Header.Set("Grpc-Timeout", fmt.Sprintf("%dm", clientDeadline.Milliseconds()))
			}
			start = time.Now()
			resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(hreq)
			if err != nil {
				t.Errorf("%s over REST: %v", h.name, err)
				continue
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			took = time.Since(start)
			t.Logf("%-30s REST %6d bytes, deadline %v: %d after %v", h.name, len(body), bound, resp.StatusCode, took.Round(time.Millisecond))
			if took > bound+importMargin || resp.StatusCode >= 500 && resp.StatusCode != 504 && resp.StatusCode != 503 {
				t.Errorf("%s over REST, deadline %v: %d %.200s after %v; want an answer by %v", h.name, bound, resp.StatusCode, raw, took, bound+importMargin)
			}
		}
	}
}
