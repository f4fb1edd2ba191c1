package hostiletest

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// Import is an ImportRecord request of the largest legal size shaped to
// cost the most to read and replay.
type Import struct {
	Name, Game, Format string
	Text               func(size int) string // a record of at most size bytes
}

// FillTo writes head, then line(1), line(2)… while the record stays within
// size bytes (or until line returns "").
func FillTo(size int, head string, line func(i int) string) string {
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

// Imports are the costliest records per format: .mat records of one-roll
// lines (what made reading quadratic), empty move lines and a session of
// many short games (as rules/backgammon/mat's limits test); APGN, a game
// of 9,000 plies read in full before its replay and one of numbered lines
// without moves, and the start of the MIGS archive (many games); JSON
// records of 9,000 moves and of an options object of empty objects. root
// is the repository's root as seen from the test's directory ("..", for a
// test in server/): the archive is root/testdata/abalone/migs-games.apgn.gz.
func Imports(tb testing.TB, root string) []Import {
	tb.Helper()
	f, err := os.Open(filepath.Join(root, "testdata", "abalone", "migs-games.apgn.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	archive, err := io.ReadAll(z)
	if err != nil {
		tb.Fatal(err)
	}
	matHead := " 5 point match\n\n Game 1\n White : 0                    Black : 0\n"
	apgnHead := "[Event \"x\"]\n[Black \"b\"]\n[White \"w\"]\n[Variant \"belgian\"]\n[Result \"*\"]\n\n"
	plies := strings.Fields("a1b2 a5b5 a2b3 b6c7 i9h8 i5h5 h8g7 g4g5 b3c4 c5c7d6 g7g8f7 h5g5 b1c2 d6e7 f8f7 h4g4")
	return []Import{
		{"mat one-roll lines", "backgammon", "mat", func(n int) string {
			return FillTo(n, matHead, func(i int) string { return fmt.Sprintf("%3d) 31:\n", i) })
		}},
		{"mat empty lines", "backgammon", "mat", func(n int) string {
			return FillTo(n, matHead, func(i int) string { return fmt.Sprintf("%3d)\n", i) })
		}},
		{"mat session", "backgammon", "mat", func(n int) string {
			return FillTo(n, " 0 point match\n", func(i int) string {
				return fmt.Sprintf("\n Game %d\n White : 0                    Black : 0\n  1) 31: 8/5 6/5\n     Wins 1 point\n", i)
			})
		}},
		{"apgn 9000 plies", "abalone", "apgn", func(n int) string {
			return FillTo(n, apgnHead, func(i int) string {
				if i > 4500 {
					return ""
				}
				return fmt.Sprintf("%d. %s %s\n", i, plies[(2*i)%len(plies)], plies[(2*i+1)%len(plies)])
			})
		}},
		{"apgn empty move numbers", "abalone", "apgn", func(n int) string {
			return FillTo(n, apgnHead, func(i int) string { return fmt.Sprintf("%d. ", i) })
		}},
		{"apgn archive", "abalone", "apgn", func(n int) string {
			s := string(archive[:min(n, len(archive))])
			return s[:strings.LastIndex(s, "\n\n[Event")+1]
		}},
		{"json 9000 moves", "backgammon", "json", func(n int) string {
			return FillTo(n, `{"format":"gamerules-record/1","game":"backgammon","moves":["roll 3-1"`, func(i int) string {
				if i >= 9000 {
					return ""
				}
				return `,"8/5 6/5 8/5 6/5 13/10 13/10 24/21 24/21 roll 3-1"`
			}) + `]}`
		}},
		{"json options of empty objects", "backgammon", "json", func(n int) string {
			return FillTo(n-8, `{"format":"gamerules-record/1","game":"backgammon","moves":[],"options":{"x":[{}`, func(int) string { return ",{}" }) + `]}}`
		}},
	}
}

// GRPCRequest is the gRPC request of h: its record as large as the
// receive limit (bytes) allows.
func (h Import) GRPCRequest(limit int) *gamerulesv1.ImportRecordRequest {
	return &gamerulesv1.ImportRecordRequest{Game: h.Game, Format: h.Format, Text: h.Text(limit - 64)}
}

// RESTBody is the REST body of h: its record as large as the body limit
// (bytes) allows once escaped as a JSON string.
func (h Import) RESTBody(tb testing.TB, limit int) string {
	tb.Helper()
	for size := limit - 64; size > 0; {
		b, err := json.Marshal(map[string]string{"format": h.Format, "text": h.Text(size)})
		if err != nil {
			tb.Fatal(err)
		}
		if len(b) <= limit {
			return string(b)
		}
		size -= len(b) - limit + 16
	}
	tb.Fatalf("%s: no body fits", h.Name)
	return ""
}
