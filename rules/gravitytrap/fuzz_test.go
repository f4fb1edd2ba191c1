package gravitytrap_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
	gt "github.com/gamerules/gamerules/rules/gravitytrap"
)

var fuzzStates = []string{
	"...................... R",
	"...................... B rings m",
	"R..................... B",
	"R..................... B m",
	"RoooBooooooooooooooooo r",
	"RoooBooooooooooooooooo r rings",
	"oooo.oooRoooooooooooBo b",
	"oooooooo...oooooooooRB b",
	"ooRooooooo..oooooooBoo r rings",
	"Ro..o....B..........o. b",
	"RoooBooooooooooooooooo r default",
	"RoooBooooooooooooooooo  r",
	"",
}

// FuzzParseState: ParseState never panics; what it accepts is valid,
// round-trips exactly, and every legal move applies to a valid state.
func FuzzParseState(f *testing.F) {
	for _, s := range fuzzStates {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := gt.ParseState(text)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("ParseState(%q) = %v; want ErrInvalidState", text, err)
			}
			return
		}
		if s.String() != text {
			t.Fatalf("ParseState(%q).String() = %q", text, s)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseState(%q) accepted an invalid state: %v", text, err)
		}
		moves := s.LegalMoves()
		if s.Outcome().Finished != (len(moves) == 0) {
			t.Fatalf("%s: Finished %v with %d moves", s, s.Outcome().Finished, len(moves))
		}
		for _, m := range moves {
			n, err := s.Apply(m)
			if err != nil {
				t.Fatalf("%s: Apply(%v) = %v", s, m, err)
			}
			if err := n.Validate(); err != nil {
				t.Fatalf("%s: Apply(%v) = %s, invalid: %v", s, m, n, err)
			}
		}
	})
}

// FuzzApply: any move text on any state either parses and applies exactly
// when it is among LegalMoves, or fails with one of the error kinds.
func FuzzApply(f *testing.F) {
	for _, s := range fuzzStates {
		for _, m := range []string{"0", "1", "4", "11", "place 11", "place 3", "21", "22", "x", ""} {
			f.Add(s, m)
		}
	}
	f.Fuzz(func(t *testing.T, text, move string) {
		s, err := gt.ParseState(text)
		if err != nil {
			return
		}
		m, err := gt.ParseMove(s, move)
		if err != nil {
			var pe *game.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, game.ErrIllegalMove) {
				t.Fatalf("ParseMove(%s, %q) = %v; want a ParseError wrapping ErrIllegalMove", s, move, err)
			}
			return
		}
		legal := slices.Contains(s.LegalMoves(), m)
		n, err := s.Apply(m)
		switch {
		case legal && err != nil:
			t.Fatalf("%s: Apply(%v) = %v; the move is in LegalMoves", s, m, err)
		case !legal && err == nil:
			t.Fatalf("%s: Apply(%v) = %s; the move is not in LegalMoves", s, m, n)
		case err != nil && !errors.Is(err, game.ErrIllegalMove) && !errors.Is(err, game.ErrGameOver):
			t.Fatalf("%s: Apply(%v) = %v; want ErrIllegalMove or ErrGameOver", s, m, err)
		case err != nil && errors.Is(err, game.ErrGameOver) != s.Outcome().Finished:
			t.Fatalf("%s: Apply(%v) = %v with Finished %v", s, m, err, s.Outcome().Finished)
		case err == nil:
			if verr := n.Validate(); verr != nil {
				t.Fatalf("%s: Apply(%v) = %s, invalid: %v", s, m, n, verr)
			}
		}
	})
}

// FuzzParseBoardJSON: the board validator never panics; a board it accepts
// has symmetric neighbours, survives Def→NewBoard, and a game on it (first
// legal move each ply) ends within MaxPlies with valid states throughout.
func FuzzParseBoardJSON(f *testing.F) {
	for _, s := range []string{
		`{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[[0,1,2],[2,3]],"opposite":[2,3,0,1]}`,
		`{"stations":[{"id":0},{"id":1},{"id":2},{"id":3},{"id":4}],"lines":[[0,1,2,3]]}`,
		`{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[[0,1,1]]}`,
		`{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[[0,7]]}`,
		`{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"lines":[[0]],"opposite":[0,1,2,3]}`,
		`{"stations":[{"id":0},{"id":1},{"id":2},{"id":3}],"opposite":[1,2,3,0]}`,
		`{"stations":[]}`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := gt.ParseBoardJSON(data)
		if err != nil {
			if !errors.Is(err, game.ErrInvalidState) {
				t.Fatalf("ParseBoardJSON(%q) = %v; want ErrInvalidState", data, err)
			}
			return
		}
		n := b.NumStations()
		for i := 0; i < n; i++ {
			for _, j := range b.Neighbours(i) {
				if j == i || !slices.Contains(b.Neighbours(j), i) {
					t.Fatalf("%q: Neighbours(%d) has %d but not the reverse", data, i, j)
				}
			}
			if o, ok := b.Opposite(i); ok {
				if p, _ := b.Opposite(o); p != i || o == i {
					t.Fatalf("%q: opposite(%d) = %d, opposite(%d) = %d", data, i, o, o, p)
				}
			}
		}
		if _, err := gt.NewBoard(b.Def()); err != nil {
			t.Fatalf("NewBoard(Def()) = %v", err)
		}
		s, err := gt.New(gt.Options{Board: b})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ; ply++ {
			if err := s.Validate(); err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if back, err := gt.ParseStateOn(b, s.String()); err != nil || back != s {
				t.Fatalf("ParseStateOn(%q) = %v, %v", s, back, err)
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if ply >= b.MaxPlies() {
				t.Fatalf("%s: not over after %d plies", s, ply)
			}
			if s, err = s.Apply(moves[ply%len(moves)]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
