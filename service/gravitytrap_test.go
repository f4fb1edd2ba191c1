package service

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/gravitytrap"
)

const gtGame = "gravity_trap"

type gtRow struct {
	State       string `json:"state"`
	Legal       []int  `json:"legal"`
	Winner      string `json:"winner"`
	WinnerScore int    `json:"winner_score"`
}

// TestGravityTrapOracle drives all 800 oracle positions through the
// service: LegalMoves from the text form (and, for every 7th position, from
// the typed form alone, with the results included), and Score.
func TestGravityTrapOracle(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for _, board := range []string{"default", "rings"} {
		rows := oracle.JSONL[gtRow](t, "gravitytrap/positions-"+board+".jsonl")
		for i, r := range rows {
			want := make([]string, len(r.Legal))
			for i, st := range r.Legal {
				want[i] = strconv.Itoa(st)
			}
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: textState(r.State)})
			if err != nil {
				t.Fatalf("LegalMoves(%q) = %v", r.State, err)
			}
			var got []string
			for _, m := range lm.GetMoves() {
				got = append(got, m.GetNotation())
				if tm := m.GetGravityTrap(); tm == nil || strconv.Itoa(int(tm.GetStation())) != m.GetNotation() || tm.GetPlace() {
					t.Errorf("%s: move %v: typed move disagrees with the notation", r.State, m)
				}
			}
			if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("LegalMoves(%q) = %v; want %v", r.State, got, want)
			}
			score, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: textState(r.State)})
			if err != nil {
				t.Fatalf("Score(%q) = %v", r.State, err)
			}
			if r.Winner != "" {
				w := map[string]int32{"r": 0, "b": 1}[r.Winner]
				points := []int32{0, 0}
				points[w] = int32(r.WinnerScore)
				if !score.GetFinished() || score.Winner == nil || score.GetWinner() != w || !slices.Equal(score.GetPoints(), points) {
					t.Errorf("Score(%q) = %v; want winner %s with %d", r.State, score, r.Winner, r.WinnerScore)
				}
				if _, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: textState(r.State), Move: &gamerulesv1.Move{Notation: "0"}}); reasonOf(t, err) != ReasonGameOver {
					t.Errorf("ApplyMove on finished %q = %v; want GAME_OVER", r.State, err)
				}
			} else if score.GetFinished() || score.Winner != nil {
				t.Errorf("Score(%q) = %v; want unfinished", r.State, score)
			}
			if (i+1)%7 != 0 { // every 7th position, as before
				continue
			}
			// The typed form alone gives the same answer, and each result's
			// text and typed forms agree.
			full, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: gtGame, State: textState(r.State)})
			if err != nil || full.GetState().GetText() != r.State || full.GetState().GetGravityTrap() == nil {
				t.Fatalf("ObserveState(%q) = %v, %v", r.State, full, err)
			}
			lm2, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: typedOnly(full.GetState()), IncludeResults: true})
			if err != nil {
				t.Fatalf("LegalMoves(typed %q) = %v", r.State, err)
			}
			if len(lm2.GetMoves()) != len(lm.GetMoves()) {
				t.Errorf("LegalMoves(typed %q): %d moves; want %d", r.State, len(lm2.GetMoves()), len(lm.GetMoves()))
			}
			for _, m := range lm2.GetMoves() {
				res := m.GetResult()
				if _, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: res}); err != nil {
					t.Errorf("%s, %s: result %v does not decode (text and typed must agree): %v", r.State, m.GetNotation(), res, err)
				}
				am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: textState(r.State), Move: &gamerulesv1.Move{Move: m.GetMove()}})
				if err != nil || !proto.Equal(am.GetState(), res) || am.GetMove().GetNotation() != m.GetNotation() {
					t.Errorf("%s: ApplyMove(typed %v) = %v, %v; want %v", r.State, m.GetGravityTrap(), am, err, res)
				}
			}
		}
		if len(rows) != 400 {
			t.Errorf("%s: %d positions; want 400", board, len(rows))
		}
	}
}

// TestGravityTrapGame plays a whole game through the API, from NewGame over
// the placements to the end, always taking the last legal move, and checks
// the winner's score in Score.
func TestGravityTrapGame(t *testing.T) {
	srv := New()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: gtGame})
	if err != nil || ng.GetState().GetText() != "...................... R" {
		t.Fatalf("NewGame = %v, %v", ng, err)
	}
	st := ng.GetState()
	var played []string
	for ply := 0; ; ply++ {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: st})
		if err != nil {
			t.Fatal(err)
		}
		if len(lm.GetMoves()) == 0 {
			break
		}
		if ply > 22 {
			t.Fatalf("not over after %d plies: %s", ply, st.GetText())
		}
		mv := lm.GetMoves()[len(lm.GetMoves())-1]
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: st, Move: &gamerulesv1.Move{Notation: mv.GetNotation()}})
		if err != nil {
			t.Fatalf("ApplyMove(%s, %s) = %v", st.GetText(), mv.GetNotation(), err)
		}
		played = append(played, am.GetMove().GetNotation())
		st = am.GetState()
	}
	// The same policy straight on the engine gives the same game.
	es, _ := gravitytrap.New(gravitytrap.Options{})
	for _, text := range played {
		m, err := gravitytrap.ParseMove(es, text)
		if err != nil {
			t.Fatal(err)
		}
		if es, err = es.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	if es.String() != st.GetText() || len(played) < 4 || played[0] != "place 21" || played[1] != "place 20" {
		t.Errorf("API game %v ends in %q; the engine's in %q", played, st.GetText(), es)
	}
	score, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: st})
	if err != nil || !score.GetFinished() || score.Winner == nil {
		t.Fatalf("Score(%s) = %v, %v; want finished", st.GetText(), score, err)
	}
	out := es.Outcome()
	points := []int32{int32(out.Points[0]), int32(out.Points[1])}
	if score.GetWinner() != int32(out.Winner) || !slices.Equal(score.GetPoints(), points) {
		t.Errorf("Score(%s) = %v; want winner %d, points %v", st.GetText(), score, out.Winner, points)
	}
	// Hand-checked on board-default.json: red on 10 ([9 10], [10 19 20]) has
	// no marble in reach after his move, so blue wins; blue on 19 reaches 11
	// and 15 ([11 15 19]): 2 points.
	if got := strings.Join(played, ","); got != "place 21,place 20,9,19,10" || st.GetText() != "ooooooooo.RooooooooB.. b" || !slices.Equal(score.GetPoints(), []int32{0, 2}) {
		t.Errorf("game %s ends in %q with %v; want place 21,place 20,9,19,10, blue winning with 2", got, st.GetText(), score)
	}
}

// gtHex is a custom 6-station board as a request sends it (the engine
// tests' hexDef): lines 0-1-2-3, 3-4-5-0 and 1-4; opposite(i) = (i+3) mod 6.
func gtHex() *gamerulesv1.GravityTrapBoard {
	b := &gamerulesv1.GravityTrapBoard{
		Lines: []*gamerulesv1.GravityTrapLine{
			{Stations: []uint32{0, 1, 2, 3}}, {Stations: []uint32{3, 4, 5, 0}}, {Stations: []uint32{1, 4}},
		},
		Opposite: []uint32{3, 4, 5, 0, 1, 2},
	}
	for i := range 6 {
		b.Stations = append(b.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: float64(i)})
	}
	return b
}

// TestGravityTrapCustomBoard: a game on a caller's board, the board
// travelling in the typed state.
func TestGravityTrapCustomBoard(t *testing.T) {
	srv := New()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: gtGame, Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: gtHex()}}})
	if err != nil {
		t.Fatal(err)
	}
	st := ng.GetState()
	if st.GetText() != "...... R" || !proto.Equal(st.GetGravityTrap().GetBoard(), gtHex()) {
		t.Fatalf("NewGame(custom) = %v", st)
	}
	// The text alone is not enough: it would be read on the default board.
	if _, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: textState(st.GetText())}); reasonOf(t, err) != ReasonInvalidState {
		t.Errorf("custom text alone: %v; want INVALID_STATE", err)
	}
	for _, mv := range []*gamerulesv1.Move{
		{Notation: "place 0"},
		{Move: &gamerulesv1.Move_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapMove{Station: 1}}}, // set-up: a placement
		{Notation: "4", Move: &gamerulesv1.Move_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapMove{Station: 4}}},
		{Notation: "2"},
	} {
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: st, Move: mv})
		if err != nil {
			t.Fatalf("ApplyMove(%s, %v) = %v", st.GetText(), mv, err)
		}
		st = am.GetState()
	}
	// Text plus typed (with the board) must agree; the typed form alone works.
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: typedOnly(st)})
	if err != nil || st.GetText() != "..BoRo r" {
		t.Fatalf("after place 0, place 1, 4, 2: %q, %v", st.GetText(), err)
	}
	var got []string
	for _, m := range lm.GetMoves() {
		got = append(got, m.GetNotation())
	}
	if !slices.Equal(got, []string{"3", "5"}) { // red on 4: [3 4 5 0] and [1 4]
		t.Errorf("LegalMoves = %v; want [3 5]", got)
	}
	am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: st, Move: &gamerulesv1.Move{Notation: "3"}})
	if err != nil {
		t.Fatal(err)
	}
	// Blue on 2 ([0 1 2 3]) cannot reach 5: red wins with 1 (5 on [3 4 5 0]).
	sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: am.GetState()})
	if err != nil || !sc.GetFinished() || sc.GetWinner() != 0 || !slices.Equal(sc.GetPoints(), []int32{1, 0}) {
		t.Errorf("Score(%s) = %v, %v; want red winning with 1", am.GetState().GetText(), sc, err)
	}
	wrong := proto.Clone(st).(*gamerulesv1.GameState)
	wrong.Text = "..BoRo b"
	if _, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: wrong}); reasonOf(t, err) != ReasonInvalidState {
		t.Errorf("disagreeing text and typed: %v; want INVALID_STATE", err)
	}
}

// TestGravityTrapErrors: each kind of bad request gets its reason.
func TestGravityTrapErrors(t *testing.T) {
	srv := New()
	ctx := context.Background()
	opts := func(o *gamerulesv1.GravityTrapOptions) *gamerulesv1.NewGameRequest {
		return &gamerulesv1.NewGameRequest{Game: gtGame, Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: o}}
	}
	typed := func(edit func(*gamerulesv1.GravityTrapState)) *gamerulesv1.GameState {
		red, blue := uint32(0), uint32(4)
		s := &gamerulesv1.GravityTrapState{RedShip: &red, BlueShip: &blue, Turn: gamerulesv1.GravityTrapPlayer_GRAVITY_TRAP_PLAYER_RED}
		for i := uint32(0); i < 22; i++ {
			if i != red && i != blue {
				s.Marbles = append(s.Marbles, i)
			}
		}
		edit(s)
		return &gamerulesv1.GameState{State: &gamerulesv1.GameState_GravityTrap{GravityTrap: s}}
	}
	badBoard := gtHex()
	badBoard.Lines = append(badBoard.Lines, &gamerulesv1.GravityTrapLine{Stations: []uint32{2}})
	notInvolution := gtHex()
	notInvolution.Opposite = []uint32{1, 2, 3, 4, 5, 0}
	tests := []struct {
		name   string
		call   func() error
		reason string
		msg    string
	}{
		{"line of one station", func() error {
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{CustomBoard: badBoard}))
			return err
		}, ReasonInvalidState, "line 3 has 1 station"},
		{"opposite not an involution", func() error {
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{CustomBoard: notInvolution}))
			return err
		}, ReasonInvalidState, "not an involution"},
		{"unknown board name", func() error {
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{Board: "moon"}))
			return err
		}, ReasonInvalidOptions, `board "moon" is not a built-in board`},
		{"huge board name", func() error {
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{Board: strings.Repeat("x", 1<<20)}))
			if err != nil && len(err.Error()) > 400 {
				t.Errorf("huge board name: the error is %d bytes; want the name cut to 80", len(err.Error()))
			}
			return err
		}, ReasonInvalidOptions, `"xxx`},
		{"unknown board name in a typed state", func() error {
			_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: typed(func(s *gamerulesv1.GravityTrapState) { s.Board = &gamerulesv1.GravityTrapBoard{Name: "moon"} })})
			return err
		}, ReasonInvalidState, `unknown board "moon"`},
		{"a line given twice", func() error {
			b := gtHex()
			b.Lines = append(b.Lines, &gamerulesv1.GravityTrapLine{Stations: []uint32{3, 2, 1, 0}})
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{CustomBoard: b}))
			return err
		}, ReasonInvalidState, "lines 0 and 3 join the same stations"},
		{"15000 lines", func() error {
			b := gtHex()
			for len(b.Lines) < 15000 {
				b.Lines = append(b.Lines, &gamerulesv1.GravityTrapLine{Stations: []uint32{0, 1}})
			}
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{CustomBoard: b}))
			return err
		}, ReasonInvalidState, "at most 256 lines, not 15000"},
		{"a line longer than the board", func() error {
			b := gtHex()
			b.Lines = append(b.Lines, &gamerulesv1.GravityTrapLine{Stations: make([]uint32, 1<<20)})
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{CustomBoard: b}))
			return err
		}, ReasonInvalidState, "line 3 has 1048576 stations; the board has 6"},
		{"name and data", func() error {
			b := gtHex()
			b.Name = "rings"
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{CustomBoard: b}))
			return err
		}, ReasonInvalidState, "not both"},
		{"board and custom_board", func() error {
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{Board: "rings", CustomBoard: gtHex()}))
			return err
		}, ReasonInvalidOptions, "not both"},
		{"bad first player", func() error {
			_, err := srv.NewGame(ctx, opts(&gamerulesv1.GravityTrapOptions{FirstPlayer: 7}))
			return err
		}, ReasonInvalidOptions, "first_player"},
		{"typed turn missing", func() error {
			_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: typed(func(s *gamerulesv1.GravityTrapState) { s.Turn = 0 })})
			return err
		}, ReasonInvalidState, "turn is required"},
		{"typed marble under a ship", func() error {
			_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: typed(func(s *gamerulesv1.GravityTrapState) { s.Marbles = append(s.Marbles, 0) })})
			return err
		}, ReasonInvalidState, "holds a marble"},
		{"typed ship off the board", func() error {
			_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: typed(func(s *gamerulesv1.GravityTrapState) { v := uint32(1 << 31); s.BlueShip = &v })})
			return err
		}, ReasonInvalidState, "unknown station"},
		{"text and typed disagree", func() error {
			st := typed(func(*gamerulesv1.GravityTrapState) {})
			st.Text = "RoooBooooooooooooooooo b"
			_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: st})
			return err
		}, ReasonInvalidState, "different states"},
		{"rings text on the default typed board", func() error {
			st := typed(func(*gamerulesv1.GravityTrapState) {})
			st.Text = "RoooBooooooooooooooooo r rings"
			_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: gtGame, State: st})
			return err
		}, ReasonInvalidState, "on board \"default\""},
		{"mirror placement", func() error {
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: textState("R..................... B"), Move: &gamerulesv1.Move{Notation: "place 11"}})
			return err
		}, ReasonIllegalMove, "mirror placement is banned"},
		{"empty station", func() error {
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: textState("Rooo.Boooooooooooooooo r"), Move: &gamerulesv1.Move{Notation: "4"}})
			return err
		}, ReasonIllegalMove, "station 4 is empty"},
		{"typed station far off", func() error {
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: textState("RoooBooooooooooooooooo r"), Move: &gamerulesv1.Move{Move: &gamerulesv1.Move_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapMove{Station: 1 << 31}}}})
			return err
		}, ReasonIllegalMove, "no station"},
		{"notation and typed move disagree", func() error {
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: textState("RoooBooooooooooooooooo r"), Move: &gamerulesv1.Move{Notation: "1", Move: &gamerulesv1.Move_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapMove{Station: 8}}}})
			return err
		}, ReasonIllegalMove, "different moves"},
		{"placement after set-up", func() error {
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: textState("RoooBooooooooooooooooo r"), Move: &gamerulesv1.Move{Notation: "place 1"}})
			return err
		}, ReasonIllegalMove, "set-up is over"},
	}
	for _, tc := range tests {
		err := tc.call()
		if err == nil {
			t.Errorf("%s: no error; want %s", tc.name, tc.reason)
			continue
		}
		if got := reasonOf(t, err); got != tc.reason || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v (reason %s); want %s with %q", tc.name, err, got, tc.reason, tc.msg)
		}
	}
}

// TestGravityTrapOptions: the options reach the engine and the text form.
func TestGravityTrapOptions(t *testing.T) {
	srv := New()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: gtGame, Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{
		Board:                "rings",
		FirstPlayer:          1,
		AllowMirrorPlacement: true,
	}}})
	if err != nil || ng.GetState().GetText() != "...................... B rings m" || ng.GetState().GetGravityTrap().GetBoard().GetName() != "rings" {
		t.Fatalf("NewGame(rings, blue, mirror) = %v, %v", ng, err)
	}
	st := ng.GetState()
	for _, n := range []string{"place 3", "place 14"} { // 14 is opposite 3: allowed here
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: st, Move: &gamerulesv1.Move{Notation: n}})
		if err != nil {
			t.Fatalf("ApplyMove(%s) = %v", n, err)
		}
		st = am.GetState()
	}
	g := st.GetGravityTrap()
	if st.GetText() != "oooBooooooooooRooooooo b rings m" || g.GetBlueShip() != 3 || g.GetRedShip() != 14 || len(g.GetMarbles()) != 20 || g.GetTurn() != gamerulesv1.GravityTrapPlayer_GRAVITY_TRAP_PLAYER_BLUE {
		t.Errorf("after the placements: %v", st)
	}
	info := gravityTrapEngine{}.Info()
	if info.GetId() != gtGame || info.GetMinPlayers() != 2 || info.GetHasChance() {
		t.Errorf("Info() = %v", info)
	}
}

// TestGravityTrapTextWithTypedBoard: the text plus a typed state holding
// only the board is a state on that board (spec "Text form": "text plus the
// typed board is fine"); a typed board alone, without the text, is not a
// state.
func TestGravityTrapTextWithTypedBoard(t *testing.T) {
	srv := New()
	ctx := context.Background()
	withBoard := func(text string, b *gamerulesv1.GravityTrapBoard) *gamerulesv1.GameState {
		return &gamerulesv1.GameState{Text: text, State: &gamerulesv1.GameState_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapState{Board: b}}}
	}
	for _, tc := range []struct {
		state *gamerulesv1.GameState
		want  []string
	}{
		{withBoard("..BoRo r", gtHex()), []string{"3", "5"}},
		{withBoard("RoooBooooooooooooooooo r", &gamerulesv1.GravityTrapBoard{Name: "default"}), []string{"1", "8", "14"}},
		{withBoard("RoooBooooooooooooooooo r", nil), []string{"1", "8", "14"}},
		{withBoard("R..... B", gtHex()), []string{"place 1", "place 2", "place 4", "place 5"}},
	} {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: tc.state})
		if err != nil {
			t.Errorf("LegalMoves(%q with the typed board) = %v", tc.state.GetText(), err)
			continue
		}
		var got []string
		for _, m := range lm.GetMoves() {
			got = append(got, m.GetNotation())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("LegalMoves(%q with the typed board) = %v; want %v", tc.state.GetText(), got, tc.want)
		}
	}
	am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: gtGame, State: withBoard("..BoRo r", gtHex()), Move: &gamerulesv1.Move{Notation: "3"}})
	if err != nil || am.GetState().GetText() != "..BR.o b" || !proto.Equal(am.GetState().GetGravityTrap().GetBoard(), gtHex()) {
		t.Errorf("ApplyMove(..BoRo r with the typed board, 3) = %v, %v", am, err)
	}
	for _, st := range []*gamerulesv1.GameState{
		// no position at all
		withBoard("", gtHex()),
		// a board name on a caller's board
		withBoard("RoooBooooooooooooooooo r rings", gtHex()),
		// text on default, board rings
		withBoard("RoooBooooooooooooooooo r", &gamerulesv1.GravityTrapBoard{Name: "rings"}),
		// hex: blue moved last, but no empty station is on his lines
		withBoard("RoBo.o r", gtHex()),
	} {
		if _, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: st}); reasonOf(t, err) != ReasonInvalidState {
			t.Errorf("LegalMoves(%q with board %v) = %v; want INVALID_STATE", st.GetText(), st.GetGravityTrap().GetBoard(), err)
		}
	}
}

// TestGravityTrapNaNCoordinate: a custom board with a station coordinate
// that is not finite is refused at decode, INVALID_ARGUMENT naming the
// coordinate's field: in a state (state.gravity_trap.board.stations[3].x),
// for LegalMoves and RenderState alike, and in NewGame's custom_board.
func TestGravityTrapNaNCoordinate(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		bad := gtHex()
		bad.GetStations()[3].X = v
		st := &gamerulesv1.GameState{State: &gamerulesv1.GameState_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapState{Board: bad}}, Text: "...... R"}
		const want = "state.gravity_trap.board.stations[3].x"
		_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: gtGame, State: st})
		if f := fieldOf(err); status.Code(err) != codes.InvalidArgument || f != want {
			t.Errorf("LegalMoves, x = %v: %v (field %q); want INVALID_ARGUMENT on %s", v, err, f, want)
		}
		_, err = srv.RenderState(ctx, &gamerulesv1.RenderStateRequest{Game: gtGame, State: st})
		if f := fieldOf(err); status.Code(err) != codes.InvalidArgument || f != want {
			t.Errorf("RenderState, x = %v: %v (field %q); want INVALID_ARGUMENT on %s", v, err, f, want)
		}
		_, err = srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: gtGame, Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: bad}}})
		if f := fieldOf(err); status.Code(err) != codes.InvalidArgument || f != "gravity_trap.custom_board.stations[3].x" {
			t.Errorf("NewGame, x = %v: %v (field %q); want INVALID_ARGUMENT on gravity_trap.custom_board.stations[3].x", v, err, f)
		}
	}
}

// fieldOf is the "field" of err's ErrorInfo ("" without one).
func fieldOf(err error) string {
	for _, d := range status.Convert(err).Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			return ei.GetMetadata()["field"]
		}
	}
	return ""
}
