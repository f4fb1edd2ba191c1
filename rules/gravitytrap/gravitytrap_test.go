package gravitytrap_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
	gt "github.com/gamerules/gamerules/rules/gravitytrap"
	"github.com/gamerules/gamerules/rules/rulestest"
)

// hexDef is a caller's 6-station board, as a request would send it:
//
//	  0
//	1   5
//	2   4
//	  3
//
// with the lines 0-1-2-3 and 3-4-5-0 (the two halves of a ring) and the
// chord 1-4; opposite(i) = (i+3) mod 6.
var hexDef = gt.BoardDef{
	Stations: []gt.Station{{ID: 0}, {ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}, {ID: 5}},
	Lines:    [][]int{{0, 1, 2, 3}, {3, 4, 5, 0}, {1, 4}},
	Opposite: []int{3, 4, 5, 0, 1, 2},
}

func mustBoard(t testing.TB, def gt.BoardDef) *gt.Board {
	t.Helper()
	b, err := gt.NewBoard(def)
	if err != nil {
		t.Fatalf("NewBoard: %v", err)
	}
	return b
}

func mustParse(t testing.TB, text string) gt.State {
	t.Helper()
	s, err := gt.ParseState(text)
	if err != nil {
		t.Fatalf("ParseState(%q) = %v", text, err)
	}
	return s
}

func stations(ms []gt.Move) []int {
	out := []int{}
	for _, m := range ms {
		out = append(out, m.Station)
	}
	return out
}

// play applies moves given in notation and returns the final state.
func play(t testing.TB, s gt.State, moves ...string) gt.State {
	t.Helper()
	for _, text := range moves {
		m, err := gt.ParseMove(s, text)
		if err != nil {
			t.Fatalf("%s: ParseMove(%q) = %v", s, text, err)
		}
		if s, err = s.Apply(m); err != nil {
			t.Fatalf("Apply(%q) = %v", text, err)
		}
	}
	return s
}

func TestInfo(t *testing.T) {
	if got := gt.Info(); got.ID != "gravity_trap" || got.Name != "Gravity Trap" || !slices.Equal(got.Players, []string{"red", "blue"}) || got.MinPlayers != 2 || got.MaxPlayers != 2 || got.HasChance || got.HasHiddenInformation {
		t.Errorf("Info() = %+v", got)
	}
	for _, b := range []*gt.Board{gt.DefaultBoard(), gt.RingsBoard()} {
		if b.NumStations() != 22 || b.MaxPlies() != 22 || !b.Builtin() || b.Note() == "" {
			t.Errorf("board %q: %d stations, max plies %d, builtin %v", b.Name(), b.NumStations(), b.MaxPlies(), b.Builtin())
		}
		for i := 0; i < 22; i++ {
			if o, ok := b.Opposite(i); !ok || o != (i+11)%22 {
				t.Errorf("%s: Opposite(%d) = %d, %v; want %d", b.Name(), i, o, ok, (i+11)%22)
			}
		}
	}
	// Hand-read from board-default.json: station 9 lies on [21 8 9] and [9 10].
	if got := gt.DefaultBoard().Neighbours(9); !slices.Equal(got, []int{8, 10, 21}) {
		t.Errorf("default Neighbours(9) = %v; want [8 10 21]", got)
	}
	// On rings, station 0 lies on the outer ring and on [0 4 8].
	if got := gt.RingsBoard().Neighbours(0); !slices.Equal(got, []int{1, 2, 3, 4, 8, 11, 12, 13, 14}) {
		t.Errorf("rings Neighbours(0) = %v", got)
	}
	if got := gt.DefaultBoard().Lines(); len(got) != 16 || len(gt.RingsBoard().Lines()) != 7 {
		t.Errorf("default has %d lines, rings %d; want 16 and 7", len(got), len(gt.RingsBoard().Lines()))
	}
	var nilBoard *gt.Board
	if nilBoard.Name() != "default" || nilBoard.NumStations() != 22 {
		t.Errorf("nil board: %q with %d stations; want the default board", nilBoard.Name(), nilBoard.NumStations())
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		o    gt.Options
		want string
	}{
		{gt.Options{}, "...................... R"},
		{gt.Options{First: gt.Blue}, "...................... B"},
		{gt.Options{Board: gt.RingsBoard()}, "...................... R rings"},
		{gt.Options{Board: gt.RingsBoard(), First: gt.Blue, AllowMirrorPlacement: true}, "...................... B rings m"},
		{gt.Options{Board: mustBoard(t, hexDef)}, "...... R"},
	}
	for _, tc := range tests {
		s, err := gt.New(tc.o)
		if err != nil || s.String() != tc.want {
			t.Errorf("New(%+v) = %q, %v; want %q", tc.o, s, err, tc.want)
		}
		if len(s.LegalMoves()) != s.Board().NumStations() {
			t.Errorf("New(%+v): %d placements; want every station", tc.o, len(s.LegalMoves()))
		}
	}
	for _, first := range []int{-1, 2} {
		if _, err := gt.New(gt.Options{First: first}); !errors.Is(err, game.ErrInvalidOptions) {
			t.Errorf("New(First: %d) = %v; want ErrInvalidOptions", first, err)
		}
	}
}

// TestSetUp plays the set-up of the spec's examples and checks the marbles
// arrive after the second ship, with the first placer to move.
func TestSetUp(t *testing.T) {
	s, _ := gt.New(gt.Options{})
	s = play(t, s, "place 0")
	if s.String() != "R..................... B" {
		t.Fatalf("after place 0: %q", s)
	}
	s = play(t, s, "4")
	if s.String() != "RoooBooooooooooooooooo r" || s.Marbles() != 20 || s.Placing() {
		t.Fatalf("after place 4: %q", s)
	}
	if got := stations(s.LegalMoves()); !slices.Equal(got, []int{1, 8, 14}) {
		t.Errorf("LegalMoves = %v; want [1 8 14] (4 holds blue)", got)
	}

	s, _ = gt.New(gt.Options{First: gt.Blue})
	s = play(t, s, "place 3", "place 5")
	if s.String() != "oooBoRoooooooooooooooo b" {
		t.Fatalf("blue first: %q; want blue on 3, red on 5, blue to move", s)
	}
}

// TestMirrorBan: the second player may not place opposite the first ship
// unless allow_mirror_placement; a board without an opposite map bans
// nothing.
func TestMirrorBan(t *testing.T) {
	for _, b := range []*gt.Board{gt.DefaultBoard(), gt.RingsBoard()} {
		for first := 0; first < 22; first++ {
			opp := (first + 11) % 22
			s, _ := gt.New(gt.Options{Board: b})
			s = play(t, s, "place "+itoa(first))
			got := stations(s.LegalMoves())
			if len(got) != 20 || slices.Contains(got, first) || slices.Contains(got, opp) {
				t.Errorf("%s: after place %d: LegalMoves = %v; want all but %d and %d", b.Name(), first, got, first, opp)
			}
			_, err := s.Apply(gt.Move{Place: true, Station: opp})
			if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "mirror") {
				t.Errorf("%s: place %d after %d = %v; want the mirror ban", b.Name(), opp, first, err)
			}

			s, _ = gt.New(gt.Options{Board: b, AllowMirrorPlacement: true})
			s = play(t, s, "place "+itoa(first))
			if got := stations(s.LegalMoves()); len(got) != 21 || !slices.Contains(got, opp) {
				t.Errorf("%s with m: after place %d: LegalMoves = %v; want all but %d", b.Name(), first, got, first)
			}
			s = play(t, s, "place "+itoa(opp))
			if s.Placing() || !s.AllowMirrorPlacement() || !strings.HasSuffix(s.String(), " m") {
				t.Errorf("%s with m: mirror placement gave %q", b.Name(), s)
			}
		}
	}
	noOpp := hexDef
	noOpp.Opposite = nil
	s, _ := gt.New(gt.Options{Board: mustBoard(t, noOpp)})
	s = play(t, s, "place 0")
	if got := stations(s.LegalMoves()); !slices.Equal(got, []int{1, 2, 3, 4, 5}) {
		t.Errorf("no opposite map: LegalMoves = %v; want [1 2 3 4 5]", got)
	}
	// The flag m is only meaningful during set-up (spec "Text form"): a
	// moving-phase state with the ships on opposite stations is valid
	// without it.
	for _, text := range []string{"RooooooooooBoooooooooo r", "BooooooooooRoooooooooo b rings"} {
		if _, err := gt.ParseState(text); err != nil {
			t.Errorf("ParseState(%q) = %v; want valid (m only matters during set-up)", text, err)
		}
	}
}

// TestCustomBoard plays a whole game on a caller's 6-station board and
// checks the text form carries no board token and parses only against the
// board.
func TestCustomBoard(t *testing.T) {
	b := mustBoard(t, hexDef)
	if b.Builtin() || b.Name() != "" || b.NumStations() != 6 {
		t.Fatalf("custom board: name %q builtin %v", b.Name(), b.Builtin())
	}
	s, _ := gt.New(gt.Options{Board: b})
	s = play(t, s, "place 0")
	if got := stations(s.LegalMoves()); !slices.Equal(got, []int{1, 2, 4, 5}) {
		t.Errorf("placements after 0 = %v; want [1 2 4 5] (3 is opposite)", got)
	}
	s = play(t, s, "place 1")
	if s.String() != "RBoooo r" {
		t.Fatalf("after set-up: %q", s)
	}
	// Red on 0: lines 0-1-2-3 and 3-4-5-0; 1 holds blue.
	if got := stations(s.LegalMoves()); !slices.Equal(got, []int{2, 3, 4, 5}) {
		t.Errorf("red's moves = %v; want [2 3 4 5]", got)
	}
	s = play(t, s, "4") // red 0→4; blue on 1 reaches 2, 3 (line 0-1-2-3) and not 4 (red)
	if got := stations(s.LegalMoves()); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("blue's moves = %v; want [2 3]", got)
	}
	s = play(t, s, "2", "3") // blue 1→2, red 4→3: marble 5 is left, blue on 2 cannot reach it
	out := s.Outcome()
	if s.String() != "..BR.o b" || !out.Finished || out.Winner != gt.Red || !slices.Equal(out.Points, []int{1, 0}) || out.Detail != "blue trapped" {
		t.Errorf("end: %q %+v; want red to win with 1, blue trapped", s, out)
	}
	if _, err := s.Apply(gt.Move{Station: 5}); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("Apply after the end = %v; want ErrGameOver", err)
	}

	// The text form travels with the board, never alone.
	back, err := gt.ParseStateOn(b, s.String())
	if err != nil || back != s {
		t.Errorf("ParseStateOn(custom, %q) = %v, %v", s, back, err)
	}
	if _, err := gt.ParseStateOn(b, s.String()+" rings"); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("ParseStateOn(custom, ... rings) = %v; want ErrInvalidState", err)
	}
	if _, err := gt.ParseState(s.String()); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("ParseState(%q) without its board = %v; want ErrInvalidState", s, err)
	}
	pos := s.Position()
	if pos.Board != b || !slices.Equal(pos.Marbles, []int{5}) || pos.Ships != [2]int{3, 2} || pos.ToAct != gt.Blue || pos.Placing {
		t.Errorf("Position() = %+v", pos)
	}
	if back, err := gt.FromPosition(pos); err != nil || back != s {
		t.Errorf("FromPosition(%+v) = %v, %v", pos, back, err)
	}
	// A copy of the board's data makes an equivalent board.
	b2 := mustBoard(t, b.Def())
	if back, err := gt.ParseStateOn(b2, s.String()); err != nil || back.String() != s.String() || back.Outcome().Points[0] != 1 {
		t.Errorf("ParseStateOn(copy of the board, %q) = %v, %v", s, back, err)
	}
}

// TestParseStateOn checks the board token against the board given.
func TestParseStateOn(t *testing.T) {
	const text = "RoooBooooooooooooooooo r"
	tests := []struct {
		b    *gt.Board
		text string
		ok   bool
	}{
		{nil, text, true},
		{gt.DefaultBoard(), text, true},
		{gt.RingsBoard(), text + " rings", true},
		{gt.RingsBoard(), text, false},
		{gt.DefaultBoard(), text + " rings", false},
		{gt.DefaultBoard(), text + " default", false},
		{gt.RingsBoard(), text + " rings m", true},
	}
	for _, tc := range tests {
		s, err := gt.ParseStateOn(tc.b, tc.text)
		if (err == nil) != tc.ok {
			t.Errorf("ParseStateOn(%q, %q) = %v; want ok %v", tc.b.Name(), tc.text, err, tc.ok)
			continue
		}
		if err == nil && (s.String() != tc.text || s.Board() != tc.b && tc.b != nil) {
			t.Errorf("ParseStateOn(%q, %q) = %q on %q", tc.b.Name(), tc.text, s, s.Board().Name())
		}
		if err != nil && !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("ParseStateOn(%q, %q) = %v; want ErrInvalidState", tc.b.Name(), tc.text, err)
		}
	}
}

func itoa(i int) string { return gt.Move{Station: i}.String() }

// TestBoardValidation: invalid boards are ErrInvalidState with the reason.
func TestBoardValidation(t *testing.T) {
	st := func(n int) []gt.Station {
		out := make([]gt.Station, n)
		for i := range out {
			out[i].ID = i
		}
		return out
	}
	// pairs returns n distinct lines of two stations on a 64-station board.
	pairs := func(n int) [][]int {
		var out [][]int
		for a := 0; a < 64 && len(out) < n; a++ {
			for b := a + 1; b < 64 && len(out) < n; b++ {
				out = append(out, []int{a, b})
			}
		}
		return out
	}
	tests := []struct {
		name string
		def  gt.BoardDef
		want string // in the error; "" = valid
	}{
		{"hex", hexDef, ""},
		{"MaxLines lines", gt.BoardDef{Stations: st(64), Lines: pairs(gt.MaxLines)}, ""},
		{"too many lines", gt.BoardDef{Stations: st(64), Lines: pairs(gt.MaxLines + 1)}, "at most 256 lines, not 257"},
		{"same line twice", gt.BoardDef{Stations: st(4), Lines: [][]int{{0, 1, 2}, {2, 3}, {0, 1, 2}}}, "lines 0 and 2 join the same stations"},
		{"same line reversed", gt.BoardDef{Stations: st(4), Lines: [][]int{{0, 1, 2}, {2, 3}, {2, 1, 0}}}, "lines 0 and 2 join the same stations"},
		{"same line reordered", gt.BoardDef{Stations: st(4), Lines: [][]int{{2, 3}, {3, 0}, {0, 2, 1}, {1, 2, 0}}}, "lines 2 and 3 join the same stations"},
		{"line longer than the board", gt.BoardDef{Stations: st(4), Lines: [][]int{{0, 1, 2, 3, 0}}}, "line 0 has 5 stations; the board has 4"},
		{"huge line", gt.BoardDef{Stations: st(4), Lines: [][]int{make([]int, 1<<20)}}, "line 0 has 1048576 stations; the board has 4"},
		{"no lines", gt.BoardDef{Stations: st(4)}, ""},
		{"64 stations", gt.BoardDef{Stations: st(64), Lines: [][]int{{0, 63}}}, ""},
		{"3 stations", gt.BoardDef{Stations: st(3), Lines: [][]int{{0, 1, 2}}}, "4..64 stations, not 3"},
		{"65 stations", gt.BoardDef{Stations: st(65)}, "4..64 stations, not 65"},
		{"id out of order", gt.BoardDef{Stations: []gt.Station{{ID: 0}, {ID: 2}, {ID: 1}, {ID: 3}}}, "stations[1] has id 2"},
		{"unknown station", gt.BoardDef{Stations: st(4), Lines: [][]int{{0, 1}, {2, 4}}}, "line 1 names unknown station 4"},
		{"negative station", gt.BoardDef{Stations: st(4), Lines: [][]int{{-1, 1}}}, "unknown station -1"},
		{"line of one", gt.BoardDef{Stations: st(4), Lines: [][]int{{0, 1}, {2}}}, "line 1 has 1 station(s)"},
		{"empty line", gt.BoardDef{Stations: st(4), Lines: [][]int{{}}}, "line 0 has 0 station(s)"},
		{"station twice", gt.BoardDef{Stations: st(4), Lines: [][]int{{0, 1, 2, 1}}}, "line 0 lists station 1 twice"},
		{"opposite too short", gt.BoardDef{Stations: st(4), Opposite: []int{1, 0}}, "2 entries for 4 stations"},
		{"opposite fixed point", gt.BoardDef{Stations: st(4), Opposite: []int{1, 0, 2, 3}}, "station 2 is its own opposite"},
		{"opposite not involution", gt.BoardDef{Stations: st(4), Opposite: []int{1, 2, 3, 0}}, "not an involution: opposite(0) = 1 but opposite(1) = 2"},
		{"opposite unknown", gt.BoardDef{Stations: st(4), Opposite: []int{1, 0, 3, 9}}, "opposite of station 3 is unknown station 9"},
	}
	for _, tc := range tests {
		b, err := gt.NewBoard(tc.def)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: NewBoard = %v; want a board", tc.name, err)
		case tc.want == "" && b.NumStations() != len(tc.def.Stations):
			t.Errorf("%s: NumStations() = %d", tc.name, b.NumStations())
		case tc.want != "" && (!errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: NewBoard = %v; want ErrInvalidState with %q", tc.name, err, tc.want)
		}
	}

	// JSON in the shape of the shipped files.
	b, err := gt.ParseBoardJSON([]byte(`{"name":"x","stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[[0,1,2],[2,3]],"opposite":[2,3,0,1]}`))
	if err != nil || b.Name() != "" || !slices.Equal(b.Neighbours(2), []int{0, 1, 3}) {
		t.Errorf("ParseBoardJSON = %v, %v", b, err)
	}
	for _, bad := range []string{``, `{`, `{"stations":3}`, `{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[[0,1.5]]}`} {
		if _, err := gt.ParseBoardJSON([]byte(bad)); !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("ParseBoardJSON(%q) = %v; want ErrInvalidState", bad, err)
		}
	}
	if _, err := gt.BuiltinBoard("moon"); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("BuiltinBoard(moon) = %v; want ErrInvalidState", err)
	}
	// The board is copied: changing the definition afterwards changes nothing.
	def := gt.BoardDef{Stations: st(4), Lines: [][]int{{0, 1}}, Opposite: []int{1, 0, 3, 2}}
	b = mustBoard(t, def)
	def.Lines[0][1], def.Opposite[0] = 2, 2
	if got := b.Neighbours(0); !slices.Equal(got, []int{1}) {
		t.Errorf("after changing the def: Neighbours(0) = %v; want [1]", got)
	}
	if o, _ := b.Opposite(0); o != 1 {
		t.Errorf("after changing the def: Opposite(0) = %d; want 1", o)
	}
}

// TestParseStateErrors: malformed or impossible text is ErrInvalidState.
func TestParseStateErrors(t *testing.T) {
	tests := []struct {
		text string
		want string // in the error
	}{
		{"", "want `<stations>"},
		{"RoooBooooooooooooooooo", "want `<stations>"},
		{"RoooBooooooooooooooooo  r", "single spaces"},
		{"RoooBooooooooooooooooo r ", "single spaces"},
		{" RoooBooooooooooooooooo r", "single spaces"},
		{"RoooBooooooooooooooooo x", "player to act"},
		{"RoooBooooooooooooooooo rb", "player to act"},
		{"RoooBoooooooooooooooo r", "22, not 21"},
		{"RoooBoooooooooooooooooo r", "22, not 23"},
		{"RoooBoooooooooooooooox r", "not \"x\""},
		{"RoooRooooooooooooooooo r", "two red ships"},
		{"RoooBooooooooooooooooo r moon", "unknown board \"moon\""},
		{"RoooBooooooooooooooooo r default", "without a name"},
		{"RoooBooooooooooooooooo r m rings", "unexpected \"m\""},
		{"RoooBooooooooooooooooo r m m", "unexpected \"m\""},
		{"RoooBooooooooooooooooo r rings rings", "unexpected \"rings\""},
		{"RoooBooooooooooooooooo r rings m x", "want `<stations>"},
		// Parsed, then refused by Validate.
		{"Rooo.ooooooooooooooooo r", "blue ship not placed"},
		{"R..................... R", "red is to place but his ship is already on station 0"},
		{"Ro.................... B", "marbles on the board during set-up"},
		{"RoooBooooooooooooooooo R", "marbles on the board during set-up"},
		{"oooooooooooooooooooo.R r", "blue ship not placed"},
		// One move made (station 2 empty) but blue, who moved last, is on 4: no line joins 2 and 4.
		{"Ro.oBooooooooooooooooo r", "blue moved last but no empty station shares a line with his station 4"},
		// Two moves made (1 and 2 empty): blue on 4 never left a station on his lines.
		{"R..oBooooooooooooooooo b", "blue has moved but no empty station shares a line with his station 4"},
	}
	for _, tc := range tests {
		_, err := gt.ParseState(tc.text)
		if !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseState(%q) = %v; want ErrInvalidState with %q", tc.text, err, tc.want)
		}
	}
	var pe *game.ParseError
	if _, err := gt.ParseState("RoooBoooooooooooooooox r"); !errors.As(err, &pe) || pe.Offset != 21 {
		t.Errorf("ParseState with x at 21 = %v; want a ParseError at offset 21", err)
	}
}

// TestPositionErrors: typed states are checked like text ones.
func TestPositionErrors(t *testing.T) {
	good := mustParse(t, "RoooBooooooooooooooooo r").Position()
	tests := []struct {
		name string
		edit func(p *gt.Position)
		want string
	}{
		{"marble off the board", func(p *gt.Position) { p.Marbles = append(p.Marbles, 22) }, "unknown station 22"},
		{"marble twice", func(p *gt.Position) { p.Marbles = append(p.Marbles, 1) }, "station 1 listed twice"},
		{"marble under a ship", func(p *gt.Position) { p.Marbles = append(p.Marbles, 0) }, "red ship on station 0 which holds a marble"},
		{"ship off the board", func(p *gt.Position) { p.Ships[1] = 30 }, "blue ship on unknown station 30"},
		{"ships together", func(p *gt.Position) { p.Ships[1] = 0 }, "both ships on station 0"},
		{"no player", func(p *gt.Position) { p.ToAct = 2 }, "player to act 2"},
	}
	for _, tc := range tests {
		p := good
		p.Marbles = slices.Clone(good.Marbles)
		tc.edit(&p)
		if _, err := gt.FromPosition(p); !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: FromPosition = %v; want ErrInvalidState with %q", tc.name, err, tc.want)
		}
	}
	if s, err := gt.FromPosition(good); err != nil || s.String() != "RoooBooooooooooooooooo r" {
		t.Errorf("FromPosition(good) = %v, %v", s, err)
	}
	var zero gt.State
	if err := zero.Validate(); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("zero State: Validate() = %v; want ErrInvalidState", err)
	}
	if _, err := zero.Apply(gt.Move{Station: 1}); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("zero State: Apply = %v; want ErrInvalidState", err)
	}
	if _, err := gt.ParseMove(zero, "1"); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("zero State: ParseMove = %v; want ErrInvalidState", err)
	}
	if zero.LegalMoves() != nil || zero.Outcome().Finished || zero.String() != "" {
		t.Errorf("zero State: LegalMoves %v, Outcome %+v, String %q", zero.LegalMoves(), zero.Outcome(), zero)
	}
}

// TestApplyErrors: every way a move can be illegal says why.
func TestApplyErrors(t *testing.T) {
	tests := []struct {
		state string
		move  gt.Move
		kind  error
		want  string
	}{
		{"RoooBooooooooooooooooo r", gt.Move{Station: 0}, game.ErrIllegalMove, "red ship is on station 0 already"},
		{"RoooBooooooooooooooooo r", gt.Move{Station: 4}, game.ErrIllegalMove, "station 4 holds the blue ship"},
		{"RoooBooooooooooooooooo r", gt.Move{Station: 2}, game.ErrIllegalMove, "station 2 is on no line through station 0"},
		{"RoooBooooooooooooooooo r", gt.Move{Station: 22}, game.ErrIllegalMove, "no station 22"},
		{"RoooBooooooooooooooooo r", gt.Move{Station: -1}, game.ErrIllegalMove, "no station -1"},
		{"RoooBooooooooooooooooo r", gt.Move{Place: true, Station: 1}, game.ErrIllegalMove, "set-up is over"},
		// Blue came from 4 to 5; 4 is on red's line [0 4 8] but empty.
		{"Rooo.Boooooooooooooooo r", gt.Move{Station: 4}, game.ErrIllegalMove, "station 4 is empty"},
		{"R..................... B", gt.Move{Station: 0, Place: true}, game.ErrIllegalMove, "station 0 holds the red ship"},
		{"R..................... B", gt.Move{Station: 11, Place: true}, game.ErrIllegalMove, "mirror placement is banned"},
		{"R..................... B", gt.Move{Station: 5}, game.ErrIllegalMove, "must place his ship first"},
		{"oooooooo...oooooooooRB b", gt.Move{Station: 10}, game.ErrGameOver, "red has won"},
	}
	for _, tc := range tests {
		s := mustParse(t, tc.state)
		_, err := s.Apply(tc.move)
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Apply(%v) = %v; want %v with %q", tc.state, tc.move, err, tc.kind, tc.want)
		}
	}
}

func TestParseMove(t *testing.T) {
	setUp := mustParse(t, "R..................... B")
	moving := mustParse(t, "RoooBooooooooooooooooo r")
	tests := []struct {
		s    gt.State
		text string
		want gt.Move
		ok   bool
	}{
		{moving, "7", gt.Move{Station: 7}, true},
		{moving, "21", gt.Move{Station: 21}, true},
		{moving, "07", gt.Move{Station: 7}, true},
		{moving, "place 7", gt.Move{Place: true, Station: 7}, true}, // parses; Apply refuses it
		{setUp, "place 7", gt.Move{Place: true, Station: 7}, true},
		{setUp, "7", gt.Move{Place: true, Station: 7}, true},
		{moving, "22", gt.Move{}, false},
		{moving, "99999999999999999999999", gt.Move{}, false},
		{moving, "", gt.Move{}, false},
		{moving, "-1", gt.Move{}, false},
		{moving, "+1", gt.Move{}, false},
		{moving, " 7", gt.Move{}, false},
		{moving, "7 ", gt.Move{}, false},
		{setUp, "place", gt.Move{}, false},
		{setUp, "place ", gt.Move{}, false},
		{setUp, "place  7", gt.Move{}, false},
		{setUp, "Place 7", gt.Move{}, false},
	}
	for _, tc := range tests {
		got, err := gt.ParseMove(tc.s, tc.text)
		if tc.ok && (err != nil || got != tc.want) {
			t.Errorf("ParseMove(%s, %q) = %v, %v; want %v", tc.s, tc.text, got, err, tc.want)
		}
		var pe *game.ParseError
		if !tc.ok && (!errors.As(err, &pe) || !errors.Is(err, game.ErrIllegalMove)) {
			t.Errorf("ParseMove(%s, %q) = %v, %v; want a ParseError wrapping ErrIllegalMove", tc.s, tc.text, got, err)
		}
	}
}

// TestEndRule: hand-built end positions for each case of spec "End and
// score", on the default board (lines [14 0 1] [0 4 8] [21 8 9] [9 10] ...).
func TestEndRule(t *testing.T) {
	tests := []struct {
		name   string
		state  string
		winner int // game.NoWinner: unfinished
		score  int
	}{
		// Red just moved to 9; its lines [21 8 9] [9 10] hold no marble: red is
		// stuck and loses; blue on 0 still reaches 1, 4 and 14 (figure D).
		{"mover stuck", "Booooooo.R.oooooooooo. b", gt.Blue, 3},
		// The same with red to move: the player who just moved (blue) is not
		// stuck, the player to move is: blue wins again.
		{"player to move stuck", "Booooooo.R.oooooooooo. r", gt.Blue, 3},
		// Blue just moved and is stuck on 9, red stuck too: red wins with 0.
		{"both stuck, blue moved last", "........B.R........... r", gt.Red, 0},
		{"both stuck, red moved last", "........B.R........... b", gt.Blue, 0},
		// Blue on 9 is stuck ([21 8 9] [9 10] empty); red on 0 reaches 1 and
		// 4. Blue just moved: his last move, red wins with 2; with blue to
		// move he is stuck and loses all the same.
		{"blue stuck after his move", "Ro..o....B..........o. r", gt.Red, 2},
		{"blue stuck, to move", "Ro..o....B..........o. b", gt.Red, 2},
		{"nobody stuck", "RoooBooooooooooooooooo r", game.NoWinner, 0},
	}
	for _, tc := range tests {
		s, err := gt.ParseState(tc.state)
		if err != nil {
			t.Errorf("%s: ParseState(%q) = %v", tc.name, tc.state, err)
			continue
		}
		out := s.Outcome()
		if tc.winner == game.NoWinner {
			if out.Finished || len(s.LegalMoves()) == 0 {
				t.Errorf("%s: Outcome(%s) = %+v; want unfinished", tc.name, tc.state, out)
			}
			continue
		}
		want := []int{0, 0}
		want[tc.winner] = tc.score
		if !out.Finished || out.Winner != tc.winner || !slices.Equal(out.Points, want) || len(s.LegalMoves()) != 0 ||
			out.Detail != [2]string{"blue trapped", "red trapped"}[tc.winner] {
			t.Errorf("%s: Outcome(%s) = %+v, %d moves; want winner %d, points %v", tc.name, tc.state, out, len(s.LegalMoves()), tc.winner, want)
		}
	}

	// Right after set-up on a board with a lone station 4: a stuck second
	// player loses, else a stuck first player loses.
	lone := mustBoard(t, gt.BoardDef{
		Stations: []gt.Station{{ID: 0}, {ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}},
		Lines:    [][]int{{0, 1, 2, 3}},
	})
	for _, tc := range []struct {
		red, blue string
		winner    int
	}{{"place 0", "place 4", gt.Red}, {"place 4", "place 0", gt.Blue}} {
		s, _ := gt.New(gt.Options{Board: lone})
		s = play(t, s, tc.red, tc.blue)
		want := []int{0, 0}
		want[tc.winner] = 3
		if out := s.Outcome(); !out.Finished || out.Winner != tc.winner || !slices.Equal(out.Points, want) {
			t.Errorf("lone board, red %s, blue %s: %s %+v; want winner %d with 3", tc.red, tc.blue, s, out, tc.winner)
		}
	}
}

// referenceMoves is a naive move generator read off the board's lines, to
// cross-check the bitset one.
func referenceMoves(s gt.State) []gt.Move {
	if s.Outcome().Finished {
		return nil
	}
	b := s.Board()
	me := s.ToAct()
	set := map[int]bool{}
	if s.Placing() {
		other := s.Ship(1 - me)
		for i := 0; i < b.NumStations(); i++ {
			if o, ok := b.Opposite(other); i != other && !(ok && o == i && !s.AllowMirrorPlacement()) {
				set[i] = true
			}
		}
	} else {
		for _, line := range b.Lines() {
			if !slices.Contains(line, s.Ship(me)) {
				continue
			}
			for _, st := range line {
				if s.HasMarble(st) {
					set[st] = true
				}
			}
		}
	}
	var out []gt.Move
	for i := 0; i < b.NumStations(); i++ {
		if set[i] {
			out = append(out, gt.Move{Place: s.Placing(), Station: i})
		}
	}
	return out
}

// TestRandomPlayouts runs the shared harness on both built-in boards, a
// caller's board, both first players and the mirror option, and checks
// each state against the reference generator and its typed form.
func TestRandomPlayouts(t *testing.T) {
	games := 20000
	switch {
	case os.Getenv("GAMERULES_LONG") != "":
		games = 300000
	case testing.Short():
		games = 2000
	}
	hex := mustBoard(t, hexDef)
	boards := []*gt.Board{gt.DefaultBoard(), gt.RingsBoard(), hex}
	total := rulestest.RandomPlayouts(t, games, 6, rulestest.Config[gt.State, gt.Move]{
		Start: func(i int, r *rand.Rand) gt.State {
			s, err := gt.New(gt.Options{Board: boards[i%3], First: r.IntN(2), AllowMirrorPlacement: i%5 == 0})
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		ParseState: func(text string) (gt.State, error) {
			if strings.IndexByte(text, ' ') == hex.NumStations() { // a state on hex: its text names no board
				return gt.ParseStateOn(hex, text)
			}
			return gt.ParseState(text)
		},
		ParseMove: gt.ParseMove,
		MaxPlies:  22,
		Check: func(t testing.TB, s gt.State) {
			if got, want := s.LegalMoves(), referenceMoves(s); !slices.Equal(got, want) {
				t.Fatalf("%s: LegalMoves = %v; reference %v", s, got, want)
			}
			if back, err := gt.FromPosition(s.Position()); err != nil || back != s {
				t.Fatalf("%s: FromPosition(Position()) = %v, %v", s, back, err)
			}
			out := s.Outcome()
			if out.Finished {
				if out.Points[1-out.Winner] != 0 || out.Points[out.Winner] < 0 || out.Points[out.Winner] > s.Marbles() {
					t.Fatalf("%s: Outcome = %+v", s, out)
				}
			} else if out.Winner != game.NoWinner || out.Points[0] != 0 || out.Points[1] != 0 {
				t.Fatalf("%s: unfinished Outcome = %+v", s, out)
			}
		},
	})
	t.Logf("%d games, %d plies", games, total)
}

// TestHugeInputShortError: errors quote at most the first 80 bytes of user
// input (game.Quote), also inside a ParseError's reason, so a megabyte of
// input does not make a megabyte-long error.
func TestHugeInputShortError(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	digits := strings.Repeat("9", 1<<20)
	moving := mustParse(t, "RoooBooooooooooooooooo r")
	_, errBoard := gt.BuiltinBoard(huge)
	_, errName := gt.ParseState("RoooBooooooooooooooooo r " + huge)
	_, errOn := gt.ParseStateOn(mustBoard(t, hexDef), "RoBooo r "+huge)
	_, errTok := gt.ParseState("RoooBooooooooooooooooo r rings " + huge)
	_, errDefault := gt.ParseStateOn(gt.DefaultBoard(), "RoooBooooooooooooooooo r "+huge)
	_, errMove := gt.ParseMove(moving, digits)
	_, errZeros := gt.ParseMove(moving, strings.Repeat("0", 1<<20)+"30")
	_, errPlace := gt.ParseMove(moving, "place "+digits)
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"BuiltinBoard", errBoard, `unknown board "xxx`},
		{"ParseState board name", errName, `unknown board "xxx`},
		{"ParseStateOn board name", errOn, `board "xxx`},
		{"ParseState token", errTok, `unexpected "xxx`},
		{"ParseStateOn default board, board name", errDefault, `board "xxx`},
		{"ParseMove", errMove, `no station that large on this board (0..21)`},
		{"ParseMove place", errPlace, `no station that large`},
		{"ParseMove leading zeros", errZeros, `no station 30 on this board (0..21)`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %.200v; want one with %q", tc.name, tc.err, tc.want)
			continue
		}
		if n := len(tc.err.Error()); n > 400 {
			t.Errorf("%s: error is %d bytes (%.120q...); want the input quoted to 80 bytes", tc.name, n, tc.err.Error())
		}
	}
}
