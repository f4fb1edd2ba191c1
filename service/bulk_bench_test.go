package service

import (
	"context"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// BenchmarkExpandRoll is Expand depth 2 from a backgammon roll phase
// (every roll and every play of it), answer marshalled.
func BenchmarkExpandRoll(b *testing.B) {
	srv := New()
	req := &gamerulesv1.ExpandRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"}, Depth: 2}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := srv.Expand(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := resp.MarshalVT(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatchLegalMoves256 is a Batch of 256 backgammon LegalMoves of
// the opening position after 3-1 (16 plays), answer marshalled.
func BenchmarkBatchLegalMoves256(b *testing.B) {
	srv := New()
	req := &gamerulesv1.BatchRequest{}
	for range 256 {
		req.Requests = append(req.Requests, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{
			LegalMoves: &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}}}})
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := srv.Batch(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := resp.MarshalVT(); err != nil {
			b.Fatal(err)
		}
	}
}
