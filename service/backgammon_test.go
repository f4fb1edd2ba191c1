package service

import (
	"context"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/backgammon"
)

const bgGame = "backgammon"

// bgRow is a row of testdata/backgammon/gnubg-*.jsonl.gz (gnubg 1.07's legal
// plays, testdata/README.md).
type bgRow struct {
	ID         int    `json:"id"`
	PositionID string `json:"position_id"`
	Dice       [2]int `json:"dice"`
	Count      int    `json:"count"`
	Details    []struct {
		Gnubg  string `json:"gnubg"`
		NextID string `json:"next_id"`
	} `json:"details"`
}

func bgRows(t *testing.T, name string) []bgRow {
	t.Helper()
	return oracle.JSONL[bgRow](t, "backgammon/"+name)
}

// bgPID is the Position ID part of a state text.
func bgPID(text string) string {
	pid, _, _ := strings.Cut(text, ":")
	return pid
}

// TestBackgammonOracle drives every oracle position through the service:
// LegalMoves with results (from the text form, and for every 5th row from
// the typed form alone: a bare Position ID and dice, white on roll) must give
// exactly gnubg's set of next Position IDs; for every 3rd row, ApplyMove
// with gnubg's own notation must lead to gnubg's next_id.
func TestBackgammonOracle(t *testing.T) {
	srv := New()
	ctx := context.Background()
	rows := 0
	for _, name := range []string{"gnubg-curated.jsonl.gz", "gnubg-random.jsonl.gz"} {
		for i, r := range bgRows(t, name) {
			rows++
			s, err := backgammon.FromPositionID(r.PositionID, backgammon.White, backgammon.PhaseMove, r.Dice[0], r.Dice[1])
			if err != nil {
				t.Fatalf("%s row %d: %v", name, r.ID, err)
			}
			states := []*gamerulesv1.GameState{{Text: s.String()}}
			if i%5 == 0 {
				states = append(states, &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{
					PositionId: r.PositionID, Dice: []uint32{uint32(r.Dice[0]), uint32(r.Dice[1])}, Turn: gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE,
					Phase: gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_MOVE}}})
			}
			var want []string
			for _, d := range r.Details {
				want = append(want, d.NextID)
			}
			sort.Strings(want)
			for _, st := range states {
				resp, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: st, IncludeResults: true})
				if err != nil {
					t.Fatalf("%s row %d: LegalMoves(%v) = %v", name, r.ID, st, err)
				}
				if resp.GetChance() {
					t.Errorf("%s row %d: chance = true in the move phase", name, r.ID)
				}
				var got []string
				for _, m := range resp.GetMoves() {
					res := m.GetResult()
					if bgPID(res.GetText()) != res.GetBackgammon().GetPositionId() {
						t.Fatalf("%s row %d: result text %q and typed position_id %q differ", name, r.ID, res.GetText(), res.GetBackgammon().GetPositionId())
					}
					if m.GetNotation() == "pass" {
						continue
					}
					got = append(got, res.GetBackgammon().GetPositionId())
				}
				sort.Strings(got)
				if len(got) != r.Count || strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("%s row %d %s %v: %d results; want %d\n got  %v\n want %v", name, r.ID, r.PositionID, r.Dice, len(got), r.Count, got, want)
				}
				if r.Count == 0 && (len(resp.GetMoves()) != 1 || resp.GetMoves()[0].GetNotation() != "pass") {
					t.Errorf("%s row %d: moves %v; want [pass]", name, r.ID, resp.GetMoves())
				}
			}
			if i%3 != 0 {
				continue
			}
			for _, d := range r.Details {
				resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: states[0], Move: &gamerulesv1.Move{Notation: d.Gnubg}})
				if err != nil {
					t.Fatalf("%s row %d: ApplyMove(%q) = %v", name, r.ID, d.Gnubg, err)
				}
				if got := bgPID(resp.GetState().GetText()); got != d.NextID {
					t.Errorf("%s row %d: ApplyMove(%q) -> %s; want %s", name, r.ID, d.Gnubg, got, d.NextID)
				}
			}
		}
	}
	if rows < 3000 {
		t.Fatalf("only %d oracle rows", rows)
	}
}

// TestBackgammonDoneWhen is the acceptance request: the start with
// white to play 3-1, with results.
func TestBackgammonDoneWhen(t *testing.T) {
	srv := New()
	resp, err := srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{
		Game: bgGame, State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}, IncludeResults: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.GetMoves()) != 16 || resp.GetChance() {
		t.Fatalf("LegalMoves = %d moves, chance %v; want 16 plays", len(resp.GetMoves()), resp.GetChance())
	}
	first := resp.GetMoves()[0]
	if first.GetNotation() != "24/23 24/21" || len(first.GetBackgammon().GetSteps()) != 2 || first.Probability != nil {
		t.Errorf("first move = %v", first)
	}
	for _, m := range resp.GetMoves() {
		res := m.GetResult().GetBackgammon()
		if res.GetTurn() != gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK || res.GetPhase() != gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_ROLL ||
			len(res.GetDice()) != 0 || res.GetBlackPips() != 167 || res.GetWhitePips() != 163 {
			t.Errorf("%s: result %v; want black to roll, pips 163/167", m.GetNotation(), res)
		}
	}
}

// TestBackgammonGame plays whole games through the API: the server draws the
// dice from seeds, moves go in as notation or typed, until Score says over.
func TestBackgammonGame(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for g := 0; g < 3; g++ {
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: bgGame})
		if err != nil {
			t.Fatal(err)
		}
		st := ng.GetState()
		if st.GetText() != "4HPwATDgc/ABMA:MAAAAAAAAAAE" || st.GetBackgammon().GetPhase() != gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OPENING {
			t.Fatalf("NewGame = %v", st)
		}
		for ply := 0; ; ply++ {
			if ply > 5000 {
				t.Fatalf("game %d not over after %d plies", g, ply)
			}
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: st})
			if err != nil {
				t.Fatal(err)
			}
			if len(lm.GetMoves()) == 0 {
				if ply < 40 {
					t.Fatalf("game %d over after only %d plies: %s", g, ply, st.GetText())
				}
				t.Logf("game %d: %d plies, ends %s", g, ply, st.GetText())
				break
			}
			var mv *gamerulesv1.Move
			if lm.GetChance() {
				sum := 0.0
				for _, m := range lm.GetMoves() {
					sum += m.GetProbability()
				}
				if sum < 0.999999 || sum > 1.000001 {
					t.Fatalf("%s: chance outcomes sum to %v", st.GetText(), sum)
				}
				mv = &gamerulesv1.Move{Notation: "roll"}
				if ply%2 == 1 {
					mv = &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{Kind: gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL}}}
				}
			} else {
				pick := lm.GetMoves()[(ply*7+g)%len(lm.GetMoves())]
				mv = &gamerulesv1.Move{Notation: pick.GetNotation()}
				if ply%3 == 0 {
					mv = &gamerulesv1.Move{Move: pick.GetMove()}
				}
			}
			seed := uint64(g*100000 + ply)
			resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: mv, Seed: &seed})
			if err != nil {
				t.Fatalf("%s: ApplyMove(%v) = %v", st.GetText(), mv, err)
			}
			if lm.GetChance() != (resp.Seed != nil) {
				t.Fatalf("%s: seed echoed = %v for chance = %v", st.GetText(), resp.Seed != nil, lm.GetChance())
			}
			st = resp.GetState()
			if ply%4 == 0 { // the state may travel typed only
				st = &gamerulesv1.GameState{State: st.GetState()}
			}
		}
		sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: bgGame, State: st})
		if err != nil {
			t.Fatal(err)
		}
		if !sc.GetFinished() || sc.Winner == nil || sc.GetPoints()[sc.GetWinner()] < 1 || sc.GetPoints()[sc.GetWinner()] > 3 {
			t.Errorf("game %d: Score = %v", g, sc)
		}
		_, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: &gamerulesv1.Move{Notation: "roll"}})
		if r := reasonOf(t, err); r != ReasonGameOver {
			t.Errorf("game %d: ApplyMove after the end: reason %s; want GAME_OVER", g, r)
		}
	}
}

// TestBackgammonSeededRoll: the same seed draws the same dice, and the
// response echoes it.
func TestBackgammonSeededRoll(t *testing.T) {
	srv := New()
	ctx := context.Background()
	seed := uint64(42)
	var first string
	for i := 0; i < 3; i++ {
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"},
			Move: &gamerulesv1.Move{Notation: "roll"}, Seed: &seed})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetSeed() != seed || resp.GetMove().GetProbability() == 0 || !strings.HasPrefix(resp.GetMove().GetNotation(), "roll ") {
			t.Errorf("ApplyMove(roll) = %v", resp)
		}
		if i == 0 {
			first = resp.GetState().GetText()
		} else if resp.GetState().GetText() != first {
			t.Errorf("seed %d drew %s, then %s", seed, first, resp.GetState().GetText())
		}
	}
}

// TestBackgammonTyped: the typed state round-trips, may give the board as
// counts or as an ID, and must agree with the text when both are given.
func TestBackgammonTyped(t *testing.T) {
	srv := New()
	ctx := context.Background()
	text := "4HPwATDgc/ABMA:MIEFAAAAAAAE"
	resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: &gamerulesv1.GameState{Text: text}, Move: &gamerulesv1.Move{Notation: "24/23 13/10"}})
	if err != nil {
		t.Fatal(err)
	}
	after := resp.GetState()
	if after.GetText() != "4HPiASjgc/ABMA:cAkAAAAAAAAE" || resp.GetMove().GetNotation() != "24/23 13/10" {
		t.Fatalf("ApplyMove(24/23 13/10) = %v", resp)
	}
	typedOnly := func(st *gamerulesv1.GameState) *gamerulesv1.GameState {
		return &gamerulesv1.GameState{State: proto.Clone(st).(*gamerulesv1.GameState).GetState()}
	}
	sc, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: typedOnly(after)})
	if err != nil || sc.GetState().GetText() != after.GetText() {
		t.Errorf("typed round trip: %v, %v; want %s", sc.GetState().GetText(), err, after.GetText())
	}
	countsOnly := typedOnly(after)
	countsOnly.GetBackgammon().PositionId = ""
	idOnly := typedOnly(after)
	idOnly.GetBackgammon().White, idOnly.GetBackgammon().Black = nil, nil
	for _, st := range []*gamerulesv1.GameState{countsOnly, idOnly} {
		o, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: st})
		if err != nil || o.GetState().GetText() != after.GetText() {
			t.Errorf("ObserveState(%v) = %v, %v; want %s", st, o.GetState().GetText(), err, after.GetText())
		}
	}

	bad := []struct {
		name string
		st   *gamerulesv1.GameState
	}{
		{"text and typed disagree", &gamerulesv1.GameState{Text: text, State: after.GetState()}},
		{"cube owner field 2", &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:IIEFAAAAAAAE"}}, // issue 12: a cube at 2 is a state now
		{"one die", &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{PositionId: "4HPwATDgc/ABMA", Dice: []uint32{3}}}}},
		{"no board", &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{Dice: []uint32{3, 1}}}}},
		{"short counts", &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{White: []uint32{15}, Black: []uint32{15}}}}},
		{"counts and ID differ", &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{
			White: after.GetBackgammon().GetWhite(), Black: after.GetBackgammon().GetBlack(), PositionId: "4HPwATDgc/ABMA", Turn: gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK}}}},
		{"bad Position ID", &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{PositionId: "nope"}}}},
	}
	for _, tt := range bad {
		_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: tt.st})
		if r := reasonOf(t, err); r != ReasonInvalidState {
			t.Errorf("%s: reason %s (%v); want INVALID_STATE", tt.name, r, err)
		}
	}
}

// TestBackgammonMoveErrors: illegal and malformed moves, typed or in
// notation, are ILLEGAL_MOVE with the reason.
func TestBackgammonMoveErrors(t *testing.T) {
	srv := New()
	ctx := context.Background()
	st := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}
	play := func(steps ...[2]uint32) *gamerulesv1.Move {
		m := &gamerulesv1.BackgammonMove{Kind: gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY}
		for _, s := range steps {
			m.Steps = append(m.Steps, &gamerulesv1.BackgammonStep{From: s[0], To: s[1]})
		}
		return &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: m}}
	}
	tests := []struct {
		name string
		mv   *gamerulesv1.Move
		want string
	}{
		{"one die of two", &gamerulesv1.Move{Notation: "8/5"}, "uses 1 die but 2 can be played"},
		{"dice do not fit", &gamerulesv1.Move{Notation: "24/20 6/5"}, `"24/20 6/5" needs dice 4 and 1; the roll is 3-1`},
		{"dice do not fit before blocked", &gamerulesv1.Move{Notation: "13/10 13/10"}, `"13/10 13/10" needs dice 3 and 3; the roll is 3-1`},
		{"garbage", &gamerulesv1.Move{Notation: "hello"}, "expected a point"},
		{"roll in the move phase", &gamerulesv1.Move{Notation: "roll"}, "already rolled"},
		{"typed one die of two", play([2]uint32{8, 5}), "uses 1 die"},
		{"typed out of range", play([2]uint32{30, 5}), "from must be 1..25"},
		{"typed no kind", &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{}}}, "kind is required (BACKGAMMON_MOVE_KIND_UNSPECIFIED"},
		// Steps without a kind are not read as a play: the kind must be given.
		{"typed steps, no kind", &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{Steps: []*gamerulesv1.BackgammonStep{{From: 8, To: 5}, {From: 6, To: 5}}}}}, "kind is required"},
		{"notation and typed differ", &gamerulesv1.Move{Notation: "8/5 6/5", Move: play([2]uint32{24, 23}, [2]uint32{24, 21}).GetMove()}, "different moves"},
		{"pass", &gamerulesv1.Move{Notation: "pass"}, "a play is possible"},
	}
	for _, tt := range tests {
		_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: tt.mv})
		if r := reasonOf(t, err); r != ReasonIllegalMove || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ApplyMove = %v (reason %s); want ILLEGAL_MOVE with %q", tt.name, err, r, tt.want)
		}
	}
	// Typed steps in another order, with the notation agreeing.
	resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st,
		Move: &gamerulesv1.Move{Notation: "8/5 6/5", Move: play([2]uint32{6, 5}, [2]uint32{8, 5}).GetMove()}})
	if err != nil || resp.GetMove().GetNotation() != "8/5 6/5" || resp.GetMove().GetBackgammon().GetSteps()[0].GetFrom() != 8 {
		t.Errorf("ApplyMove(8/5 6/5 typed 6/5 8/5) = %v, %v", resp, err)
	}
	// A roll named by the caller in the opening: white's die, black's die.
	open := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MAAAAAAAAAAE"}
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: open})
	if err != nil || len(lm.GetMoves()) != 30 || !lm.GetChance() || lm.GetMoves()[0].GetProbability() != 1.0/30 {
		t.Fatalf("opening LegalMoves = %d moves, chance %v, %v", len(lm.GetMoves()), lm.GetChance(), err)
	}
	typedRoll := &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: &gamerulesv1.BackgammonMove{Kind: gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL, Dice: []uint32{2, 5}}}}
	resp, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: open, Move: typedRoll})
	if err != nil || resp.GetState().GetBackgammon().GetTurn() != gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK || resp.Seed != nil {
		t.Errorf("ApplyMove(typed opening roll 2-5) = %v, %v; want black to move, no seed", resp, err)
	}
	_, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: open, Move: &gamerulesv1.Move{Notation: "roll 3-3"}})
	if r := reasonOf(t, err); r != ReasonIllegalMove {
		t.Errorf("opening roll 3-3: reason %s; want ILLEGAL_MOVE", r)
	}
}

// TestBackgammonTypedValuesNamed: out-of-range typed values are refused with
// the value the caller sent (not a clamped one), and the dice are kept higher
// first as gnubg shows them, so typed dice in either order agree with the text.
func TestBackgammonTypedValuesNamed(t *testing.T) {
	srv := New()
	ctx := context.Background()
	move := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}
	roll := &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:cAkAAAAAAAAE"}
	typed := func(m *gamerulesv1.BackgammonMove) *gamerulesv1.Move {
		if m.Kind == 0 {
			m.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY
			if len(m.Dice) > 0 {
				m.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL
			}
		}
		return &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: m}}
	}
	for _, tt := range []struct {
		name string
		st   *gamerulesv1.GameState
		mv   *gamerulesv1.Move
		want string
	}{
		{"huge from", move, typed(&gamerulesv1.BackgammonMove{Steps: []*gamerulesv1.BackgammonStep{{From: 4294967295, To: 21}}}), "4294967295/21"},
		{"huge to", move, typed(&gamerulesv1.BackgammonMove{Steps: []*gamerulesv1.BackgammonStep{{From: 24, To: 1000}}}), "24/1000"},
		{"huge die", roll, typed(&gamerulesv1.BackgammonMove{Dice: []uint32{4294967295, 1}}), "dice 4294967295-1"},
		{"unknown kind", move, typed(&gamerulesv1.BackgammonMove{Kind: 9}), "kind 9 is not a known value"},
	} {
		_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: tt.st, Move: tt.mv})
		if r := reasonOf(t, err); r != ReasonIllegalMove || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ApplyMove = %v (reason %s); want ILLEGAL_MOVE with %q", tt.name, err, r, tt.want)
		}
	}
	start := []uint32{0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0}
	_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: &gamerulesv1.GameState{
		State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{White: start, Black: start, WhiteScore: 99999, Turn: gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE, Phase: gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OPENING}}}})
	if r := reasonOf(t, err); r != ReasonInvalidState || !strings.Contains(err.Error(), "white_score 99999") {
		t.Errorf("white_score 99999: %v (reason %s); want INVALID_STATE naming 99999", err, r)
	}
	// Text 3-1 and typed dice 1, 3 are the same state.
	_, err = srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: &gamerulesv1.GameState{Text: move.GetText(),
		State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{White: start, Black: start, Dice: []uint32{1, 3}, Turn: gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE, Phase: gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_MOVE}}}})
	if err != nil {
		t.Errorf("text 3-1 with typed dice 1, 3: %v", err)
	}
	// Black wins the opening roll 1-2: gnubg shows the dice as 2-1.
	resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame,
		State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MAAAAAAAAAAE"}, Move: &gamerulesv1.Move{Notation: "roll 1-2"}})
	if err != nil || resp.GetState().GetText() != "4HPwATDgc/ABMA:cAkFAAAAAAAE" ||
		!slices.Equal(resp.GetState().GetBackgammon().GetDice(), []uint32{2, 1}) || resp.GetMove().GetNotation() != "roll 1-2" {
		t.Errorf("opening roll 1-2 = %v, %v; want black to play 2-1, 4HPwATDgc/ABMA:cAkFAAAAAAAE", resp, err)
	}
}

// TestBackgammonWinningScore: the winning play adds the points won to the
// winner's session score, in the Match ID and in the typed score fields, as
// gnubg 1.07 writes it (black gammoned at a session score of 3-5: gnubg shows
// AAAAwP8PAAEAAA:cAoAAFAAKAAE, white now 5).
func TestBackgammonWinningScore(t *testing.T) {
	srv := New()
	resp, err := srv.ApplyMove(context.Background(), &gamerulesv1.ApplyMoveRequest{Game: bgGame,
		State: &gamerulesv1.GameState{Text: "4P8HgAADAAAAAA:MIESADAAKAAE"}, Move: &gamerulesv1.Move{Notation: "1/off 1/off"}})
	if err != nil {
		t.Fatal(err)
	}
	st := resp.GetState()
	if st.GetText() != "AAAAwP8PAAEAAA:cAoAAFAAKAAE" || st.GetBackgammon().GetWhiteScore() != 5 || st.GetBackgammon().GetBlackScore() != 5 ||
		st.GetBackgammon().GetPhase() != gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OVER {
		t.Errorf("winning play = %s, score %d-%d, phase %s; want gnubg's AAAAwP8PAAEAAA:cAoAAFAAKAAE, 5-5, over",
			st.GetText(), st.GetBackgammon().GetWhiteScore(), st.GetBackgammon().GetBlackScore(), st.GetBackgammon().GetPhase())
	}
}

// TestBackgammonOpeningAtStart: an opening state off the start position
// cannot arise and is INVALID_STATE, as text or typed; game state 0 with
// dice is still the move phase.
func TestBackgammonOpeningAtStart(t *testing.T) {
	srv := New()
	ctx := context.Background()
	start := []uint32{0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0}
	moved := slices.Clone(start)
	moved[23], moved[22] = 1, 1 // 24/23
	for name, st := range map[string]*gamerulesv1.GameState{
		"text":  {Text: "4HPiASjgc/ABMA:MAAAAAAAAAAE"},
		"typed": {State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{White: moved, Black: start, Turn: gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE, Phase: gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_OPENING}}},
	} {
		_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: st})
		if r := reasonOf(t, err); r != ReasonInvalidState || !strings.Contains(err.Error(), "start position") {
			t.Errorf("%s opening off the start: %v (reason %s); want INVALID_STATE naming the start position", name, err, r)
		}
	}
	// Game state 0 with dice 4-2 (white on turn): the move phase.
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: &gamerulesv1.GameState{Text: "4HPiASjgc/ABMA:MAAKAAAAAAAE"}})
	if err != nil || lm.GetChance() || len(lm.GetMoves()) == 0 {
		t.Errorf("game state 0 with dice: %d moves, chance %v, %v; want plays", len(lm.GetMoves()), lm.GetChance(), err)
	}
}

// TestPlayoutRollPhaseCube: at a roll phase with the cube in use the player
// to move rolls in every playout, whatever the policy: Playout's
// firstMoves list `double` and the resignations after the 21 rolls with
// play_count 0, and no recorded game doubles or resigns (as
// bulk.proto and docs/rules/backgammon.md say).
func TestPlayoutRollPhaseCube(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s, err := backgammon.New(backgammon.Options{Cube: true})
	if err != nil {
		t.Fatal(err)
	}
	for s.Phase() != backgammon.PhaseRoll {
		m, err := backgammon.RollDice(s, r)
		if err != nil {
			m = s.LegalMoves()[0]
		}
		if s, err = s.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	st := &gamerulesv1.GameState{Text: s.String()}
	for _, pol := range []gamerulesv1.PlayoutPolicy{gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_RANDOM, gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY} {
		resp, err := New().Playout(context.Background(), &gamerulesv1.PlayoutRequest{Game: "backgammon", State: st, Games: 100, Seed: proto.Uint64(3), IncludeMoves: true, Policy: pol.Enum()})
		if err != nil {
			t.Fatal(err)
		}
		fm := resp.GetFirstMoves()
		if len(fm) != 25 || fm[21].GetNotation() != "double" {
			t.Fatalf("%v: %d first moves; want 21 rolls, double, 3 resignations", pol, len(fm))
		}
		for _, m := range fm[21:] {
			if m.GetPlayCount() != 0 {
				t.Errorf("%v: %s played %d times first; want 0", pol, m.GetNotation(), m.GetPlayCount())
			}
		}
		for i, g := range resp.GetPlayed().GetGames() {
			if mv := g.GetMoves()[0]; !strings.HasPrefix(mv, "roll ") {
				t.Errorf("%v game %d: first move %q; want a roll", pol, i, mv)
			}
			for _, mv := range g.GetMoves() {
				if mv == "double" {
					t.Errorf("%v game %d doubles", pol, i)
				}
			}
		}
	}
}
