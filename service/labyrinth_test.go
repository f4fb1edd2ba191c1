package service

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

const labGame = "labyrinth"

type labOracleRow struct {
	ID        int      `json:"id"`
	Board     string   `json:"board"`
	Spare     string   `json:"spare"`
	Figures   [][2]int `json:"figures"`
	Forbidden *string  `json:"forbidden"`
	Options   []struct {
		Shift         string     `json:"shift"`
		Rotation      int        `json:"rotation"`
		SpareInserted string     `json:"spare_inserted"`
		Legal         bool       `json:"legal"`
		BoardAfter    string     `json:"board_after"`
		SpareAfter    string     `json:"spare_after"`
		FiguresAfter  [][2]int   `json:"figures_after"`
		Reach         [][][2]int `json:"reach"`
	} `json:"options"`
}

func labLoadOracle(t *testing.T) []labOracleRow {
	t.Helper()
	rows := oracle.JSONL[labOracleRow](t, "labyrinth/shifts.jsonl.gz")
	if len(rows) != 80 {
		t.Fatalf("%d oracle rows; want 80", len(rows))
	}
	return rows
}

// labOracleText makes the text form of a whole state from an oracle row as
// testdata/README says: targets A–L on the fixed T-junctions, M–R on the
// loose T-junctions and S–X on the first six loose corners (reading order,
// spare last), the Vader symbol on the first loose straight, cards dealt one
// at a time, colours R Y G B, the first player to shift.
func labOracleText(r labOracleRow) string {
	nextT, nextL, vader := byte('M'), byte('S'), false
	token := func(q labyrinth.Square, digit byte) string {
		if fixed, ok := labyrinth.FixedTile(q); ok {
			return fixed.String()
		}
		tok := string(digit)
		switch digit {
		case '7', 'b', 'd', 'e':
			tok += string(nextT)
			nextT++
		case '3', '6', '9', 'c':
			if nextL <= 'X' {
				tok += string(nextL)
				nextL++
			}
		case '5', 'a':
			if !vader {
				tok += "*"
				vader = true
			}
		}
		return tok
	}
	var b strings.Builder
	rows := strings.Split(r.Board, "/")
	for i, row := range rows {
		if i > 0 {
			b.WriteByte('/')
		}
		for j := 0; j < 7; j++ {
			b.WriteString(token(labyrinth.Sq(i+1, j+1), row[j]))
		}
	}
	b.WriteString(" " + token(labyrinth.NoSquare, r.Spare[0]) + " ")
	n := len(r.Figures)
	for p, f := range r.Figures {
		if p > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%c%d%d", "RYGB"[p], f[0], f[1])
	}
	last := "-"
	if r.Forbidden != nil {
		// The forbidden point reverses the previous push, made at its opposite.
		last = map[byte]string{'N': "S", 'S': "N", 'E': "W", 'W': "E"}[(*r.Forbidden)[0]] + (*r.Forbidden)[1:]
	}
	b.WriteString(" " + last + " Rs ")
	stacks := make([]string, n)
	for c := 0; c < 24; c++ {
		stacks[c%n] += string(rune('A' + c))
	}
	for p := range stacks {
		stacks[p] = ":" + stacks[p]
	}
	b.WriteString(strings.Join(stacks, ",") + " -")
	return b.String()
}

func labMasks(st *gamerulesv1.LabyrinthState) (board string, spare byte) {
	var b strings.Builder
	for q, t := range st.GetBoard() {
		if q > 0 && q%7 == 0 {
			b.WriteByte('/')
		}
		b.WriteByte("0123456789abcdef"[t.GetSides()])
	}
	return b.String(), "0123456789abcdef"[st.GetSpare().GetSides()]
}

func labSquares(ps [][2]int) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("r%dc%d", p[0], p[1])
	}
	return out
}

// withTurn returns the text form of a move-phase state with player p to move.
func withTurn(text string, p int) string {
	f := strings.Split(text, " ")
	f[4] = string("RYGB"[p]) + "m"
	return strings.Join(f, " ")
}

// TestLabyrinthOracle drives every oracle row through the service, states
// as text: the distinct legal shifts (LegalMoves with results), the board,
// spare and figures after each, every figure's reachable squares after each
// legal shift (LegalMoves of the move phase with that figure's player to
// move), and ILLEGAL_MOVE for the reversal.
func TestLabyrinthOracle(t *testing.T) {
	srv := New()
	ctx := context.Background()
	options := 0
	for _, r := range labLoadOracle(t) {
		text := labOracleText(r)
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: labGame, State: &gamerulesv1.GameState{Text: text}, IncludeResults: true})
		if err != nil {
			t.Fatalf("row %d: LegalMoves(%q) = %v", r.ID, text, err)
		}
		byNotation := map[string]*gamerulesv1.Move{}
		var got []string
		for _, m := range lm.GetMoves() {
			got = append(got, m.GetNotation())
			byNotation[m.GetNotation()] = m
		}
		var want []string
		seen := map[string]bool{}
		for _, o := range r.Options {
			notation := o.Shift
			if o.Rotation > 0 {
				notation += fmt.Sprintf(":%d", o.Rotation)
			}
			if !o.Legal {
				_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: &gamerulesv1.GameState{Text: text}, Move: &gamerulesv1.Move{Notation: notation}})
				if reason := reasonOf(t, err); reason != ReasonIllegalMove {
					t.Fatalf("row %d: ApplyMove(%s) reason %q; want ILLEGAL_MOVE", r.ID, notation, reason)
				}
				options++
				continue
			}
			key := o.Shift + o.SpareInserted
			if !seen[key] {
				seen[key] = true
				want = append(want, notation)
			}
			// Every rotation, listed or not, must give the oracle's result.
			am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: &gamerulesv1.GameState{Text: text}, Move: &gamerulesv1.Move{Notation: notation}})
			if err != nil {
				t.Fatalf("row %d: ApplyMove(%s) = %v", r.ID, notation, err)
			}
			after := am.GetState().GetLabyrinth()
			board, spare := labMasks(after)
			if board != o.BoardAfter || spare != o.SpareAfter[0] {
				t.Fatalf("row %d %s: board %s spare %c; want %s %s", r.ID, notation, board, spare, o.BoardAfter, o.SpareAfter)
			}
			var figs []string
			for _, p := range after.GetPlayers() {
				figs = append(figs, fmt.Sprintf("r%dc%d", p.GetShip().GetRow(), p.GetShip().GetCol()))
			}
			if !slices.Equal(figs, labSquares(o.FiguresAfter)) {
				t.Fatalf("row %d %s: figures %v; want %v", r.ID, notation, figs, o.FiguresAfter)
			}
			if listed := byNotation[am.GetMove().GetNotation()]; listed == nil || listed.GetResult().GetText() != am.GetState().GetText() {
				t.Fatalf("row %d %s: applied as %q, not listed with the same result", r.ID, notation, am.GetMove().GetNotation())
			}
			for p, reach := range o.Reach {
				st := &gamerulesv1.GameState{Text: withTurn(am.GetState().GetText(), p)}
				moves, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: labGame, State: st})
				if err != nil {
					t.Fatalf("row %d %s: LegalMoves(%q) = %v", r.ID, notation, st.GetText(), err)
				}
				var to []string
				for _, m := range moves.GetMoves() {
					to = append(to, m.GetNotation())
				}
				if !slices.Equal(to, labSquares(reach)) {
					t.Fatalf("row %d %s: figure %d moves %v; want %v", r.ID, notation, p, to, labSquares(reach))
				}
			}
			options++
		}
		if !slices.Equal(got, want) {
			t.Fatalf("row %d: LegalMoves = %v; want %v", r.ID, got, want)
		}
	}
	if options != 80*48 {
		t.Fatalf("%d options checked; want %d", options, 80*48)
	}
}

// TestLabyrinthGame plays a seeded 4-player game with Darth Vader to the
// end by random moves through the API, alternating notation and typed
// moves and text and typed states, and checks it replays identically.
func TestLabyrinthGame(t *testing.T) {
	play := func(seed uint64) (string, []string) {
		srv := New()
		ctx := context.Background()
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: labGame, Seed: &seed, Options: &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthOptions{Players: 4, Vader: true}}})
		if err != nil {
			t.Fatal(err)
		}
		if ng.GetSeed() != seed {
			t.Fatalf("NewGame echoed seed %d; want %d", ng.GetSeed(), seed)
		}
		st := ng.GetState()
		r := rand.New(rand.NewPCG(seed, 1))
		var played []string
		for ply := 0; ; ply++ {
			in := &gamerulesv1.GameState{Text: st.GetText()}
			if ply%3 == 1 {
				in = &gamerulesv1.GameState{State: st.GetState()}
			}
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: labGame, State: in})
			if err != nil {
				t.Fatalf("ply %d: LegalMoves(%v) = %v", ply, in, err)
			}
			if len(lm.GetMoves()) == 0 {
				break
			}
			if ply > 100000 {
				t.Fatalf("game not over after %d plies", ply)
			}
			m := lm.GetMoves()[r.IntN(len(lm.GetMoves()))]
			mv := &gamerulesv1.Move{Notation: m.GetNotation()}
			if ply%2 == 1 {
				mv = &gamerulesv1.Move{Move: m.GetMove()}
			}
			am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: in, Move: mv})
			if err != nil {
				t.Fatalf("ply %d: ApplyMove(%v) = %v", ply, mv, err)
			}
			if am.GetMove().GetNotation() != m.GetNotation() {
				t.Fatalf("ply %d: applied %q; want %q", ply, am.GetMove().GetNotation(), m.GetNotation())
			}
			played = append(played, m.GetNotation())
			st = am.GetState()
		}
		sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: labGame, State: st})
		if err != nil {
			t.Fatal(err)
		}
		if !sc.GetFinished() || sc.Winner == nil || len(sc.GetPoints()) != 4 || sc.GetPoints()[sc.GetWinner()] != 6 {
			t.Fatalf("Score(%q) = %v; want finished, a winner with 6 targets", st.GetText(), sc)
		}
		_, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: st, Move: &gamerulesv1.Move{Notation: "N2"}})
		if reason := reasonOf(t, err); reason != ReasonGameOver {
			t.Fatalf("ApplyMove after the end: reason %q; want GAME_OVER", reason)
		}
		return st.GetText(), played
	}
	end1, moves1 := play(2026)
	end2, moves2 := play(2026)
	if end1 != end2 || !slices.Equal(moves1, moves2) {
		t.Fatalf("seed 2026 played twice differs: %q vs %q", end1, end2)
	}
	t.Logf("%d plies, final %s", len(moves1), end1)
}

func TestLabyrinthNewGame(t *testing.T) {
	srv := New()
	ctx := context.Background()
	seed := uint64(0)
	opts := func(o *gamerulesv1.LabyrinthOptions) *gamerulesv1.NewGameRequest {
		return &gamerulesv1.NewGameRequest{Game: labGame, Seed: &seed, Options: &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: o}}
	}
	// Defaults: 4 players.
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: labGame, Seed: &seed})
	if err != nil || len(ng.GetState().GetLabyrinth().GetPlayers()) != 4 {
		t.Fatalf("NewGame() = %v, %v; want 4 players", ng, err)
	}
	// Same as the rules package for the same seed and options.
	ng, err = srv.NewGame(ctx, opts(&gamerulesv1.LabyrinthOptions{Players: 2}))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := labyrinth.New(labyrinth.Options{Players: 2, Seed: 0})
	if ng.GetState().GetText() != want.String() {
		t.Fatalf("NewGame(seed 0, 2 players) = %q; want %q", ng.GetState().GetText(), want)
	}
	// Colours, first player and variants.
	ng, err = srv.NewGame(ctx, opts(&gamerulesv1.LabyrinthOptions{
		Colors:      []string{"blue", "Yellow"},
		FirstPlayer: 1, Vader: true, OpenCards: true, NoReturn: true,
	}))
	if err != nil {
		t.Fatal(err)
	}
	typed := ng.GetState().GetLabyrinth()
	if f := strings.Fields(ng.GetState().GetText()); !strings.HasPrefix(f[2], "B71,Y17,V") || f[4] != "Ys" || f[6] != "von" ||
		typed.GetVader() == nil || !typed.GetVaderVariant() || !typed.GetOpenCards() || !typed.GetNoReturn() || typed.GetTurn() != 1 {
		t.Fatalf("NewGame(blue, yellow, first 1, von) = %q, %v", ng.GetState().GetText(), typed)
	}
	// An explicit layout, as text and typed, gives the same game.
	base := want
	f := strings.Fields(base.String())
	layoutText := f[0] + " " + f[1] + " " + strings.ReplaceAll(f[5], ":", "")
	fromText, err := srv.NewGame(ctx, opts(&gamerulesv1.LabyrinthOptions{Players: 2, Layout: &gamerulesv1.LabyrinthLayout{Text: layoutText}}))
	if err != nil || fromText.GetState().GetText() != base.String() {
		t.Fatalf("NewGame(layout %q) = %v, %v; want %q", layoutText, fromText, err, base)
	}
	bt := ng.GetState().GetLabyrinth()
	baseTyped := labyrinthStateToProto(base)
	lay := &gamerulesv1.LabyrinthLayout{Board: baseTyped.GetBoard(), Spare: baseTyped.GetSpare()}
	for _, p := range baseTyped.GetPlayers() {
		lay.Stacks = append(lay.Stacks, &gamerulesv1.LabyrinthStack{Cards: p.GetStack()})
	}
	fromTyped, err := srv.NewGame(ctx, opts(&gamerulesv1.LabyrinthOptions{Layout: lay}))
	if err != nil || fromTyped.GetState().GetText() != base.String() {
		t.Fatalf("NewGame(typed layout) = %v, %v; want %q", fromTyped, err, base)
	}
	_ = bt

	for name, o := range map[string]*gamerulesv1.LabyrinthOptions{
		"one player":          {Players: 1},
		"five players":        {Players: 5},
		"repeated colour":     {Colors: []string{"red", "R"}},
		"unknown color":       {Colors: []string{"purple", "red"}},
		"unspecified color":   {Colors: []string{"LABYRINTH_COLOR_UNSPECIFIED", "red"}},
		"first out of range":  {Players: 2, FirstPlayer: 2},
		"layout both":         {Players: 2, Layout: &gamerulesv1.LabyrinthLayout{Text: layoutText, Spare: baseTyped.GetSpare()}},
		"layout bad text":     {Players: 2, Layout: &gamerulesv1.LabyrinthLayout{Text: "x"}},
		"layout short":        {Players: 2, Layout: &gamerulesv1.LabyrinthLayout{Board: baseTyped.GetBoard()[:48], Spare: baseTyped.GetSpare(), Stacks: lay.Stacks}},
		"layout sides":        {Players: 2, Layout: &gamerulesv1.LabyrinthLayout{Board: baseTyped.GetBoard(), Spare: &gamerulesv1.LabyrinthTile{Sides: 261}, Stacks: lay.Stacks}},
		"layout card":         {Players: 2, Layout: &gamerulesv1.LabyrinthLayout{Board: baseTyped.GetBoard(), Spare: baseTyped.GetSpare(), Stacks: []*gamerulesv1.LabyrinthStack{{Cards: []uint32{257}}, lay.Stacks[1]}}},
		"layout swapped tile": {Players: 2, Layout: &gamerulesv1.LabyrinthLayout{Board: append([]*gamerulesv1.LabyrinthTile{baseTyped.GetSpare()}, baseTyped.GetBoard()[1:]...), Spare: baseTyped.GetSpare(), Stacks: lay.Stacks}},
	} {
		if _, err := srv.NewGame(ctx, opts(o)); reasonOf(t, err) != ReasonInvalidOptions {
			t.Errorf("%s: NewGame(%v) = %v; want INVALID_OPTIONS", name, o, err)
		}
	}
}

func TestLabyrinthStates(t *testing.T) {
	srv := New()
	ctx := context.Background()
	s, _ := labyrinth.New(labyrinth.Options{Players: 3, Seed: 5, Variants: labyrinth.Variants{Vader: true}})
	s, _ = s.Apply(labyrinth.ShiftMove(labyrinth.W4, 1))
	full := labyrinthEncode(s)

	// Typed only, text only and both give the same state.
	for name, st := range map[string]*gamerulesv1.GameState{
		"text":  {Text: full.GetText()},
		"typed": typedOnly(full),
		"both":  full,
	} {
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: labGame, State: st})
		if err != nil || len(lm.GetMoves()) != len(s.LegalMoves()) {
			t.Fatalf("%s: LegalMoves = %v, %v", name, lm, err)
		}
		sc, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: labGame, State: st})
		if err != nil || sc.GetFinished() || !slices.Equal(sc.GetPoints(), []int32{0, 0, 0}) {
			t.Fatalf("%s: Score = %v, %v", name, sc, err)
		}
	}
	if back, err := labyrinthStateFromProto(full.GetLabyrinth()); err != nil || back != s {
		t.Fatalf("labyrinthStateFromProto(labyrinthStateToProto(s)) = %v, %v", back, err)
	}

	// Text and typed that disagree, and broken typed states.
	other := proto.Clone(full).(*gamerulesv1.GameState)
	other.GetLabyrinth().Turn = 2
	mut := func(f func(*gamerulesv1.LabyrinthState)) *gamerulesv1.GameState {
		c := typedOnly(full)
		f(c.GetLabyrinth())
		return c
	}
	for name, st := range map[string]*gamerulesv1.GameState{
		"disagree":     other,
		"bad text":     {Text: "nonsense"},
		"48 tiles":     mut(func(l *gamerulesv1.LabyrinthState) { l.Board = l.Board[:48] }),
		"no spare":     mut(func(l *gamerulesv1.LabyrinthState) { l.Spare = nil }),
		"sides 256+5":  mut(func(l *gamerulesv1.LabyrinthState) { l.Spare.Sides = 261 }),
		"one player":   mut(func(l *gamerulesv1.LabyrinthState) { l.Players = l.Players[:1] }),
		"no ship":      mut(func(l *gamerulesv1.LabyrinthState) { l.Players[0].Ship = nil }),
		"ship off":     mut(func(l *gamerulesv1.LabyrinthState) { l.Players[0].Ship.Row = 8 }),
		"colour 0":     mut(func(l *gamerulesv1.LabyrinthState) { l.Players[0].Color = 0 }),
		"card 25":      mut(func(l *gamerulesv1.LabyrinthState) { l.Players[0].Stack[0] = 25 }),
		"card 256+1":   mut(func(l *gamerulesv1.LabyrinthState) { l.Players[0].Stack[0] = 257 }),
		"hidden card":  mut(func(l *gamerulesv1.LabyrinthState) { l.Players[1].Stack[0] = 0 }),
		"no vader":     mut(func(l *gamerulesv1.LabyrinthState) { l.Vader = nil }),
		"vader off":    mut(func(l *gamerulesv1.LabyrinthState) { l.Vader.Col = 0 }),
		"phase 0":      mut(func(l *gamerulesv1.LabyrinthState) { l.Phase = 0 }),
		"phase 9":      mut(func(l *gamerulesv1.LabyrinthState) { l.Phase = 9 }),
		"last 13":      mut(func(l *gamerulesv1.LabyrinthState) { l.Last = gamerulesv1.LabyrinthInsertionPoint(13).Enum() }),
		"last 256+1":   mut(func(l *gamerulesv1.LabyrinthState) { l.Last = gamerulesv1.LabyrinthInsertionPoint(257).Enum() }),
		"turn 3":       mut(func(l *gamerulesv1.LabyrinthState) { l.Turn = 3 }),
		"turn -1":      mut(func(l *gamerulesv1.LabyrinthState) { l.Turn = -1 }),
		"target twice": mut(func(l *gamerulesv1.LabyrinthState) { l.Board[1].Target = proto.Uint32(l.Board[2].GetTarget()) }),
		"last given as UNSPECIFIED": mut(func(l *gamerulesv1.LabyrinthState) {
			l.Last = gamerulesv1.LabyrinthInsertionPoint_LABYRINTH_INSERTION_POINT_UNSPECIFIED.Enum()
		}),
		"fixed changed": mut(func(l *gamerulesv1.LabyrinthState) { l.Board[0].Sides = 3 }),
		"view":          {Text: s.View(0).String()},
	} {
		_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: labGame, State: st})
		if reason := reasonOf(t, err); reason != ReasonInvalidState {
			t.Errorf("%s: LegalMoves reason %q (%v); want INVALID_STATE", name, reason, err)
		}
	}
}

func TestLabyrinthObserve(t *testing.T) {
	srv := New()
	ctx := context.Background()
	s, _ := labyrinth.New(labyrinth.Options{Players: 3, Seed: 8})
	st := &gamerulesv1.GameState{Text: s.String()}
	for p := -1; p < 3; p++ {
		ob, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: labGame, State: st, Player: proto.Int32(int32(p))})
		if err != nil {
			t.Fatalf("ObserveState(%d) = %v", p, err)
		}
		if ob.GetState().GetText() != s.View(p).String() {
			t.Fatalf("ObserveState(%d) = %q; want %q", p, ob.GetState().GetText(), s.View(p))
		}
		for q, pl := range ob.GetState().GetLabyrinth().GetPlayers() {
			visible := 0
			for _, c := range pl.GetStack() {
				if c != 0 {
					visible++
				}
			}
			if want := map[bool]int{true: 1, false: 0}[q == p]; visible != want || len(pl.GetStack()) != 8 {
				t.Fatalf("ObserveState(%d): player %d stack %v; want %d visible of 8", p, q, pl.GetStack(), want)
			}
		}
		// A view is refused as input to LegalMoves and ApplyMove, as text or typed.
		for _, in := range []*gamerulesv1.GameState{{Text: ob.GetState().GetText()}, typedOnly(ob.GetState())} {
			_, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: labGame, State: in})
			if reason := reasonOf(t, err); reason != ReasonInvalidState {
				t.Fatalf("LegalMoves(view %d) reason %q; want INVALID_STATE", p, reason)
			}
			_, err = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: in, Move: &gamerulesv1.Move{Notation: "N2"}})
			if reason := reasonOf(t, err); reason != ReasonInvalidState {
				t.Fatalf("ApplyMove(view %d) reason %q; want INVALID_STATE", p, reason)
			}
		}
	}
	if _, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: labGame, State: st}); reasonOf(t, err) != ReasonInvalidRequest {
		t.Fatalf("ObserveState without player: %v; want INVALID_REQUEST", err)
	}
	for _, p := range []int32{3, -2} {
		_, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: labGame, State: st, Player: proto.Int32(p)})
		if reason := reasonOf(t, err); reason != ReasonInvalidRequest {
			t.Fatalf("ObserveState(%d) reason %q; want INVALID_REQUEST", p, reason)
		}
	}
}

func TestLabyrinthMoves(t *testing.T) {
	srv := New()
	ctx := context.Background()
	s, _ := labyrinth.New(labyrinth.Options{Players: 2, Seed: 0}) // spare 7N: a T, 4 rotations
	st := &gamerulesv1.GameState{Text: s.String()}
	apply := func(mv *gamerulesv1.Move) (*gamerulesv1.ApplyMoveResponse, error) {
		return srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: st, Move: mv})
	}
	shift := func(p gamerulesv1.LabyrinthInsertionPoint, r uint32) *gamerulesv1.Move_Labyrinth {
		return &gamerulesv1.Move_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthMove{Kind: &gamerulesv1.LabyrinthMove_Shift{Shift: &gamerulesv1.LabyrinthShift{Point: p, Rotation: r}}}}
	}
	figure := func(row, col uint32, vader bool) *gamerulesv1.Move_Labyrinth {
		return &gamerulesv1.Move_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthMove{Kind: &gamerulesv1.LabyrinthMove_Figure{Figure: &gamerulesv1.LabyrinthFigureMove{To: &gamerulesv1.LabyrinthSquare{Row: row, Col: col}, Vader: vader}}}}
	}
	am, err := apply(&gamerulesv1.Move{Notation: "W2:1", Move: shift(gamerulesv1.LabyrinthInsertionPoint_LABYRINTH_INSERTION_POINT_W2, 1)})
	if err != nil || am.GetMove().GetNotation() != "W2:1" {
		t.Fatalf("ApplyMove(W2:1, both) = %v, %v", am, err)
	}
	for name, tc := range map[string]struct {
		mv     *gamerulesv1.Move
		reason string
	}{
		"disagree":     {&gamerulesv1.Move{Notation: "W2:2", Move: shift(gamerulesv1.LabyrinthInsertionPoint_LABYRINTH_INSERTION_POINT_W2, 1)}, ReasonIllegalMove},
		"bad notation": {&gamerulesv1.Move{Notation: "Z9"}, ReasonIllegalMove},
		"no point":     {&gamerulesv1.Move{Move: shift(0, 0)}, ReasonIllegalMove},
		"point 256+1":  {&gamerulesv1.Move{Move: shift(257, 0)}, ReasonIllegalMove},
		"rotation 4":   {&gamerulesv1.Move{Move: shift(1, 4)}, ReasonIllegalMove},
		"figure now":   {&gamerulesv1.Move{Move: figure(1, 1, false)}, ReasonIllegalMove},
		"figure off":   {&gamerulesv1.Move{Move: figure(0, 1, false)}, ReasonIllegalMove},
		"empty typed":  {&gamerulesv1.Move{Move: &gamerulesv1.Move_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthMove{}}}, ReasonIllegalMove},
	} {
		if _, err := apply(tc.mv); reasonOf(t, err) != tc.reason {
			t.Errorf("%s: ApplyMove(%v) = %v; want %s", name, tc.mv, err, tc.reason)
		}
	}
	// Move phase: a typed figure move and the reversal next turn.
	st = am.GetState()
	am, err = apply(&gamerulesv1.Move{Move: figure(1, 2, false)})
	if err != nil || am.GetMove().GetNotation() != "r1c2" {
		t.Fatalf("ApplyMove(typed r1c2) = %v, %v", am, err)
	}
	if _, err := apply(&gamerulesv1.Move{Move: figure(1, 2, true)}); reasonOf(t, err) != ReasonIllegalMove {
		t.Fatalf("Vader move without the variant: %v; want ILLEGAL_MOVE", err)
	}
	st = am.GetState()
	if _, err := apply(&gamerulesv1.Move{Notation: "E2"}); reasonOf(t, err) != ReasonIllegalMove {
		t.Fatalf("E2 after W2: %v; want ILLEGAL_MOVE", err)
	}
	// A straight spare: rotation 2 is rotation 0, listed once.
	for labyrinthSpareShape(st) != labyrinth.ShapeStraight {
		am, _ = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: st, Move: &gamerulesv1.Move{Notation: "N4"}})
		lm, _ := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: labGame, State: am.GetState()})
		am, _ = srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: labGame, State: am.GetState(), Move: lm.GetMoves()[0]})
		st = am.GetState()
	}
	am, err = apply(&gamerulesv1.Move{Move: shift(gamerulesv1.LabyrinthInsertionPoint_LABYRINTH_INSERTION_POINT_N4, 2)})
	if err != nil || am.GetMove().GetNotation() != "N4" {
		t.Fatalf("typed N4 rotation 2 with a straight spare = %v, %v; want applied as N4", am, err)
	}
}

func labyrinthSpareShape(st *gamerulesv1.GameState) labyrinth.Shape {
	return labyrinth.Tile{Sides: uint8(st.GetLabyrinth().GetSpare().GetSides())}.Shape()
}

func TestLabyrinthInfo(t *testing.T) {
	info := labyrinthEngine{}.Info()
	if info.GetId() != "labyrinth" || info.GetMinPlayers() != 2 || info.GetMaxPlayers() != 4 || !info.GetHasHiddenInformation() || info.GetHasChance() {
		t.Fatalf("Info() = %v", info)
	}
}

// TestLabyrinthNewGameMessages: an options error names the option at fault,
// not a field the caller left out.
func TestLabyrinthNewGameMessages(t *testing.T) {
	srv := New()
	for _, tc := range []struct {
		o    *gamerulesv1.LabyrinthOptions
		want string
	}{
		{&gamerulesv1.LabyrinthOptions{Colors: []string{"red"}}, "colors: 1 given"},
		{&gamerulesv1.LabyrinthOptions{Players: 5}, "players = 5"},
	} {
		_, err := srv.NewGame(context.Background(), &gamerulesv1.NewGameRequest{Game: labGame, Options: &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: tc.o}})
		if reasonOf(t, err) != ReasonInvalidOptions || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewGame(%v) = %v; want INVALID_OPTIONS saying %q", tc.o, err, tc.want)
		}
	}
}
