package service

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/internal/oracle"
)

// bgCubeRow is a row of testdata/backgammon/cube/gnubg-cube.jsonl.gz (see
// rules/backgammon's TestCubeOracle and generate.py next to the data).
type bgCubeRow struct {
	Settings struct {
		Match   int  `json:"match"`
		Cube    bool `json:"cube"`
		Beavers bool `json:"beavers"`
	} `json:"settings"`
	Before  string  `json:"before"`
	Move    string  `json:"move"`
	After   *string `json:"after"`
	Opening string  `json:"opening"`
	End     *struct {
		Winner int   `json:"winner"`
		Points int   `json:"points"`
		Score  []int `json:"score"`
	} `json:"end"`
	MatchOver     bool `json:"match_over"`
	BeaversBefore int  `json:"beavers_before"`
	BeaversAfter  int  `json:"beavers_after"`
}

// text is id with the settings words of the row, and the count of beavers
// in a row where the Match ID cannot show it (a third beaver).
func (r *bgCubeRow) text(id string, beavers int) string {
	if r.Settings.Match == 0 && r.Settings.Cube {
		id += " cube"
	}
	if r.Settings.Match == 0 && r.Settings.Beavers {
		id += " beavers"
	}
	if beavers == 3 {
		id += " beaver_count=3"
	}
	return id
}

// TestBackgammonCubeOracle replays gnubg's cube and match corpus through the
// API: every move gnubg made gives gnubg's state (in text, and again from
// the typed state alone), every move it refused is ILLEGAL_MOVE, and Score
// gives gnubg's points and score and the match's end at every game end.
func TestBackgammonCubeOracle(t *testing.T) {
	srv := New()
	ctx := context.Background()
	rows := oracle.JSONL[bgCubeRow](t, "backgammon/cube/gnubg-cube.jsonl.gz")
	typedChecked := map[string]bool{}
	for i := range rows {
		r := &rows[i]
		before := textState(r.text(r.Before, r.BeaversBefore))
		if r.After == nil {
			if strings.HasPrefix(r.Move, "resign") {
				continue // gnubg's memory of a declined offer, outside the state (see the rules test)
			}
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: before, Move: &gamerulesv1.Move{Notation: r.Move}})
			if got := reasonOf(t, err); got != ReasonIllegalMove && got != ReasonGameOver {
				t.Fatalf("row %d: %s in %s: reason %s (%v); gnubg refuses it", i, r.Move, r.Before, got, err)
			}
			continue
		}
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: before, Move: &gamerulesv1.Move{Notation: r.Move}})
		if err != nil {
			t.Fatalf("row %d: ApplyMove(%s, %s) = %v", i, r.Before, r.Move, err)
		}
		st := resp.GetState()
		if r.Move == "next game" {
			if resp, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: &gamerulesv1.Move{Notation: r.Opening}}); err != nil {
				t.Fatalf("row %d: opening %s: %v", i, r.Opening, err)
			}
			st = resp.GetState()
		}
		if want := r.text(*r.After, r.BeaversAfter); st.GetText() != want {
			t.Fatalf("row %d: %s after %s = %s; gnubg %s", i, r.Before, r.Move, st.GetText(), want)
		}
		// The typed state alone says the same (once per distinct shape).
		shape := st.GetBackgammon().GetPhase().String() + st.GetBackgammon().GetEnd().String() + st.GetBackgammon().GetMatchId()[:4]
		// A game without the cube has no cube sub-message, so no place for
		// Match ID bit 66 (which changes nothing there): from the typed
		// state alone it is set; the text keeps it as read.
		bit66 := !r.Settings.Cube && strings.HasSuffix(*r.After, "A")
		if (!typedChecked[shape] || i%7 == 0) && !bit66 {
			typedChecked[shape] = true
			typed := typedOnly(st)
			typed.GetBackgammon().White, typed.GetBackgammon().Black = nil, nil // the board as position_id only
			o, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: typed})
			if err != nil || o.GetState().GetText() != st.GetText() {
				t.Fatalf("row %d: typed %v reads as %s, %v; want %s", i, typed.GetBackgammon(), o.GetState().GetText(), err, st.GetText())
			}
			if !proto.Equal(o.GetState(), st) {
				t.Fatalf("row %d: typed state does not round-trip:\n%v\n%v", i, o.GetState(), st)
			}
		}
		if r.End == nil {
			continue
		}
		sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: bgGame, State: st})
		if err != nil {
			t.Fatal(err)
		}
		bg := sc.GetBackgammon()
		if !sc.GetFinished() || sc.GetWinner() != int32(r.End.Winner) || sc.GetPoints()[r.End.Winner] != int32(r.End.Points) ||
			bg.GetWhiteScore() != uint32(r.End.Score[0]) || bg.GetBlackScore() != uint32(r.End.Score[1]) ||
			bg.GetMatch().GetOver() != r.MatchOver || bg.GetMatch().GetLength() != uint32(r.Settings.Match) || (bg.GetMatch() != nil) != (r.Settings.Match > 0) {
			t.Fatalf("row %d: Score(%s) = %v; gnubg: player %d wins %d, score %v, match over %v", i, st.GetText(), sc, r.End.Winner, r.End.Points, r.End.Score, r.MatchOver)
		}
		if r.MatchOver && (bg.GetMatch().Winner == nil || bg.GetMatch().GetWinner() != int32(r.End.Winner)) {
			t.Fatalf("row %d: match winner %d; want %d", i, bg.GetMatch().GetWinner(), r.End.Winner)
		}
	}
}

// TestBackgammonCubeOptions: NewGame's options give the cube, the match and
// the settings in text and typed form; impossible ones are INVALID_OPTIONS;
// no options is the leaflet's game, unchanged.
func TestBackgammonCubeOptions(t *testing.T) {
	srv := New()
	ctx := context.Background()
	newGame := func(o *gamerulesv1.BackgammonOptions) (*gamerulesv1.NewGameResponse, error) {
		req := &gamerulesv1.NewGameRequest{Game: bgGame}
		if o != nil {
			req.Options = &gamerulesv1.NewGameRequest_Backgammon{Backgammon: o}
		}
		return srv.NewGame(ctx, req)
	}
	f := false
	for _, tt := range []struct {
		name string
		o    *gamerulesv1.BackgammonOptions
		text string
	}{
		{"default", nil, "4HPwATDgc/ABMA:MAAAAAAAAAAE"},
		{"empty", &gamerulesv1.BackgammonOptions{}, "4HPwATDgc/ABMA:MAAAAAAAAAAE"},
		{"cube", &gamerulesv1.BackgammonOptions{Cube: true}, "4HPwATDgc/ABMA:MAAAAAAAAAAA cube"},
		{"cube, no Jacoby", &gamerulesv1.BackgammonOptions{Cube: true, Jacoby: &f}, "4HPwATDgc/ABMA:MAAAAAAAAAAE cube"},
		{"cube, beavers", &gamerulesv1.BackgammonOptions{Cube: true, Beavers: true}, "4HPwATDgc/ABMA:MAAAAAAAAAAA cube beavers"},
		{"5-point match", &gamerulesv1.BackgammonOptions{MatchLength: 5}, "4HPwATDgc/ABMA:MACgAAAAAAAE"},
		{"Crawford game at 4-2", &gamerulesv1.BackgammonOptions{MatchLength: 5, WhiteScore: 4, BlackScore: 2, Crawford: true}, "4HPwATDgc/ABMA:sACgAEAAEAAE"},
	} {
		resp, err := newGame(tt.o)
		if err != nil || resp.GetState().GetText() != tt.text {
			t.Errorf("%s: NewGame = %s, %v; want %s", tt.name, resp.GetState().GetText(), err, tt.text)
		}
	}
	resp, _ := newGame(&gamerulesv1.BackgammonOptions{MatchLength: 5, WhiteScore: 4, BlackScore: 2, Crawford: true})
	if bg := resp.GetState().GetBackgammon(); bg.GetCube() == nil || bg.GetMatch().GetLength() != 5 || !bg.GetMatch().GetCrawford() || bg.GetMatch().GetPostCrawford() || bg.GetCube().GetValue() != 1 || bg.GetWhiteScore() != 4 ||
		bg.GetCube().GetOwner() != gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_CENTERED || bg.GetMatch().GetOver() || bg.GetMatch().Winner != nil || bg.End != nil || bg.Resignation != nil {
		t.Errorf("typed state of a Crawford game: %v", bg)
	}
	for _, tt := range []struct {
		name string
		o    *gamerulesv1.BackgammonOptions
	}{
		{"beavers in a match", &gamerulesv1.BackgammonOptions{MatchLength: 5, Beavers: true}},
		{"beavers without the cube", &gamerulesv1.BackgammonOptions{Beavers: true}},
		{"score at the length", &gamerulesv1.BackgammonOptions{MatchLength: 5, WhiteScore: 5}},
		{"Crawford without a player at 4", &gamerulesv1.BackgammonOptions{MatchLength: 5, WhiteScore: 3, Crawford: true}},
		{"Crawford at double match point", &gamerulesv1.BackgammonOptions{MatchLength: 5, WhiteScore: 4, BlackScore: 4, Crawford: true}},
		{"Crawford in a money game", &gamerulesv1.BackgammonOptions{Cube: true, Crawford: true}},
		{"huge match", &gamerulesv1.BackgammonOptions{MatchLength: 1 << 20}},
	} {
		_, err := newGame(tt.o)
		if r := reasonOf(t, err); r != ReasonInvalidOptions {
			t.Errorf("%s: reason %s (%v); want INVALID_OPTIONS", tt.name, r, err)
		}
	}
}

// TestBackgammonCubeMoves: decisions as typed moves and in notation, the
// legal list with the cube, and the game-over rules between the games.
func TestBackgammonCubeMoves(t *testing.T) {
	srv := New()
	ctx := context.Background()
	typed := func(k gamerulesv1.BackgammonMoveKind, r gamerulesv1.BackgammonResignation) *gamerulesv1.Move {
		m := &gamerulesv1.BackgammonMove{Kind: k}
		if r != 0 {
			m.Resignation = r.Enum()
		}
		return &gamerulesv1.Move{Move: &gamerulesv1.Move_Backgammon{Backgammon: m}}
	}
	apply := func(st *gamerulesv1.GameState, mv *gamerulesv1.Move) (*gamerulesv1.GameState, error) {
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: mv})
		return resp.GetState(), err
	}
	// White to roll in a money game with the cube: the 21 rolls, double, three resignations.
	roll := textState("sGfwATDgc/ABMA:MAEAAAAAAAAA cube")
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: roll})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range lm.GetMoves()[21:] {
		names = append(names, m.GetNotation())
	}
	if len(lm.GetMoves()) != 25 || strings.Join(names, ",") != "double,resign single,resign gammon,resign backgammon" {
		t.Fatalf("LegalMoves = %d moves, decisions %v", len(lm.GetMoves()), names)
	}
	if k := lm.GetMoves()[21].GetBackgammon().GetKind(); k != gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_DOUBLE || lm.GetMoves()[21].Probability != nil {
		t.Errorf("double: kind %v, probability %v", k, lm.GetMoves()[21].Probability)
	}
	doubled, err := apply(roll, typed(gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_DOUBLE, 0))
	if err != nil || doubled.GetBackgammon().GetPhase() != gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_DOUBLE ||
		doubled.GetBackgammon().GetTurn() != gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK || !doubled.GetBackgammon().GetCube().GetDoubleOffered() {
		t.Fatalf("double = %v, %v", doubled, err)
	}
	taken, err := apply(doubled, &gamerulesv1.Move{Notation: "take", Move: typed(gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_TAKE, 0).Move})
	if err != nil || taken.GetBackgammon().GetCube().GetValue() != 2 || taken.GetBackgammon().GetCube().GetOwner() != gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_BLACK {
		t.Fatalf("take = %v, %v", taken, err)
	}
	// The owner's opponent may not redouble; a roll is refused while a double is pending.
	if _, err := apply(taken, &gamerulesv1.Move{Notation: "double"}); reasonOf(t, err) != ReasonIllegalMove || !strings.Contains(err.Error(), "black owns the cube") {
		t.Errorf("double by the non-owner: %v", err)
	}
	if _, err := apply(doubled, &gamerulesv1.Move{Notation: "roll"}); reasonOf(t, err) != ReasonIllegalMove {
		t.Errorf("roll while a double is offered: %v", err)
	}
	// A typed resignation needs its level; a level on another kind is refused.
	if _, err := apply(roll, typed(gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_RESIGN, 0)); reasonOf(t, err) != ReasonIllegalMove {
		t.Errorf("resign without a level: %v", err)
	}
	if _, err := apply(roll, typed(gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_DOUBLE, gamerulesv1.BackgammonResignation_BACKGAMMON_RESIGNATION_GAMMON)); reasonOf(t, err) != ReasonIllegalMove {
		t.Errorf("double with a level: %v", err)
	}
	offered, err := apply(roll, typed(gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_RESIGN, gamerulesv1.BackgammonResignation_BACKGAMMON_RESIGNATION_GAMMON))
	if err != nil || offered.GetBackgammon().GetPhase() != gamerulesv1.BackgammonPhase_BACKGAMMON_PHASE_RESIGN {
		t.Fatalf("resign gammon = %v, %v", offered, err)
	}
	over, err := apply(offered, &gamerulesv1.Move{Notation: "accept"})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: bgGame, State: over})
	if sc.GetWinner() != 1 || sc.GetPoints()[1] != 2 || sc.GetDetail() != "resigned gammon" || sc.GetBackgammon().GetEnd() != gamerulesv1.BackgammonEnd_BACKGAMMON_END_RESIGNED {
		t.Errorf("Score after accept = %v", sc)
	}
	// A money game is over for good (spec "Phases": a finished game has no
	// legal moves, every move is GAME_OVER, except inside a match); "next
	// game" is refused, and LegalMoves lists nothing.
	if _, err := apply(over, &gamerulesv1.Move{Notation: "next game"}); reasonOf(t, err) != ReasonGameOver {
		t.Errorf("next game in a money game: %v", err)
	}
	if lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: over}); err != nil || len(lm.GetMoves()) != 0 {
		t.Errorf("LegalMoves of a finished money game with the cube: %v, %v", lm.GetMoves(), err)
	}
	// The default game has no decisions and refuses them.
	if _, err := apply(textState("sGfwATDgc/ABMA:MAEAAAAAAAAE"), &gamerulesv1.Move{Notation: "double"}); reasonOf(t, err) != ReasonIllegalMove {
		t.Errorf("double without the cube: %v", err)
	}
	lm, _ = srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: textState("sGfwATDgc/ABMA:MAEAAAAAAAAE")})
	if len(lm.GetMoves()) != 21 {
		t.Errorf("default game: %d legal moves in the roll phase; want the 21 rolls", len(lm.GetMoves()))
	}
}

// TestBackgammonBeaversAndBit66: through the API, a third beaver in a row
// answers with " beaver_count=3", that state sent back as it came (text and
// typed) refuses a fourth beaver (gnubg's limit) and takes; a match read
// with Match ID bit 66 clear keeps it, in text and from the typed state
// alone.
func TestBackgammonBeaversAndBit66(t *testing.T) {
	srv := New()
	ctx := context.Background()
	st := textState("sGfwATDgc/ABMA:MBkAAAAAAAAA cube beavers") // black doubled, white to answer
	for n := 1; n <= 3; n++ {
		resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: &gamerulesv1.Move{Notation: "beaver"}})
		if err != nil {
			t.Fatalf("beaver %d: %v", n, err)
		}
		st = resp.GetState()
	}
	if want := "sGfwATDgc/ABMA:ExEAAAAAAAAA cube beavers beaver_count=3"; st.GetText() != want {
		t.Fatalf("after 3 beavers: %s; want %s", st.GetText(), want)
	}
	_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: &gamerulesv1.Move{Notation: "beaver"}})
	if got := reasonOf(t, err); got != ReasonIllegalMove || !strings.Contains(err.Error(), "3 beavers in a row") {
		t.Fatalf("a 4th beaver: %s (%v); want ILLEGAL_MOVE naming the limit", got, err)
	}
	lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: bgGame, State: st})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range lm.GetMoves() {
		if m.GetNotation() == "beaver" {
			t.Fatalf("a 4th beaver is listed: %v", lm.GetMoves())
		}
	}
	resp, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: bgGame, State: st, Move: &gamerulesv1.Move{Notation: "take"}})
	if err != nil || resp.GetState().GetText() != "sGfwATDgc/ABMA:FAEAAAAAAAAA cube beavers" {
		t.Fatalf("take: %v, %v; want gnubg's sGfwATDgc/ABMA:FAEAAAAAAAAA", resp.GetState().GetText(), err)
	}

	// gnubg's 5-point match opening with bit 66 cleared: kept.
	const match = "4HPwATDgc/ABMA:cAmqAAAAAAAA"
	o, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: textState(match)})
	if err != nil || o.GetState().GetText() != match || !o.GetState().GetBackgammon().GetCube().GetJacoby() {
		t.Fatalf("ObserveState(%s) = %v, %v; want the text as read, jacoby (the bit) true", match, o.GetState(), err)
	}
	typed := typedOnly(o.GetState())
	if back, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: typed}); err != nil || back.GetState().GetText() != match {
		t.Fatalf("typed alone: %v, %v; want %s", back.GetState().GetText(), err, match)
	}
}

// TestBackgammonTextOnly: a state given as text and typed fields where the
// typed fields leave unsaid what only the text says (a third beaver in a
// row; bit 66 in a game without the cube) is the text's state; where they
// say something else, the two are different states (INVALID_STATE).
func TestBackgammonTextOnly(t *testing.T) {
	srv := New()
	ctx := context.Background()
	for _, c := range []struct{ text, typedFrom string }{
		{"sGfwATDgc/ABMA:ExEAAAAAAAAA cube beavers beaver_count=3", "sGfwATDgc/ABMA:ExEAAAAAAAAA cube beavers"},
		{"4HPwATDgc/ABMA:MIEFAAAAAAAA", "4HPwATDgc/ABMA:MIEFAAAAAAAE"},
	} {
		o, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: textState(c.typedFrom)})
		if err != nil {
			t.Fatal(err)
		}
		both := typedOnly(o.GetState())
		both.Text = c.text
		got, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: both})
		if err != nil || got.GetState().GetText() != c.text {
			t.Errorf("text %s with the typed fields of %s: %v, %v; want the text's state", c.text, c.typedFrom, got.GetState().GetText(), err)
		}
	}
	// The bit in a match or a money game with the cube (the Jacoby rule)
	// is said by the typed fields: a different state.
	for _, c := range []struct{ text, typedFrom string }{
		{"4HPwATDgc/ABMA:cAmqAAAAAAAA", "4HPwATDgc/ABMA:cAmqAAAAAAAE"},
		{"4HPwATDgc/ABMA:MIEFAAAAAAAA cube", "4HPwATDgc/ABMA:MIEFAAAAAAAE cube"},
	} {
		o, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: textState(c.typedFrom)})
		if err != nil {
			t.Fatal(err)
		}
		both := typedOnly(o.GetState())
		both.Text = c.text
		_, err = srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: bgGame, State: both})
		if got := reasonOf(t, err); got != ReasonInvalidState {
			t.Errorf("text %s with the typed fields of %s: %s (%v); want INVALID_STATE", c.text, c.typedFrom, got, err)
		}
	}
}
