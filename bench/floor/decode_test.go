package main

import (
	"os"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// The client's side of a 26-play backgammon LegalMoves answer (issue 35's
// item 3): testdata/backgammon26.binpb is gamerulesd's answer as it
// is by default (notation, typed move and action id of every play), for
// the state 7x8DCAD9gGEWCA:cAkXAAAAAAAE that bench/floor measures;
// backgammon26-notation-action.binpb the same answer under the read mask
// moves.notation,moves.action (the typed moves not built, not sent).
var decodeCases = []struct{ name, file string }{
	{"default", "testdata/backgammon26.binpb"},
	{"mask=notation,action", "testdata/backgammon26-notation-action.binpb"},
}

func readAnswer(t testing.TB, file string) []byte {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeAnswers checks the two answers: the same 26 plays with the same
// notations and action ids, typed moves in the default answer only.
func TestDecodeAnswers(t *testing.T) {
	var full, masked gamerulesv1.LegalMovesResponse
	if err := proto.Unmarshal(readAnswer(t, decodeCases[0].file), &full); err != nil {
		t.Fatal(err)
	}
	if err := masked.UnmarshalVT(readAnswer(t, decodeCases[1].file)); err != nil {
		t.Fatal(err)
	}
	if len(full.Moves) != 26 || len(masked.Moves) != 26 {
		t.Fatalf("moves: %d and %d, want 26", len(full.Moves), len(masked.Moves))
	}
	if got := full.Moves[0].GetNotation(); got != "22/11*" {
		t.Errorf("first play %q, want 22/11*", got)
	}
	if s := full.Moves[0].GetBackgammon().GetSteps(); len(s) != 2 || s[0].GetFrom() != 22 || s[1].GetTo() != 11 || !s[1].GetHit() {
		t.Errorf("first play's typed steps %v, want 22/17 17/11*", s)
	}
	for i, m := range masked.Moves {
		f := full.Moves[i]
		if m.GetNotation() != f.GetNotation() || m.GetAction() != f.GetAction() || m.GetBackgammon() != nil {
			t.Errorf("play %d: masked %v, default %v", i, m, f)
		}
	}
}

// BenchmarkClientDecode is what a Go client pays to decode the answer:
// proto.Unmarshal (what grpc-go's default codec calls) and the generated
// UnmarshalVT, for the default answer and under the read mask.
func BenchmarkClientDecode(b *testing.B) {
	for _, c := range decodeCases {
		raw := readAnswer(b, c.file)
		b.Run(c.name+"/proto.Unmarshal", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				var r gamerulesv1.LegalMovesResponse
				if err := proto.Unmarshal(raw, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/UnmarshalVT", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				var r gamerulesv1.LegalMovesResponse
				if err := r.UnmarshalVT(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
