package service

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/abalone"
)

const abGame = "abalone"

func abOpen(t *testing.T, name string) io.Reader {
	t.Helper()
	return oracle.Open(t, "abalone/"+name)
}

// abBoard is a position as two sets of upper-case cell names.
type abBoard struct{ black, white string }

func abBoardOf(black, white []string) abBoard {
	norm := func(cells []string) string {
		c := make([]string, len(cells))
		for i, x := range cells {
			c[i] = strings.ToUpper(x)
		}
		slices.Sort(c)
		return strings.Join(c, ",")
	}
	return abBoard{norm(black), norm(white)}
}

// abApplyCanonical applies an oracle move "<own from>><own to>[|<pushed
// from>><pushed to or OFF>]" to cell lists, independently of the engine.
func abApplyCanonical(t *testing.T, black, white []string, blackMoves bool, canon string) abBoard {
	t.Helper()
	set := func(cells []string) map[string]bool {
		m := map[string]bool{}
		for _, c := range cells {
			m[c] = true
		}
		return m
	}
	own, opp := set(black), set(white)
	if !blackMoves {
		own, opp = opp, own
	}
	move := func(m map[string]bool, part string) {
		from, to, _ := strings.Cut(part, ">")
		for _, c := range strings.Split(from, ",") {
			if !m[c] {
				t.Fatalf("%s: %s is empty", canon, c)
			}
			delete(m, c)
		}
		for _, c := range strings.Split(to, ",") {
			if c != "OFF" {
				m[c] = true
			}
		}
	}
	parts := strings.Split(canon, "|")
	move(own, parts[0])
	if len(parts) == 2 {
		move(opp, parts[1])
	}
	if !blackMoves {
		own, opp = opp, own
	}
	keys := func(m map[string]bool) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		return out
	}
	return abBoardOf(keys(own), keys(opp))
}

// TestAbaloneNewGame: the standard layouts through the API, as text.
func TestAbaloneNewGame(t *testing.T) {
	srv := New()
	ctx := context.Background()
	tests := []struct {
		layout string
		text   string
		moves  int
	}{
		{"", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", 44},
		{"classic", "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b", 44},
		{"belgian_daisy", "ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b", 52},
		{"German_Daisy", "5/ww2bb/www1bbb/1ww2bb1/9/1bb2ww1/bbb1www/bb2ww/5 b", 80},
	}
	for _, tt := range tests {
		ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: abGame, Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: tt.layout}}})
		if err != nil || ng.GetState().GetText() != tt.text {
			t.Fatalf("NewGame(%v) = %v, %v; want %q", tt.layout, ng, err, tt.text)
		}
		typed := ng.GetState().GetAbalone()
		if len(typed.GetBlack()) != 14 || len(typed.GetWhite()) != 14 || typed.GetTurn() != gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK {
			t.Errorf("NewGame(%v) typed = %v", tt.layout, typed)
		}
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: abGame, State: textState(tt.text)})
		if err != nil || len(lm.GetMoves()) != tt.moves || lm.GetChance() {
			t.Errorf("LegalMoves(%q) = %d moves, %v; want %d", tt.text, len(lm.GetMoves()), err, tt.moves)
		}
	}
	// No options at all is the classic layout.
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: abGame})
	if err != nil || ng.GetState().GetText() != tests[0].text {
		t.Errorf("NewGame() = %v, %v", ng, err)
	}
	// A custom layout with a ply limit.
	ng, err = srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: abGame, Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{
		Layout:   "custom",
		Black:    strings.Fields("A1 a2 a3 a4 a5 b1 b2 b3 e5"),
		White:    strings.Fields("i5 i6 i7 i8 i9 h4 h5 h6 e6"),
		Turn:     gamerulesv1.AbalonePlayer_ABALONE_PLAYER_WHITE.Enum(),
		MaxPlies: 50,
	}}})
	if err != nil || ng.GetState().GetText() != "wwwww/www3/7/8/4bw3/8/7/bbb3/bbbbb w 0/50" || ng.GetState().GetAbalone().GetBlackLost() != 5 {
		t.Errorf("NewGame(custom) = %v, %v", ng, err)
	}
}

type abRandomPosition struct {
	Black, White []string
	ToMove       string `json:"to_move"`
	Moves        []string
}

// TestAbaloneOracle: the 400 oracle positions through LegalMoves (text in,
// results included): every result equals one of the oracle's moves, applied
// independently, and none is missing.
func TestAbaloneOracle(t *testing.T) {
	srv := New()
	ctx := context.Background()
	sc := bufio.NewScanner(abOpen(t, "random-positions.jsonl.gz"))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var p abRandomPosition
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		n++
		// The text form comes from the typed form, through the API.
		toMove := gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK
		if p.ToMove == "white" {
			toMove = gamerulesv1.AbalonePlayer_ABALONE_PLAYER_WHITE
		}
		typed := &gamerulesv1.GameState{State: &gamerulesv1.GameState_Abalone{Abalone: &gamerulesv1.AbaloneState{Black: p.Black, White: p.White, Turn: toMove}}}
		sr, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: abGame, State: typed})
		if err != nil {
			t.Fatalf("row %d: ObserveState(typed) = %v", n, err)
		}
		text := sr.GetState().GetText()
		lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: abGame, State: textState(text), IncludeResults: true})
		if err != nil {
			t.Fatalf("row %d: LegalMoves(%q) = %v", n, text, err)
		}
		want := map[abBoard]string{}
		for _, cm := range p.Moves {
			want[abApplyCanonical(t, p.Black, p.White, p.ToMove == "black", cm)] = cm
		}
		got := map[abBoard]bool{}
		for _, m := range lm.GetMoves() {
			res := m.GetResult().GetAbalone()
			b := abBoardOf(res.GetBlack(), res.GetWhite())
			if _, ok := want[b]; !ok {
				t.Errorf("row %d %s: move %s is not in the oracle's set", n, text, m.GetNotation())
			}
			got[b] = true
		}
		for b, cm := range want {
			if !got[b] {
				t.Errorf("row %d %s: oracle move %s missing", n, text, cm)
			}
		}
		if len(lm.GetMoves()) != len(p.Moves) {
			t.Errorf("row %d %s: %d moves; want %d", n, text, len(lm.GetMoves()), len(p.Moves))
		}
		// Every 20th position: each move applied by its typed form gives the listed result.
		if n%20 == 0 {
			for _, m := range lm.GetMoves() {
				am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: abGame, State: sr.GetState(), Move: &gamerulesv1.Move{Move: m.GetMove()}})
				if err != nil || !proto.Equal(am.GetState(), m.GetResult()) || am.GetMove().GetNotation() != m.GetNotation() {
					t.Errorf("row %d: ApplyMove(typed %v) = %v, %v; want %v", n, m.GetAbalone(), am, err, m.GetResult())
				}
			}
		}
	}
	if n != 400 {
		t.Errorf("%d positions; want 400", n)
	}
}

type abReplayGame struct {
	Event  string
	Layout string
	AbaPro []string `json:"abapro"`
	Counts []int    `json:"legal_move_counts_before_each_ply"`
	Final  struct {
		Black, White []string
		ToMove       string `json:"to_move"`
	} `json:"final_position"`
	Lost struct{ Black, White int32 } `json:"marbles_lost"`
}

var abLayouts = map[string]string{
	"classic": "classic",
	"belgian": "belgian",
	"german":  "german_daisy",
}

// abReplay plays Aba-Pro moves through NewGame and ApplyMove, passing the
// state as text only; before each ply it checks counts[ply] (when given)
// against LegalMoves. It returns the final state.
func abReplay(t *testing.T, srv *Server, name, layout string, moves []string, counts []int) *gamerulesv1.GameState {
	t.Helper()
	ctx := context.Background()
	ng, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: abGame, Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: abLayouts[layout]}}})
	if err != nil {
		t.Fatal(err)
	}
	text := ng.GetState().GetText()
	var st *gamerulesv1.GameState
	for ply, mv := range moves {
		if counts != nil {
			lm, err := srv.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: abGame, State: textState(text)})
			if err != nil || len(lm.GetMoves()) != counts[ply] {
				t.Fatalf("%s ply %d %s: %d legal moves, %v; want %d", name, ply, text, len(lm.GetMoves()), err, counts[ply])
			}
		}
		am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: abGame, State: textState(text), Move: &gamerulesv1.Move{Notation: mv}})
		if err != nil {
			t.Fatalf("%s ply %d %s: ApplyMove(%q) = %v", name, ply, text, mv, err)
		}
		st = am.GetState()
		text = st.GetText()
	}
	return st
}

// TestAbaloneReplay: the 8 oracle games move by move in Aba-Pro notation,
// with the legal-move count before every ply and the final position.
func TestAbaloneReplay(t *testing.T) {
	var games []abReplayGame
	if err := json.NewDecoder(abOpen(t, "replay-tests.json")).Decode(&games); err != nil {
		t.Fatal(err)
	}
	srv := New()
	for _, g := range games {
		st := abReplay(t, srv, g.Event, g.Layout, g.AbaPro, g.Counts)
		typed := st.GetAbalone()
		if abBoardOf(typed.GetBlack(), typed.GetWhite()) != abBoardOf(g.Final.Black, g.Final.White) || strings.ToLower(typed.GetTurn().String()) != "abalone_player_"+g.Final.ToMove {
			t.Errorf("%s: final %v; want %v", g.Event, typed, g.Final)
		}
		sc, err := srv.Score(context.Background(), &gamerulesv1.ScoreRequest{Game: abGame, State: textState(st.GetText())})
		if err != nil || !slices.Equal(sc.GetPoints(), []int32{g.Lost.White, g.Lost.Black}) {
			t.Errorf("%s: Score = %v, %v; want points %d, %d", g.Event, sc, err, g.Lost.White, g.Lost.Black)
		}
	}
}

// TestAbaloneArchive replays archive games through the API (every 5th
// game; all 1,941 with GAMERULES_LONG=1) and checks Score against the result.
func TestAbaloneArchive(t *testing.T) {
	every := 5
	if os.Getenv("GAMERULES_LONG") != "" {
		every = 1
	}
	srv := New()
	sc := bufio.NewScanner(abOpen(t, "migs-games.apgn.gz"))
	var tags map[string]string
	var moves []string
	games, played := 0, 0
	finish := func() {
		if tags == nil {
			return
		}
		games++
		if games%every != 0 {
			return
		}
		played++
		st := abReplay(t, srv, tags["Event"], tags["Variant"], moves, nil)
		score, err := srv.Score(context.Background(), &gamerulesv1.ScoreRequest{Game: abGame, State: st})
		if err != nil {
			t.Fatal(err)
		}
		var want string
		switch {
		case !score.GetFinished():
			want = "*"
		case score.GetWinner() == 0:
			want = "1-0"
		default:
			want = "0-1"
		}
		if tags["Result"] != want {
			t.Errorf("%s: Score %v after %d plies; the record says %s", tags["Event"], score, len(moves), tags["Result"])
		}
	}
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "[Event "):
			finish()
			tags, moves = map[string]string{}, nil
			fallthrough
		case strings.HasPrefix(line, "["):
			name, value, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			tags[name] = strings.Trim(value, `"`)
		default:
			for _, tok := range strings.Fields(line) {
				if !strings.HasSuffix(tok, ".") && tok != "1-0" && tok != "0-1" && tok != "*" {
					moves = append(moves, tok)
				}
			}
		}
	}
	finish()
	if games != 1941 || played < 1941/every {
		t.Errorf("%d games read, %d replayed", games, played)
	}
}

// TestAbaloneTyped: typed states and moves, and their agreement with text.
func TestAbaloneTyped(t *testing.T) {
	srv := New()
	ctx := context.Background()
	start := "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"
	ob, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: abGame, State: textState(start)})
	if err != nil {
		t.Fatal(err)
	}
	typedOnly := proto.Clone(ob.GetState()).(*gamerulesv1.GameState)
	typedOnly.Text = ""
	// A broadside by either end, typed or in notation, is the same move.
	for _, mv := range []*gamerulesv1.Move{
		{Notation: "c3c5d3"},
		{Notation: "C5C3D5"},
		{Move: &gamerulesv1.Move_Abalone{Abalone: &gamerulesv1.AbaloneMove{From: "c5", To: "d5", End: "c3"}}},
		{Notation: "c3c5d3", Move: &gamerulesv1.Move_Abalone{Abalone: &gamerulesv1.AbaloneMove{From: "C3", To: "D3", End: "C5"}}},
	} {
		for _, st := range []*gamerulesv1.GameState{textState(start), typedOnly, ob.GetState()} {
			am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: abGame, State: st, Move: mv})
			if err != nil {
				t.Fatalf("ApplyMove(%v) = %v", mv, err)
			}
			want := &gamerulesv1.AbaloneMove{From: "c3", To: "d3", End: "c5"}
			if am.GetMove().GetNotation() != "c3c5d3" || !proto.Equal(am.GetMove().GetAbalone(), want) || am.GetState().GetText() != "wwwww/wwwwww/2www2/8/9/2bbb3/7/bbbbbb/bbbbb w" {
				t.Errorf("ApplyMove(%v) = %v", mv, am)
			}
		}
	}
	// An in-line move's typed form has no end.
	am, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: abGame, State: typedOnly, Move: &gamerulesv1.Move{Move: &gamerulesv1.Move_Abalone{Abalone: &gamerulesv1.AbaloneMove{From: "a1", To: "b2"}}}})
	if err != nil || am.GetMove().GetNotation() != "a1b2" || am.GetMove().GetAbalone().GetEnd() != "" {
		t.Errorf("ApplyMove(typed a1b2) = %v, %v", am, err)
	}
}

// TestAbaloneErrors: each kind of bad request gets its reason.
func TestAbaloneErrors(t *testing.T) {
	srv := New()
	ctx := context.Background()
	start := "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b"
	apply := func(state string, mv *gamerulesv1.Move) func() error {
		return func() error {
			_, err := srv.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: abGame, State: textState(state), Move: mv})
			return err
		}
	}
	newGame := func(o *gamerulesv1.AbaloneOptions) func() error {
		return func() error {
			_, err := srv.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: abGame, Options: &gamerulesv1.NewGameRequest_Abalone{Abalone: o}})
			return err
		}
	}
	typedState := func(edit func(*gamerulesv1.AbaloneState)) func() error {
		return func() error {
			s := &gamerulesv1.AbaloneState{
				Black: strings.Fields("a1 a2 a3 a4 a5 b1 b2 b3 b4"),
				White: strings.Fields("i5 i6 i7 i8 i9 h4 h5 h6 h7"),
				Turn:  gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK,
			}
			edit(s)
			_, err := srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: abGame, State: &gamerulesv1.GameState{State: &gamerulesv1.GameState_Abalone{Abalone: s}}})
			return err
		}
	}
	typedMove := func(from, to, end string) *gamerulesv1.Move {
		return &gamerulesv1.Move{Move: &gamerulesv1.Move_Abalone{Abalone: &gamerulesv1.AbaloneMove{From: from, To: to, End: end}}}
	}
	pac := "wwwww/ww4/7/1wwwbb2/9/8/7/bbb3/bbbbb w"
	tests := []struct {
		name   string
		call   func() error
		reason string
		msg    string
	}{
		{"pac", apply(pac, &gamerulesv1.Move{Notation: "f4f5"}), ReasonIllegalMove, "pac: 2 white against 2 black"},
		{"opponent's marble", apply(start, &gamerulesv1.Move{Notation: "i5h5"}), ReasonIllegalMove, "i5 holds a white marble"},
		{"broadside into a marble", apply(start, &gamerulesv1.Move{Notation: "b1b3c1"}), ReasonIllegalMove, "broadside into c3"},
		{"in-line with three cells", apply(start, &gamerulesv1.Move{Notation: "a1c3b2"}), ReasonIllegalMove, "written with two cells"},
		{"not a cell", apply(start, &gamerulesv1.Move{Notation: "a1a0"}), ReasonIllegalMove, `"a0" is not a cell`},
		{"typed move bad cell", apply(start, typedMove("a1", "x9", "")), ReasonIllegalMove, `to: "x9" is not a cell`},
		{"typed move not a neighbour", apply(start, typedMove("a1", "c3", "")), ReasonIllegalMove, "not a neighbour"},
		{"notation and typed disagree", apply(start, &gamerulesv1.Move{Notation: "a1b2", Move: typedMove("a2", "b3", "").GetMove()}), ReasonIllegalMove, "different moves"},
		{"no move", apply(start, &gamerulesv1.Move{}), ReasonIllegalMove, "move is required"},
		{"game over", apply("wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 w", &gamerulesv1.Move{Notation: "i5h5"}), ReasonGameOver, "six pushed off"},
		{"ply limit reached", apply(start+" 7/7", &gamerulesv1.Move{Notation: "a1b2"}), ReasonGameOver, "draw"},
		{"bad text", apply("wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb", &gamerulesv1.Move{Notation: "a1b2"}), ReasonInvalidState, "side to move"},
		{"too few marbles", apply("5/6/7/8/9/8/2bbb2/bbbbbb/bbbbb b", &gamerulesv1.Move{Notation: "a1b2"}), ReasonInvalidState, "white has 0 marbles"},
		{"typed to_move missing", typedState(func(s *gamerulesv1.AbaloneState) { s.Turn = 0 }), ReasonInvalidState, "turn"},
		{"typed bad cell", typedState(func(s *gamerulesv1.AbaloneState) { s.White[0] = "j5" }), ReasonInvalidState, `white[0]: "j5"`},
		{"typed cell twice", typedState(func(s *gamerulesv1.AbaloneState) { s.White[0] = "a1" }), ReasonInvalidState, "a1 is given twice"},
		{"typed plies without limit", typedState(func(s *gamerulesv1.AbaloneState) { s.Plies = 3 }), ReasonInvalidState, "without a ply limit"},
		{"typed huge limit", typedState(func(s *gamerulesv1.AbaloneState) { s.MaxPlies = proto.Uint32(1 << 31) }), ReasonInvalidState, "max_plies 2147483648 out of range"},
		{"typed huge plies", typedState(func(s *gamerulesv1.AbaloneState) { s.Plies, s.MaxPlies = 4294967295, proto.Uint32(10) }), ReasonInvalidState, "plies 4294967295 out of range"},
		{"text and typed disagree", func() error {
			ob, err := srv.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: abGame, State: textState(start)})
			if err != nil {
				return err
			}
			st := ob.GetState()
			st.Text = strings.Replace(start, " b", " w", 1)
			_, err = srv.Score(ctx, &gamerulesv1.ScoreRequest{Game: abGame, State: st})
			return err
		}, ReasonInvalidState, "different states"},
		{"unknown layout", newGame(&gamerulesv1.AbaloneOptions{Layout: "dutch"}), ReasonInvalidOptions, `unknown layout "dutch"`},
		{"cells with a standard layout", newGame(&gamerulesv1.AbaloneOptions{Black: []string{"a1"}}), ReasonInvalidOptions, "custom layout"},
		{"custom with bad cell", newGame(&gamerulesv1.AbaloneOptions{Layout: "custom", Black: []string{"a9"}}), ReasonInvalidOptions, `black[0]: "a9"`},
		{"custom too few", newGame(&gamerulesv1.AbaloneOptions{Layout: "custom", Black: []string{"a1"}, Turn: gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK.Enum()}), ReasonInvalidOptions, "black has 1 marbles"},
		{"custom bad to_move", newGame(&gamerulesv1.AbaloneOptions{Layout: "custom", Turn: gamerulesv1.AbalonePlayer(5).Enum()}), ReasonInvalidOptions, "turn 5 is not a side"},
		// The side to move of a custom layout must be given: a client library
		// that turns an unknown name into 0 must not start black silently.
		{"custom without turn", newGame(&gamerulesv1.AbaloneOptions{Layout: "custom", Black: []string{"a1"}}), ReasonInvalidOptions, "turn is required with the custom layout"},
		{"max_plies too big", newGame(&gamerulesv1.AbaloneOptions{MaxPlies: 1 << 30}), ReasonInvalidOptions, "max_plies 1073741824 out of range"},
		{"max_plies just too big", newGame(&gamerulesv1.AbaloneOptions{MaxPlies: abalone.MaxPliesLimit + 1}), ReasonInvalidOptions, "max_plies 1000001 out of range"},
	}
	for _, tt := range tests {
		err := tt.call()
		if err == nil {
			t.Errorf("%s: no error; want %s", tt.name, tt.reason)
			continue
		}
		if r := reasonOf(t, err); r != tt.reason || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: %v (reason %s); want %s containing %q", tt.name, err, r, tt.reason, tt.msg)
		}
	}
}

// TestAbaloneScore: Score of unfinished, won, drawn and walled-in states.
func TestAbaloneScore(t *testing.T) {
	srv := New()
	tests := []struct {
		text     string
		finished bool
		winner   int32 // -1: none
		points   []int32
		detail   string
	}{
		{"wwwww/wwwwww/2ww3/8/9/8/2bbb2/bbbbbb/bbbb1 w", false, -1, []int32{1, 1}, ""},
		{"wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 w", true, abalone.Black, []int32{6, 1}, "six pushed off"},
		{"wwwww/wwwwww/2ww3/8/9/8/2bbb2/bbbbbb/bbbb1 b 10/10", true, -1, []int32{1, 1}, "draw"},
		{"bbbbb/wwwwww/7/8/9/8/7/wwwwww/bbbbb b", true, abalone.White, []int32{2, 4}, "no legal move"},
	}
	for _, tt := range tests {
		sc, err := srv.Score(context.Background(), &gamerulesv1.ScoreRequest{Game: abGame, State: textState(tt.text)})
		if err != nil {
			t.Fatalf("Score(%q) = %v", tt.text, err)
		}
		if sc.GetFinished() != tt.finished || (sc.Winner != nil) != (tt.winner >= 0) || sc.GetWinner() != max(tt.winner, 0) || !slices.Equal(sc.GetPoints(), tt.points) || sc.GetDetail() != tt.detail {
			t.Errorf("Score(%q) = %v; want finished %v winner %d points %v %q", tt.text, sc, tt.finished, tt.winner, tt.points, tt.detail)
		}
		lm, err := srv.LegalMoves(context.Background(), &gamerulesv1.LegalMovesRequest{Game: abGame, State: textState(tt.text)})
		if err != nil || (len(lm.GetMoves()) == 0) != tt.finished {
			t.Errorf("LegalMoves(%q) = %d moves, %v", tt.text, len(lm.GetMoves()), err)
		}
	}
}
