package service

import (
	"context"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/deploy"
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// TestPlayoutGameOffsetSplits: calls over adjacent ranges of the seeded
// sequence (game_offset) play exactly the games of one call over the whole
// range, on several splits, in every game, at a decision (first moves
// dealt round robin: the dealing follows the offset) and at a chance
// point: the recorded games, concatenated, are the one call's, and the
// counts, summed, equal its counts.
func TestPlayoutGameOffsetSplits(t *testing.T) {
	srv := New()
	ctx := context.Background()
	const total = 90
	splits := [][]int{{90}, {45, 45}, {1, 89}, {7, 13, 70}, {30, 30, 29, 1}, {11, 11, 11, 11, 11, 11, 11, 11, 2}}
	for g, states := range sampleStates(t, srv, 2, 5) {
		for _, st := range states {
			base := &gamerulesv1.PlayoutRequest{Game: g, State: st, Seed: proto.Uint64(11), MaxPlies: 2000}
			one := proto.Clone(base).(*gamerulesv1.PlayoutRequest)
			one.Games, one.IncludeMoves = total, true
			want, err := srv.Playout(ctx, one)
			if err != nil {
				t.Fatal(err)
			}
			for _, split := range splits {
				var parts []*gamerulesv1.PlayoutResponse
				var games []*gamerulesv1.PlayoutGame
				offset := int64(0)
				for _, n := range split {
					req := proto.Clone(base).(*gamerulesv1.PlayoutRequest)
					req.Games, req.GameOffset, req.IncludeMoves = int32(n), offset, true
					resp, err := srv.Playout(ctx, req)
					if err != nil {
						t.Fatal(err)
					}
					parts = append(parts, resp)
					games = append(games, resp.GetPlayed().GetGames()...)
					offset += int64(n)
				}
				if !slices.EqualFunc(games, want.GetPlayed().GetGames(), func(a, b *gamerulesv1.PlayoutGame) bool { return proto.Equal(a, b) }) {
					t.Errorf("%s %s split %v: the recorded games differ from one call's", g, st.GetText(), split)
				}
				got := deploy.MergePlayouts(parts)
				w := proto.Clone(want).(*gamerulesv1.PlayoutResponse)
				w.Played = nil
				if !proto.Equal(got, w) {
					t.Errorf("%s %s split %v: merged\n%v\nwant one call's\n%v", g, st.GetText(), split, got, w)
				}
			}
		}
	}
}

// TestPlayoutGameOffsetRange: game_offset is 0..2^53, and the largest is
// played.
func TestPlayoutGameOffsetRange(t *testing.T) {
	srv := New()
	ng, err := srv.NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: "gravity_trap", Seed: proto.Uint64(1)})
	if err != nil {
		t.Fatal(err)
	}
	st := ng.GetState()
	for _, c := range []struct {
		offset int64
		ok     bool
	}{{-1, false}, {0, true}, {MaxPlayoutGameOffset, true}, {MaxPlayoutGameOffset + 1, false}} {
		_, err := srv.Playout(context.Background(), &gamerulesv1.PlayoutRequest{Game: "gravity_trap", State: st, Games: 3, Seed: proto.Uint64(1), GameOffset: c.offset})
		if (err == nil) != c.ok {
			t.Errorf("game_offset %d: err %v; want ok %v", c.offset, err, c.ok)
		}
		if err != nil && !c.ok {
			if _, f := statusDetail(t, err); f != "game_offset" {
				t.Errorf("game_offset %d: the refusal names %q; want game_offset", c.offset, f)
			}
		}
	}
}
