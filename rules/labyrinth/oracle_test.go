package labyrinth

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"

	"github.com/gamerules/gamerules/rules/game"
)

// oracleRow is one line of testdata/labyrinth/shifts.jsonl.gz (see
// testdata/README.md): a board, its spare and figures, the
// forbidden insertion point, and the result of each of the 48 shifts.
type oracleRow struct {
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

func loadOracle(t testing.TB) []oracleRow {
	t.Helper()
	rows := oracle.JSONL[oracleRow](t, "labyrinth/shifts.jsonl.gz")
	if len(rows) != 80 {
		t.Fatalf("read %d oracle rows; want 80", len(rows))
	}
	return rows
}

// oracleState makes a whole state of an oracle row as the testdata README
// says: targets A–L on the fixed T-junctions, M–R on the loose T-junctions
// and S–X on the first six loose corners (reading order, the spare last),
// the Vader symbol on the first loose straight, cards 1..24 dealt one at a
// time, colours R, Y, G, B in turn order, player 0 to shift.
func oracleState(t testing.TB, r oracleRow) State {
	t.Helper()
	var sn Position
	tiles := strings.Split(r.Board, "/")
	nextT, nextL, vader := uint8(13), uint8(19), false
	mk := func(q Square, digit byte) Tile {
		tile, _, ok := parseTile(string(digit))
		if !ok {
			t.Fatalf("row %d: bad tile %q", r.ID, digit)
		}
		if q.Valid() && isFixed[q] {
			return fixedTile[q]
		}
		switch tile.Shape() {
		case ShapeT:
			tile.Target = nextT
			nextT++
		case ShapeCorner:
			if nextL <= 24 {
				tile.Target = nextL
				nextL++
			}
		case ShapeStraight:
			if !vader {
				tile.Vader, vader = true, true
			}
		}
		return tile
	}
	for q := Square(0); q < NumSquares; q++ {
		sn.Board[q] = mk(q, tiles[q.Row()-1][q.Col()-1])
		if sn.Board[q].Sides != mustSides(t, tiles[q.Row()-1][q.Col()-1]) {
			t.Fatalf("row %d: %v: fixed tile %v differs from the oracle's %c", r.ID, q, sn.Board[q], tiles[q.Row()-1][q.Col()-1])
		}
	}
	sn.Spare = mk(NoSquare, r.Spare[0])
	n := len(r.Figures)
	for p, f := range r.Figures {
		sn.Colors = append(sn.Colors, Color(p))
		sn.Ships = append(sn.Ships, Sq(f[0], f[1]))
		sn.Found = append(sn.Found, nil)
		sn.Stacks = append(sn.Stacks, nil)
	}
	for c := 1; c <= NumTargets; c++ {
		sn.Stacks[(c-1)%n] = append(sn.Stacks[(c-1)%n], uint8(c))
	}
	sn.Vader = NoSquare
	sn.Phase = PhaseShift
	if r.Forbidden != nil {
		p, ok := parsePoint(*r.Forbidden)
		if !ok {
			t.Fatalf("row %d: bad forbidden %q", r.ID, *r.Forbidden)
		}
		sn.Last = p.Opposite()
	}
	s, err := FromPosition(sn)
	if err != nil {
		t.Fatalf("row %d: FromPosition = %v", r.ID, err)
	}
	return s
}

func mustSides(t testing.TB, digit byte) uint8 {
	tile, _, ok := parseTile(string(digit))
	if !ok {
		t.Fatalf("bad tile digit %q", digit)
	}
	return tile.Sides
}

// masks writes the board as the oracle does: 7 rows of 7 hex masks.
func masks(board *[NumSquares]Tile) string {
	var b strings.Builder
	for q := range board {
		if q > 0 && q%7 == 0 {
			b.WriteByte('/')
		}
		b.WriteByte("0123456789abcdef"[board[q].Sides])
	}
	return b.String()
}

func squaresOf(ps [][2]int) []Square {
	out := make([]Square, len(ps))
	for i, p := range ps {
		out[i] = Sq(p[0], p[1])
	}
	return out
}

func figuresOf(s *State) []Square { return append([]Square(nil), s.ships[:s.n]...) }

// TestOracleShifts checks every option of every oracle row: which shifts
// LegalMoves lists (each distinct one once, smallest rotation), and for all
// 48 (point, rotation) pairs the board, spare, figures and each figure's
// reachable squares after the shift. Legal ones go through Apply; the
// reversal is refused by Apply and its would-be result is checked through
// the same push.
func TestOracleShifts(t *testing.T) {
	rows := loadOracle(t)
	checked := 0
	for _, r := range rows {
		s := oracleState(t, r)
		if got := masks(&s.board); got != r.Board {
			t.Fatalf("row %d: board %s; want %s", r.ID, got, r.Board)
		}
		if len(r.Options) != 48 {
			t.Fatalf("row %d: %d options; want 48", r.ID, len(r.Options))
		}
		// The listed shifts: legal options, first (smallest) rotation of each spare orientation.
		var want []string
		seen := map[string]bool{}
		for _, o := range r.Options {
			key := o.Shift + "/" + o.SpareInserted
			if o.Legal && !seen[key] {
				seen[key] = true
				want = append(want, ShiftMove(mustPoint(t, o.Shift), o.Rotation).String())
			}
		}
		var got []string
		for _, m := range s.LegalMoves() {
			got = append(got, m.String())
		}
		if !slices.Equal(got, want) {
			t.Fatalf("row %d: LegalMoves = %v; want %v", r.ID, got, want)
		}

		for _, o := range r.Options {
			m := ShiftMove(mustPoint(t, o.Shift), o.Rotation)
			name := fmt.Sprintf("row %d %v", r.ID, m)
			if got := s.spare.Rotate(o.Rotation).Sides; "0123456789abcdef"[got] != o.SpareInserted[0] {
				t.Fatalf("%s: inserted spare %x; want %s", name, got, o.SpareInserted)
			}
			var after State
			if o.Legal {
				var err error
				after, err = s.Apply(m)
				if err != nil {
					t.Fatalf("%s: Apply = %v; want legal", name, err)
				}
				if after.Phase() != PhaseMove || after.Last() != m.Point {
					t.Fatalf("%s: phase %v, last %v after the shift", name, after.Phase(), after.Last())
				}
				if err := after.Validate(); err != nil {
					t.Fatalf("%s: Validate after = %v", name, err)
				}
			} else {
				if _, err := s.Apply(m); !errors.Is(err, game.ErrIllegalMove) {
					t.Fatalf("%s: Apply = %v; want ErrIllegalMove (reversal)", name, err)
				}
				after = s
				after.spare = after.push(m.Point, s.spare.Rotate(o.Rotation))
			}
			if got := masks(&after.board); got != o.BoardAfter {
				t.Fatalf("%s: board after %s; want %s", name, got, o.BoardAfter)
			}
			if got := after.spare.Sides; "0123456789abcdef"[got] != o.SpareAfter[0] {
				t.Fatalf("%s: spare after %x; want %s", name, got, o.SpareAfter)
			}
			if got, want := figuresOf(&after), squaresOf(o.FiguresAfter); !slices.Equal(got, want) {
				t.Fatalf("%s: figures after %v; want %v", name, got, want)
			}
			for i, reach := range o.Reach {
				if got, want := after.Reachable(after.Ship(i)), squaresOf(reach); !slices.Equal(got, want) {
					t.Fatalf("%s: figure %d reaches %v; want %v", name, i, got, want)
				}
			}
			if o.Legal {
				// The player to act (figure 0) may move exactly to his reachable squares.
				var moves []Square
				for _, mv := range after.LegalMoves() {
					if mv.IsShift() || mv.Vader {
						t.Fatalf("%s: move phase lists %v", name, mv)
					}
					moves = append(moves, mv.To)
				}
				if want := squaresOf(o.Reach[0]); !slices.Equal(moves, want) {
					t.Fatalf("%s: LegalMoves after = %v; want %v", name, moves, want)
				}
			}
			checked++
		}
	}
	if checked != 80*48 {
		t.Fatalf("checked %d options; want %d", checked, 80*48)
	}
}

func mustPoint(t testing.TB, s string) Point {
	p, ok := parsePoint(s)
	if !ok {
		t.Fatalf("bad insertion point %q", s)
	}
	return p
}
