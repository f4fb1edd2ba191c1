package labyrinth_test

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
	lab "github.com/gamerules/gamerules/rules/labyrinth"
	"github.com/gamerules/gamerules/rules/rulestest"
)

var update = flag.Bool("update", false, "rewrite testdata/labyrinth/seeded.golden")

func mustNew(t testing.TB, o lab.Options) lab.State {
	t.Helper()
	s, err := lab.New(o)
	if err != nil {
		t.Fatalf("New(%+v) = %v", o, err)
	}
	return s
}

// edit returns s changed by f through its Position.
func edit(t testing.TB, s lab.State, f func(*lab.Position)) lab.State {
	t.Helper()
	sn := s.Position()
	f(&sn)
	out, err := lab.FromPosition(sn)
	if err != nil {
		t.Fatalf("FromPosition: %v", err)
	}
	return out
}

func mustApply(t testing.TB, s lab.State, notation string) lab.State {
	t.Helper()
	m, err := lab.ParseMove(s, notation)
	if err != nil {
		t.Fatalf("ParseMove(%q) = %v", notation, err)
	}
	next, err := s.Apply(m)
	if err != nil {
		t.Fatalf("%v: Apply(%v) = %v", s, m, err)
	}
	return next
}

func squareOf(s lab.State, target uint8) lab.Square {
	for q := lab.Square(0); q < lab.NumSquares; q++ {
		if s.Tile(q).Target == target {
			return q
		}
	}
	return lab.NoSquare
}

// giveTop moves card c to the top of player p's stack, swapping it with the
// card there (possibly another player's).
func giveTop(sn *lab.Position, p int, c uint8) {
	top := sn.Stacks[p][0]
	for _, st := range sn.Stacks {
		for i := range st {
			if st[i] == c {
				st[i] = top
			}
		}
	}
	sn.Stacks[p][0] = c
}

func moveStrings(ms []lab.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// TestSeededGolden pins the random set-up: the same seed always gives the
// same text. Run with -update to rewrite the golden file after a deliberate
// change to New.
func TestSeededGolden(t *testing.T) {
	var b strings.Builder
	for _, o := range []lab.Options{
		{Players: 2, Seed: 0},
		{Players: 3, Seed: 1, First: 2},
		{Players: 4, Seed: 42, Variants: lab.Variants{Vader: true}},
		{Colors: []lab.Color{lab.Green, lab.Red}, Seed: 7, Variants: lab.Variants{Vader: true, OpenCards: true, NoReturn: true}},
		{Players: 4, Seed: 1<<64 - 1, Variants: lab.Variants{NoReturn: true}},
	} {
		s := mustNew(t, o)
		again := mustNew(t, o)
		if s != again {
			t.Fatalf("New(%+v) twice gave %v and %v", o, s, again)
		}
		fmt.Fprintf(&b, "%+v\n%v\n", o, s)
	}
	const path = "../../testdata/labyrinth/seeded.golden"
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("seeded set-ups changed:\n%s\nwant\n%s", b.String(), want)
	}
	if a, c := mustNew(t, lab.Options{Players: 2, Seed: 1}), mustNew(t, lab.Options{Players: 2, Seed: 2}); a == c {
		t.Fatalf("seeds 1 and 2 give the same game %v", a)
	}
}

func TestNewOptions(t *testing.T) {
	s := mustNew(t, lab.Options{Colors: []lab.Color{lab.Green, lab.Red, lab.Blue}, First: 1})
	if s.Players() != 3 || s.Turn() != 1 || s.Phase() != lab.PhaseShift || s.Last() != lab.NoPoint {
		t.Fatalf("New: players %d, turn %d, phase %v, last %v", s.Players(), s.Turn(), s.Phase(), s.Last())
	}
	for p, want := range []string{"r7c7", "r1c1", "r7c1"} {
		if got := s.Ship(p).String(); got != want {
			t.Errorf("Ship(%d) = %s; want %s", p, got, want)
		}
		if got := len(s.Stack(p)); got != 8 {
			t.Errorf("len(Stack(%d)) = %d; want 8", p, got)
		}
	}
	if got := s.Vader(); got != lab.NoSquare {
		t.Errorf("Vader() = %v without the variant; want NoSquare", got)
	}
	v := mustNew(t, lab.Options{Players: 2, Seed: 3, Variants: lab.Variants{Vader: true}})
	if !v.Tile(v.Vader()).Vader || v.Spare().Vader {
		t.Errorf("Vader starts on %v (tile %v), spare %v; want on the Vader tile", v.Vader(), v.Tile(v.Vader()), v.Spare())
	}
	// With the variant on, the Vader tile is never the spare.
	for seed := uint64(0); seed < 300; seed++ {
		if s := mustNew(t, lab.Options{Players: 2, Seed: seed, Variants: lab.Variants{Vader: true}}); s.Spare().Vader {
			t.Fatalf("seed %d: the Vader tile is the spare", seed)
		}
	}

	layout := &lab.Layout{Board: s.Board(), Spare: s.Spare(), Stacks: [][]uint8{s.Stack(0), s.Stack(1), s.Stack(2)}}
	again := mustNew(t, lab.Options{Colors: []lab.Color{lab.Green, lab.Red, lab.Blue}, First: 1, Layout: layout})
	if again != s {
		t.Errorf("New with the layout of %v gave %v", s, again)
	}

	spareVader := *layout
	for q := lab.Square(0); q < lab.NumSquares; q++ {
		if spareVader.Board[q].Vader {
			spareVader.Board[q], spareVader.Spare = spareVader.Spare, spareVader.Board[q]
		}
	}
	if s := mustNew(t, lab.Options{}); s.Players() != 4 {
		t.Errorf("New(Options{}) has %d players; want 4", s.Players())
	}
	for _, o := range []lab.Options{
		{Colors: []lab.Color{}},
		{Players: 1},
		{Players: 5},
		{Players: 3, Colors: []lab.Color{lab.Red, lab.Blue}},
		{Colors: []lab.Color{lab.Red, lab.Red}},
		{Colors: []lab.Color{lab.Red, 9}},
		{Players: 2, First: 2},
		{Players: 2, First: -1},
		{Players: 3, Layout: &lab.Layout{Board: layout.Board, Spare: layout.Spare, Stacks: layout.Stacks[:2]}},
		{Players: 2, Layout: &lab.Layout{Board: layout.Board, Spare: layout.Spare, Stacks: [][]uint8{layout.Stacks[0], layout.Stacks[1]}}},
		{Players: 3, Layout: &lab.Layout{Spare: layout.Spare, Stacks: layout.Stacks}},
		{Players: 3, Layout: &spareVader, Variants: lab.Variants{Vader: true}},
	} {
		if _, err := lab.New(o); !errors.Is(err, game.ErrInvalidOptions) {
			t.Errorf("New(%+v) = %v; want ErrInvalidOptions", o, err)
		}
	}
	// The layout in text.
	text := strings.Fields(s.String())
	var stacks []string
	for _, st := range strings.Split(text[5], ",") {
		stacks = append(stacks, st[1:])
	}
	l, err := lab.ParseLayout(text[0] + " " + text[1] + " " + strings.Join(stacks, ","))
	if err != nil {
		t.Fatalf("ParseLayout = %v", err)
	}
	if !slices.EqualFunc(l.Stacks, layout.Stacks, slices.Equal) || l.Board != layout.Board || l.Spare != layout.Spare {
		t.Errorf("ParseLayout gave %+v; want %+v", l, layout)
	}
	for _, in := range []string{"", text[0], text[0] + " " + text[1], text[0] + " x A", text[0][2:] + " 5 A", text[0] + " " + text[1] + " A?", text[0] + " " + text[1] + " ABCDEFGHIJKLM"} {
		if _, err := lab.ParseLayout(in); !errors.Is(err, game.ErrInvalidOptions) {
			t.Errorf("ParseLayout(%q) = %v; want ErrInvalidOptions", in, err)
		}
	}
	if _, err := lab.New(lab.Options{Players: 3, Layout: &spareVader}); err != nil {
		t.Errorf("New without Vader, Vader tile as spare = %v; want ok", err)
	}
}

func TestShiftWrapsFigures(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 5, Variants: lab.Variants{Vader: true}})
	s = edit(t, s, func(sn *lab.Position) {
		sn.Ships[0] = lab.Sq(7, 2)
		sn.Ships[1] = lab.Sq(4, 1)
		sn.Vader = lab.Sq(7, 2)
	})
	pushedOut := s.Tile(lab.Sq(7, 2))
	spare := s.Spare()
	after := mustApply(t, s, "N2:1")
	if got, want := after.Tile(lab.Sq(1, 2)), spare.Rotate(1); got != want {
		t.Errorf("after N2:1 r1c2 holds %v; want the turned spare %v", got, want)
	}
	if got := after.Spare(); got != pushedOut {
		t.Errorf("after N2:1 spare = %v; want the pushed-out %v", got, pushedOut)
	}
	if after.Ship(0) != lab.Sq(1, 2) || after.Vader() != lab.Sq(1, 2) || after.Ship(1) != lab.Sq(4, 1) {
		t.Errorf("after N2:1 figures at %v, %v, V %v; want r1c2, r4c1, V r1c2", after.Ship(0), after.Ship(1), after.Vader())
	}
	// A figure in the middle of the line moves one square.
	s2 := edit(t, s, func(sn *lab.Position) { sn.Ships[0] = lab.Sq(4, 3) })
	if got := mustApply(t, s2, "W4").Ship(0); got != lab.Sq(4, 4) {
		t.Errorf("W4 moves r4c3 to %v; want r4c4", got)
	}
	if got := mustApply(t, s2, "E4").Ship(1); got != lab.Sq(4, 7) {
		t.Errorf("E4 moves r4c1 to %v; want r4c7 (wrapped)", got)
	}
	if got := mustApply(t, s2, "S2").Ship(1); got != lab.Sq(4, 1) {
		t.Errorf("S2 moves r4c1 to %v; want it unmoved", got)
	}
}

func TestNoReversal(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 9})
	if got := len(s.LegalMoves()); got != 24 && got != 48 {
		t.Fatalf("first shift: %d moves; want all 12 points (24 or 48)", got)
	}
	s = mustApply(t, s, "N2")
	s = mustApply(t, s, s.Ship(0).String()) // stay
	for _, m := range s.LegalMoves() {
		if m.Point == lab.S2 {
			t.Fatalf("LegalMoves after N2 lists %v", m)
		}
	}
	if got := len(s.LegalMoves()); got != 22 && got != 44 {
		t.Fatalf("after N2: %d shifts; want 11 points", got)
	}
	_, err := s.Apply(lab.ShiftMove(lab.S2, 0))
	if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "reverse") {
		t.Fatalf("S2 after N2: Apply = %v; want ErrIllegalMove about the reversal", err)
	}
	s = mustApply(t, s, "N2") // the same point again is allowed
	s = mustApply(t, s, s.Ship(1).String())
	s = mustApply(t, s, "E4") // only the latest push counts: S2 is free again
	s = mustApply(t, s, s.Ship(0).String())
	mustApply(t, s, "S2")
}

func TestTargetOnSpareNotFound(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 11})
	seed := uint64(11)
	for s.Spare().Target == 0 {
		seed++
		s = mustNew(t, lab.Options{Players: 2, Seed: seed})
	}
	c := s.Spare().Target
	s = edit(t, s, func(sn *lab.Position) {
		giveTop(sn, 0, c)
		sn.Phase, sn.Last = lab.PhaseMove, lab.N2
	})
	moves := s.LegalMoves()
	if len(moves) == 0 {
		t.Fatal("no moves")
	}
	for _, m := range moves {
		next, err := s.Apply(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := next.Found(0); len(got) != 0 {
			t.Fatalf("%v: %v found %v while target %c is on the spare", s, m, got, lab.TargetLetter(c))
		}
	}
}

// vaderGame returns a 2-player Vader game in the move phase where player 0's
// top card is Vader card c (its target on the board), Vader stands on it
// and the ship elsewhere.
func vaderGame(t *testing.T, v lab.Variants) (lab.State, uint8) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 21, Variants: v})
	c := uint8(21)
	for squareOf(s, c) == lab.NoSquare {
		c++
	}
	q := squareOf(s, c)
	s = edit(t, s, func(sn *lab.Position) {
		giveTop(sn, 0, c)
		if sn.Stacks[1][0] >= 21 { // player 1 goes for an ordinary card
			for i, x := range sn.Stacks[1] {
				if x < 21 {
					sn.Stacks[1][0], sn.Stacks[1][i] = x, sn.Stacks[1][0]
					break
				}
			}
		}
		sn.Vader = q
		sn.Phase, sn.Last = lab.PhaseMove, lab.N2
	})
	return s, c
}

func TestVaderCard(t *testing.T) {
	s, c := vaderGame(t, lab.Variants{Vader: true})
	q := s.Vader()
	for _, m := range s.LegalMoves() {
		if !m.Vader {
			t.Fatalf("card %c shows Vader but LegalMoves lists %v", lab.TargetLetter(c), m)
		}
	}
	if _, err := s.Apply(lab.ShipMove(s.Ship(0))); !errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("ship move with a Vader card: %v; want ErrIllegalMove", err)
	}
	next := mustApply(t, s, "V:"+q.String())
	if got := next.Found(0); !slices.Equal(got, []uint8{c}) {
		t.Fatalf("Vader stays on %v: found %v; want [%d]", q, got, c)
	}
	if next.Vader() != q || next.Ship(0) != s.Ship(0) {
		t.Fatalf("after the Vader move: Vader %v, ship %v; want %v, %v", next.Vader(), next.Ship(0), q, s.Ship(0))
	}
	// The next player (an ordinary card) moves his ship; Vader stays put.
	next = mustApply(t, next, "N2")
	for _, m := range next.LegalMoves() {
		if m.Vader {
			t.Fatalf("player 1 with an ordinary card: LegalMoves lists %v", m)
		}
	}
	if _, err := next.Apply(lab.VaderMove(next.Vader())); !errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("Vader move with an ordinary card: %v; want ErrIllegalMove", err)
	}
	// Without the variant the same card is an ordinary target: Vader moves are refused.
	plain := edit(t, s, func(sn *lab.Position) { sn.Variants.Vader, sn.Vader = false, lab.NoSquare })
	if _, err := plain.Apply(lab.VaderMove(q)); !errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("Vader move without the variant: %v; want ErrIllegalMove", err)
	}
	ship := edit(t, plain, func(sn *lab.Position) { sn.Ships[0] = q })
	if got := mustApply(t, ship, q.String()).Found(0); !slices.Equal(got, []uint8{c}) {
		t.Fatalf("without the variant the ship on %v finds %v; want [%d]", q, got, c)
	}
}

func TestOpenCards(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 31, Variants: lab.Variants{OpenCards: true}})
	st := s.Stack(0)
	third := st[2]
	q := squareOf(s, third)
	for q == lab.NoSquare { // on the spare: use another card
		third = st[3]
		q = squareOf(s, third)
	}
	s = edit(t, s, func(sn *lab.Position) {
		sn.Ships[0] = q
		sn.Phase, sn.Last = lab.PhaseMove, lab.W4
	})
	next := mustApply(t, s, q.String())
	if got := next.Found(0); !slices.Equal(got, []uint8{third}) {
		t.Fatalf("open cards, staying on %c: found %v", lab.TargetLetter(third), got)
	}
	want := slices.DeleteFunc(slices.Clone(st), func(c uint8) bool { return c == third })
	if got := next.Stack(0); !slices.Equal(got, want) {
		t.Fatalf("open cards: stack after %v; want %v (order kept)", got, want)
	}
	// The same stay without open cards finds nothing.
	closed := edit(t, s, func(sn *lab.Position) { sn.Variants.OpenCards = false })
	if got := mustApply(t, closed, q.String()).Found(0); len(got) != 0 {
		t.Fatalf("closed cards: staying on the third card found %v", got)
	}

	// Open cards and Vader: both figures while both kinds of card are left.
	ov, c := vaderGame(t, lab.Variants{Vader: true, OpenCards: true})
	ships, vaders := 0, 0
	for _, m := range ov.LegalMoves() {
		if m.Vader {
			vaders++
		} else {
			ships++
		}
	}
	if ships == 0 || vaders == 0 {
		t.Fatalf("open cards with Vader: %d ship and %d Vader moves; want both", ships, vaders)
	}
	// The ship on a Vader card's square does not find it.
	onIt := edit(t, ov, func(sn *lab.Position) { sn.Ships[0] = sn.Vader })
	if got := mustApply(t, onIt, onIt.Vader().String()).Found(0); len(got) != 0 {
		t.Fatalf("ship on Vader card %c found %v", lab.TargetLetter(c), got)
	}
	// Only Vader cards left: only Vader moves.
	onlyVader := edit(t, ov, func(sn *lab.Position) {
		var keep []uint8
		for _, x := range sn.Stacks[0] {
			if x >= 21 {
				keep = append(keep, x)
			} else {
				sn.Found[0] = append(sn.Found[0], x)
			}
		}
		sn.Stacks[0] = keep
	})
	for _, m := range onlyVader.LegalMoves() {
		if !m.Vader {
			t.Fatalf("only Vader cards left: LegalMoves lists %v", m)
		}
	}
}

// lastCard returns s changed so that player p has found all his cards but
// his last one, c, on the board, in the move phase of his turn.
func lastCard(t *testing.T, s lab.State, p int) (lab.State, uint8) {
	var c uint8
	s = edit(t, s, func(sn *lab.Position) {
		st := sn.Stacks[p]
		i := 0
		for squareOfSn(sn, st[i]) == lab.NoSquare || st[i] >= 21 {
			i++
		}
		c = st[i]
		sn.Found[p] = append(slices.Clone(st[:i]), st[i+1:]...)
		sn.Stacks[p] = []uint8{c}
		sn.Turn, sn.Phase, sn.Last = p, lab.PhaseMove, lab.E6
	})
	return s, c
}

func squareOfSn(sn *lab.Position, c uint8) lab.Square {
	for q, tile := range sn.Board {
		if tile.Target == c {
			return lab.Square(q)
		}
	}
	return lab.NoSquare
}

func TestWinning(t *testing.T) {
	base := mustNew(t, lab.Options{Players: 3, Seed: 41})
	for seed := uint64(42); len(base.Reachable(lab.Yellow.Start())) < 2; seed++ {
		base = mustNew(t, lab.Options{Players: 3, Seed: seed})
	}

	// Standard: the last card found, then back to the start square.
	s, c := lastCard(t, base, 1)
	q := squareOf(s, c)
	s = edit(t, s, func(sn *lab.Position) { sn.Ships[1] = q })
	s = mustApply(t, s, q.String())
	if s.Phase() != lab.PhaseShift || s.Turn() != 2 || len(s.Stack(1)) != 0 {
		t.Fatalf("after the last card: phase %v, turn %d, stack %v; want player 2 to shift", s.Phase(), s.Turn(), s.Stack(1))
	}
	if o := s.Outcome(); o.Finished || o.Points[1] != 8 {
		t.Fatalf("Outcome after the last card = %+v; want unfinished with 8 points for player 1", o)
	}
	near := lab.NoSquare
	for _, q := range s.Reachable(lab.Yellow.Start()) {
		if q != lab.Yellow.Start() {
			near = q
		}
	}
	if near == lab.NoSquare {
		t.Fatalf("%v: the yellow start square is cut off; pick another seed", s)
	}
	home := edit(t, s, func(sn *lab.Position) {
		sn.Ships[1] = near
		sn.Turn, sn.Phase = 1, lab.PhaseMove
	})
	if home.Outcome().Finished {
		t.Fatal("finished before the move home")
	}
	won := mustApply(t, home, lab.Yellow.Start().String())
	o := won.Outcome()
	if !o.Finished || o.Winner != 1 || won.Phase() != lab.PhaseOver || !slices.Equal(o.Points, []int{0, 8, 0}) {
		t.Fatalf("Outcome after the move home = %+v, phase %v; want player 1 winning with points [0 8 0]", o, won.Phase())
	}
	if got := won.LegalMoves(); len(got) != 0 {
		t.Fatalf("LegalMoves of a finished game = %v", got)
	}
	if _, err := won.Apply(lab.ShiftMove(lab.N2, 0)); !errors.Is(err, game.ErrGameOver) {
		t.Fatalf("Apply after the end = %v; want ErrGameOver", err)
	}
	if got := won.String(); !strings.Contains(got, " - ") {
		t.Fatalf("finished text %q has no '-' turn", got)
	}
	if back, err := lab.ParseState(won.String()); err != nil || back != won {
		t.Fatalf("ParseState(%q) = %v, %v", won, back, err)
	}

	// No return: the last card ends the game.
	nr := edit(t, base, func(sn *lab.Position) { sn.NoReturn = true })
	nr, c = lastCard(t, nr, 2)
	q = squareOf(nr, c)
	nr = edit(t, nr, func(sn *lab.Position) { sn.Ships[2] = q })
	nr = mustApply(t, nr, q.String())
	if o := nr.Outcome(); !o.Finished || o.Winner != 2 || o.Points[2] != 8 {
		t.Fatalf("no return: Outcome after the last card = %+v; want player 2 winning", o)
	}
}

// TestVaderFindsLastCard: Vader finds a player's last card while his ship
// waits at home; he wins on his next turn by staying, unless another player
// wins first, and then the text names the winner ("Y-").
func TestVaderFindsLastCard(t *testing.T) {
	s, c := vaderGame(t, lab.Variants{Vader: true})
	q := s.Vader()
	s = edit(t, s, func(sn *lab.Position) {
		sn.Found[0] = append(sn.Found[0], sn.Stacks[0][1:]...)
		sn.Stacks[0] = []uint8{c}
		sn.Ships[0] = lab.Red.Start()
		sn.Found[1] = append(sn.Found[1], sn.Stacks[1]...)
		sn.Stacks[1] = nil
		sn.Ships[1] = lab.Yellow.Start()
		// Yellow waits at home too, so Vader found his last card: make
		// it a Vader card (one of his, or swapped with one of red's).
		y := sn.Found[1]
		last := &y[len(y)-1]
		for _, f := range [][]uint8{y, sn.Found[0]} {
			for i := range f {
				if f[i] >= 21 && *last < 21 {
					f[i], *last = *last, f[i]
				}
			}
		}
	})
	s = mustApply(t, s, "V:"+q.String())
	if s.Outcome().Finished || s.Turn() != 1 {
		t.Fatalf("Vader found red's last card: %v; want the game to go on with yellow", s)
	}
	if err := s.Validate(); err != nil {
		t.Fatalf("red waiting at home: Validate = %v", err)
	}
	// Yellow stays at home first and wins; red also meets the condition.
	y := mustApply(t, mustApply(t, s, "N4"), "r1c7")
	if o := y.Outcome(); !o.Finished || o.Winner != 1 {
		t.Fatalf("yellow home: Outcome = %+v; want yellow winning", o)
	}
	text := y.String()
	if !strings.Contains(text, " Y- ") {
		t.Fatalf("ambiguous finished text %q lacks \"Y-\"", text)
	}
	back, err := lab.ParseState(text)
	if err != nil || back != y || back.Outcome().Winner != 1 {
		t.Fatalf("ParseState(%q) = %v, %v", text, back, err)
	}
	if _, err := lab.ParseState(strings.Replace(text, " Y- ", " - ", 1)); err == nil {
		t.Fatalf("ParseState with an ambiguous '-' succeeded")
	}
}

func TestRedWinsAfterWaiting(t *testing.T) {
	s, c := vaderGame(t, lab.Variants{Vader: true})
	s = edit(t, s, func(sn *lab.Position) {
		sn.Found[0] = append(sn.Found[0], sn.Stacks[0][1:]...)
		sn.Stacks[0] = []uint8{c}
		sn.Ships[0] = lab.Red.Start()
	})
	s = mustApply(t, s, "V:"+s.Vader().String())
	s = mustApply(t, s, "N4")
	s = mustApply(t, s, s.Ship(1).String())
	s = mustApply(t, s, "S6")
	for _, m := range s.LegalMoves() {
		if m.Vader {
			t.Fatalf("red with all cards found may move %v", m)
		}
	}
	s = mustApply(t, s, "r1c1")
	if o := s.Outcome(); !o.Finished || o.Winner != 0 || !strings.Contains(s.String(), " - ") {
		t.Fatalf("red stays at home: %v, Outcome %+v; want red winning, turn '-'", s, o)
	}
}

func TestView(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 3, Seed: 51})
	s = mustApply(t, s, "N2")
	s = mustApply(t, s, s.Ship(0).String())
	for p := -1; p < 3; p++ {
		v := s.View(p)
		if !v.IsView() {
			t.Fatalf("View(%d) hides nothing", p)
		}
		if err := v.Validate(); !errors.Is(err, game.ErrInvalidState) {
			t.Fatalf("View(%d).Validate() = %v; want ErrInvalidState", p, err)
		}
		if got := v.LegalMoves(); got != nil {
			t.Fatalf("View(%d).LegalMoves() = %v; want nil", p, got)
		}
		if _, err := v.Apply(lab.ShiftMove(lab.N4, 0)); !errors.Is(err, game.ErrInvalidState) {
			t.Fatalf("View(%d).Apply = %v; want ErrInvalidState", p, err)
		}
		text := v.String()
		back, err := lab.ParseState(text)
		if err != nil || back != v {
			t.Fatalf("ParseState(%q) = %v, %v; want the view back", text, back, err)
		}
		for q := 0; q < 3; q++ {
			st := v.Stack(q)
			visible := 0
			for _, c := range st {
				if c != 0 {
					visible++
				}
			}
			want := 0
			if q == p {
				want = 1
			}
			if visible != want || len(st) != 8 {
				t.Fatalf("View(%d): stack of %d = %v; want %d visible of 8", p, q, st, want)
			}
		}
	}
	if got, want := s.View(1).String(), "?"; !strings.Contains(got, ",:"+string(lab.TargetLetter(s.Stack(1)[0]))+"???????,") {
		t.Fatalf("View(1) = %q; want player 1's stack as X%s…", got, want)
	}
	// Open cards: the viewer sees all his own cards.
	o := mustNew(t, lab.Options{Players: 2, Seed: 51, Variants: lab.Variants{OpenCards: true}})
	if got := o.View(0).Stack(0); !slices.Equal(got, o.Stack(0)) {
		t.Fatalf("open cards: View(0).Stack(0) = %v; want %v", got, o.Stack(0))
	}
	if got := o.View(0).Stack(1); slices.ContainsFunc(got, func(c uint8) bool { return c != 0 }) {
		t.Fatalf("open cards: View(0).Stack(1) = %v; want all hidden", got)
	}
}

func TestParseMove(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 0})
	straight := s
	for straight.Spare().Shape() != lab.ShapeStraight {
		straight = mustApply(t, straight, "N2")
		straight = mustApply(t, straight, straight.Ship(straight.Turn()).String())
	}
	corner := s
	for corner.Spare().Shape() == lab.ShapeStraight {
		corner = mustApply(t, corner, "W4")
		corner = mustApply(t, corner, corner.Ship(corner.Turn()).String())
	}
	for _, tc := range []struct {
		s    lab.State
		in   string
		want lab.Move
	}{
		{straight, "N2", lab.ShiftMove(lab.N2, 0)},
		{straight, "N2:0", lab.ShiftMove(lab.N2, 0)},
		{straight, "N2:2", lab.ShiftMove(lab.N2, 0)},
		{straight, "E6:3", lab.ShiftMove(lab.E6, 1)},
		{corner, "E6:3", lab.ShiftMove(lab.E6, 3)},
		{corner, "W2:2", lab.ShiftMove(lab.W2, 2)},
		{s, "S4:1", lab.ShiftMove(lab.S4, 1)},
		{s, "r3c5", lab.ShipMove(lab.Sq(3, 5))},
		{s, "r7c7", lab.ShipMove(lab.Sq(7, 7))},
		{s, "V:r1c1", lab.VaderMove(lab.Sq(1, 1))},
	} {
		got, err := lab.ParseMove(tc.s, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "N", "N3", "N2:", "N2:4", "N2:11", "N2 ", "n2", "Q2", "r0c1", "r8c1", "r1c8", "r3c", "r3c55", "V:", "V:r9c1", "V:N2", "r3c5 ", "V", "1"} {
		_, err := lab.ParseMove(s, in)
		var pe *game.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, game.ErrIllegalMove) {
			t.Errorf("ParseMove(%q) = %v; want a *game.ParseError wrapping ErrIllegalMove", in, err)
		}
	}
	for _, m := range []lab.Move{lab.ShiftMove(lab.W6, 3), lab.ShipMove(lab.Sq(2, 4)), lab.VaderMove(lab.Sq(6, 1))} {
		if got, err := lab.ParseMove(corner, m.String()); err != nil || got != m {
			t.Errorf("ParseMove(%q) = %v, %v; want %v", m.String(), got, err, m)
		}
	}
}

func TestApplyIllegal(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 61})
	moved := mustApply(t, s, "N2")
	unreachable := lab.NoSquare
	reach := moved.Reachable(moved.Ship(0))
	for q := lab.Square(0); q < lab.NumSquares; q++ {
		if !slices.Contains(reach, q) {
			unreachable = q
			break
		}
	}
	for _, tc := range []struct {
		s    lab.State
		m    lab.Move
		want string
	}{
		{s, lab.ShipMove(s.Ship(0)), "starts with a shift"},
		{s, lab.Move{Point: lab.N2, Rotation: 4}, "rotation"},
		{s, lab.Move{Point: 13}, "insertion point"},
		{moved, lab.ShiftMove(lab.N4, 0), "shifted"},
		{moved, lab.ShipMove(unreachable), "not connected"},
		{moved, lab.ShipMove(lab.NoSquare), "off the board"},
		{moved, lab.VaderMove(moved.Ship(0)), "Vader is not in this game"},
	} {
		_, err := tc.s.Apply(tc.m)
		if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: Apply(%+v) = %v; want ErrIllegalMove mentioning %q", tc.s, tc.m, err, tc.want)
		}
	}
	var zero lab.State
	if _, err := zero.Apply(lab.ShiftMove(lab.N2, 0)); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("zero State: Apply = %v; want ErrInvalidState", err)
	}
	if zero.LegalMoves() != nil || zero.Validate() == nil || zero.Outcome().Finished {
		t.Errorf("zero State: LegalMoves %v, Validate %v, Outcome %+v", zero.LegalMoves(), zero.Validate(), zero.Outcome())
	}
}

// TestInvalidStates changes one thing of a valid text form at a time; each
// must be refused by ParseState with ErrInvalidState.
func TestInvalidStates(t *testing.T) {
	s := mustNew(t, lab.Options{Players: 2, Seed: 71, Variants: lab.Variants{Vader: true}})
	s = mustApply(t, s, "N4:1")
	text := s.String()
	if back, err := lab.ParseState(text); err != nil || back != s {
		t.Fatalf("ParseState(%q) = %v, %v", text, back, err)
	}
	f := strings.Split(text, " ")
	set := func(i int, v string) string {
		g := slices.Clone(f)
		g[i] = v
		return strings.Join(g, " ")
	}
	board := f[0]
	cards := strings.Split(f[5], ",")
	first := func(old, new string) string { return strings.Replace(board, old, new, 1) }
	swapCard := strings.Replace(f[5], cards[0][1:2], cards[1][1:2], 1) // one card twice, one missing
	for name, in := range map[string]string{
		"fixed tile turned":   set(0, "3"+board[1:]),
		"vader symbol gone":   set(0, strings.Replace(board, "*", "", 1)),
		"two vader symbols":   set(1, f[1]+"*"),
		"target twice":        set(0, first("eA", "eB")),
		"bad board shape":     set(0, board+"/5"),
		"spare not a tile":    set(1, "x"),
		"spare mask 0":        set(1, "0"),
		"vader missing":       set(2, "R11,Y17"),
		"vader not last":      set(2, "V11,R11,Y17"),
		"one player":          set(2, "R11,V11"),
		"unknown colour":      set(2, "R11,Q17,V11"),
		"same colour":         set(2, "R11,R17,V11"),
		"off the board":       set(2, "R81,Y17,V11"),
		"bad last":            set(3, "N3"),
		"move phase no last":  set(3, "-"),
		"turn colour absent":  set(4, "Gm"),
		"bad phase":           set(4, "Rx"),
		"over, nobody won":    set(4, "-"),
		"named winner, clear": set(4, "R-"),
		"card twice":          set(5, swapCard),
		"uneven deal":         set(5, cards[0]+cards[1][1:2]+","+cards[1][:1]+cards[1][2:]),
		"three stacks":        set(5, f[5]+",:"),
		"found hidden":        set(5, "?"+f[5][1:]),
		"no colon":            set(5, strings.Replace(f[5], ":", "", 1)),
		"bad card":            set(5, strings.Replace(f[5], ":", ":Z", 1)),
		"bad variant":         set(6, "vx"),
		"variant twice":       set(6, "vv"),
		"no vader variant":    set(6, "-"),
		"six fields":          strings.Join(f[:6], " "),
		"eight fields":        text + " x",
		"double space":        strings.Replace(text, " ", "  ", 1),
		"empty":               "",
	} {
		_, err := lab.ParseState(in)
		var pe *game.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, game.ErrInvalidState) {
			t.Errorf("%s: ParseState(%q) = %v; want a *game.ParseError wrapping ErrInvalidState", name, in, err)
		}
	}
	// Validate on a state that FromPosition cannot build either.
	sn := s.Position()
	sn.Stacks[0][0] = sn.Stacks[1][0]
	if _, err := lab.FromPosition(sn); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("FromPosition with a card twice = %v; want ErrInvalidState", err)
	}
	// Without the Vader variant, a player who has won cannot still be playing.
	p := mustNew(t, lab.Options{Players: 2, Seed: 71})
	sn = p.Position()
	sn.Found[1], sn.Stacks[1] = sn.Stacks[1], nil
	if _, err := lab.FromPosition(sn); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("FromPosition with a player home with all cards = %v; want ErrInvalidState", err)
	}
}

// tileKey is a tile up to rotation: what a shift must conserve.
type tileKey struct {
	shape  lab.Shape
	target uint8
	vader  bool
}

func tileMultiset(s lab.State) map[tileKey]int {
	m := map[tileKey]int{}
	board := s.Board()
	for _, t := range append(board[:], s.Spare()) {
		m[tileKey{t.Shape(), t.Target, t.Vader}]++
	}
	return m
}

// playoutConfig drives RandomPlayouts through games with the given options,
// a new seed per game, and checks per state that the tile multiset is the
// one of the set-up and every target is shown exactly once.
func playoutConfig(o lab.Options, start map[tileKey]int) rulestest.Config[lab.State, lab.Move] {
	return rulestest.Config[lab.State, lab.Move]{
		Start: func(i int, r *rand.Rand) lab.State {
			o := o
			o.Seed = r.Uint64()
			o.First = r.IntN(max(o.Players, len(o.Colors)))
			s, err := lab.New(o)
			if err != nil {
				panic(err)
			}
			return s
		},
		ParseState: lab.ParseState,
		ParseMove:  lab.ParseMove,
		Position:   func(s lab.State) (lab.State, error) { return lab.FromPosition(s.Position()) },
		MaxPlies:   200000,
		Check: func(t testing.TB, s lab.State) {
			if got := tileMultiset(s); !mapsEqual(got, start) {
				t.Fatalf("%v: tile multiset %v; want %v", s, got, start)
			}
			var seen [lab.NumTargets + 1]int
			board := s.Board()
			for _, tile := range append(board[:], s.Spare()) {
				seen[tile.Target]++
			}
			for c := 1; c <= lab.NumTargets; c++ {
				if seen[c] != 1 {
					t.Fatalf("%v: target %c shown %d times", s, lab.TargetLetter(uint8(c)), seen[c])
				}
			}
			if v := s.Vader(); v != lab.NoSquare && !v.Valid() {
				t.Fatalf("%v: Vader off the board", s)
			}
		},
	}
}

func mapsEqual(a, b map[tileKey]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestRandomPlayouts plays random games for each player count and variant
// through the shared harness. GAMERULES_LONG=1 plays ≥ 10,000 games in all.
func TestRandomPlayouts(t *testing.T) {
	games := 2
	if os.Getenv("GAMERULES_LONG") != "" {
		games = 100
	} else if testing.Short() {
		games = 1
	}
	start := tileMultiset(mustNew(t, lab.Options{Players: 2}))
	total, plies := 0, 0
	for n := 2; n <= 4; n++ {
		for v := 0; v < 8; v++ {
			o := lab.Options{Players: n, Variants: lab.Variants{Vader: v&1 != 0, OpenCards: v&2 != 0, NoReturn: v&4 != 0}}
			plies += rulestest.RandomPlayouts(t, games, uint64(100*n+v), playoutConfig(o, start))
			total += games
		}
	}
	t.Logf("%d games, %d plies", total, plies)
}

// tileCounts counts board and spare tiles by (shape, target, symbol), the
// multiset that shifts must conserve.
func tileCounts(s lab.State) (c [4 * 32 * 2]int16) {
	board := s.Board()
	for _, t := range append(board[:], s.Spare()) {
		k := int(t.Shape())*64 + int(t.Target&31)*2
		if t.Vader {
			k++
		}
		c[k]++
	}
	return c
}

// TestProperties plays random games (10,000 with GAMERULES_LONG=1) for all
// player counts and variants and checks after every ply that the tile
// multiset is the set-up's, every target is shown once, every card is held
// once, and the points never drop.
func TestProperties(t *testing.T) {
	games := 48
	if os.Getenv("GAMERULES_LONG") != "" {
		games = 10008
	} else if testing.Short() {
		games = 8
	}
	r := rand.New(rand.NewPCG(2718, 2818))
	plies := 0
	for g := 0; g < games; g++ {
		o := lab.Options{Players: 2 + g%3, Seed: r.Uint64(), First: r.IntN(2)}
		o.Variants = lab.Variants{Vader: g&8 != 0, OpenCards: g&16 != 0, NoReturn: g&32 != 0}
		s := mustNew(t, o)
		want := tileCounts(s)
		points := s.Outcome().Points
		for s.Phase() != lab.PhaseOver {
			ms := s.LegalMoves()
			next, err := s.Apply(ms[r.IntN(len(ms))])
			if err != nil {
				t.Fatalf("game %d: %v", g, err)
			}
			s = next
			plies++
			if tileCounts(s) != want {
				t.Fatalf("game %d: %v: tile multiset changed", g, s)
			}
			var shown, held [lab.NumTargets + 1]int
			board := s.Board()
			for _, tile := range append(board[:], s.Spare()) {
				shown[tile.Target]++
			}
			for p := 0; p < s.Players(); p++ {
				for _, c := range append(s.Found(p), s.Stack(p)...) {
					held[c]++
				}
			}
			for c := 1; c <= lab.NumTargets; c++ {
				if shown[c] != 1 || held[c] != 1 {
					t.Fatalf("game %d: %v: target %c shown %d times, held %d times", g, s, lab.TargetLetter(uint8(c)), shown[c], held[c])
				}
			}
			now := s.Outcome().Points
			for p := range now {
				if now[p] < points[p] || now[p] > points[p]+1 {
					t.Fatalf("game %d: %v: points went from %v to %v", g, s, points, now)
				}
			}
			points = now
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("game %d: finished game %v: %v", g, s, err)
		}
	}
	t.Logf("%d games, %d plies", games, plies)
}

// TestReachableReference compares the bit-set flood fill with a plain
// breadth-first search over tiles on states from random play.
func TestReachableReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for g := 0; g < 20; g++ {
		s := mustNew(t, lab.Options{Players: 4, Seed: r.Uint64()})
		for ply := 0; ply < 200; ply++ {
			if s.Phase() == lab.PhaseMove {
				for q := lab.Square(0); q < lab.NumSquares; q++ {
					if got, want := s.Reachable(q), slowReach(s, q); !slices.Equal(got, want) {
						t.Fatalf("%v: Reachable(%v) = %v; want %v", s, q, got, want)
					}
				}
			}
			ms := s.LegalMoves()
			if len(ms) == 0 {
				break
			}
			s, _ = s.Apply(ms[r.IntN(len(ms))])
		}
	}
}

func slowReach(s lab.State, from lab.Square) []lab.Square {
	seen := map[lab.Square]bool{from: true}
	queue := []lab.Square{from}
	type step struct {
		dr, dc     int
		side, back uint8
	}
	steps := []step{{-1, 0, lab.North, lab.South}, {0, 1, lab.East, lab.West}, {1, 0, lab.South, lab.North}, {0, -1, lab.West, lab.East}}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, st := range steps {
			n := lab.Sq(q.Row()+st.dr, q.Col()+st.dc)
			if n == lab.NoSquare || seen[n] {
				continue
			}
			if s.Tile(q).Sides&st.side != 0 && s.Tile(n).Sides&st.back != 0 {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	var out []lab.Square
	for q := lab.Square(0); q < lab.NumSquares; q++ {
		if seen[q] {
			out = append(out, q)
		}
	}
	return out
}

func TestTileRotate(t *testing.T) {
	for _, tc := range []struct {
		sides uint8
		k     int
		want  uint8
	}{
		{0x5, 1, 0xa}, {0xa, 1, 0x5}, {0x6, 1, 0xc}, {0xc, 1, 0x9}, {0x9, 1, 0x3}, {0x3, 1, 0x6},
		{0x7, 1, 0xe}, {0xe, 1, 0xd}, {0xd, 1, 0xb}, {0xb, 1, 0x7}, {0x6, 2, 0x9}, {0x6, -1, 0x3}, {0xe, 4, 0xe},
	} {
		if got := (lab.Tile{Sides: tc.sides}).Rotate(tc.k).Sides; got != tc.want {
			t.Errorf("Tile{%x}.Rotate(%d) = %x; want %x", tc.sides, tc.k, got, tc.want)
		}
	}
	for p := lab.N2; p <= lab.W6; p++ {
		if p.Opposite().Opposite() != p || p.Opposite() == p || p.Opposite().String()[1] != p.String()[1] {
			t.Errorf("%v.Opposite() = %v", p, p.Opposite())
		}
	}
	if got := lab.N2.Opposite(); got != lab.S2 {
		t.Errorf("N2.Opposite() = %v; want S2", got)
	}
	if got := lab.E4.Opposite(); got != lab.W4 {
		t.Errorf("E4.Opposite() = %v; want W4", got)
	}
}

// TestImpossibleWinners: besides the winner, only a ship waiting at home
// after Darth Vader found its player's last card (a Vader card) can meet
// the winning condition; anything else cannot arise in a game.
func TestImpossibleWinners(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v       lab.Variants
		over    bool
		lastY   uint8 // yellow's last found card
		wantErr bool
	}{
		{"over, both home, no Vader", lab.Variants{}, true, 20, true},
		{"over, both finished, no return", lab.Variants{NoReturn: true}, true, 20, true},
		{"over, both finished, no return, Vader", lab.Variants{Vader: true, NoReturn: true}, true, 24, true},
		{"over, yellow waiting, last card not Vader's", lab.Variants{Vader: true}, true, 20, true},
		{"over, yellow waiting after Vader", lab.Variants{Vader: true}, true, 24, false},
		{"going on, yellow waiting, last card not Vader's", lab.Variants{Vader: true}, false, 20, true},
		{"going on, yellow waiting after Vader", lab.Variants{Vader: true}, false, 24, false},
		{"going on, yellow waiting, open cards, last card not Vader's", lab.Variants{Vader: true, OpenCards: true}, false, 20, true},
	} {
		sn := mustNew(t, lab.Options{Players: 2, Seed: 71, Variants: tc.v}).Position()
		all := append(sn.Stacks[0], sn.Stacks[1]...)
		slices.Sort(all)
		red := slices.DeleteFunc(slices.Clone(all), func(c uint8) bool { return c%2 == 0 })
		yellow := slices.DeleteFunc(slices.Clone(all), func(c uint8) bool { return c%2 == 1 || c == tc.lastY })
		yellow = append(yellow, tc.lastY)
		sn.Stacks[0], sn.Found[0] = nil, red
		sn.Stacks[1], sn.Found[1] = nil, yellow
		sn.Ships[0], sn.Ships[1] = lab.Red.Start(), lab.Yellow.Start()
		sn.Last, sn.Turn, sn.Phase = lab.N2, 0, lab.PhaseShift
		if tc.over {
			sn.Phase = lab.PhaseOver
		} else {
			sn.Stacks[0], sn.Found[0] = red[len(red)-1:], red[:len(red)-1] // red still plays
		}
		_, err := lab.FromPosition(sn)
		if tc.wantErr != (err != nil) || (err != nil && !errors.Is(err, game.ErrInvalidState)) {
			t.Errorf("%s: FromPosition = %v; want error %v (ErrInvalidState)", tc.name, err, tc.wantErr)
		}
	}
}

// TestVaderSymbolOffStraightMessage: a state with the Vader symbol moved onto
// a corner tile is refused, and the reason names what is wrong (the symbol on
// a corner), not the rule's opposite.
func TestVaderSymbolOffStraightMessage(t *testing.T) {
	const in = "6aeAdNeB3*c/56Sa33Xca/7C57D6eEadF/65357O7M9/7GeRbH9dI3VdJ/aa59WabQ5/3ePbK6bL9U9 6T R11,Y17,V65 - Rs :LTDGHNPWIREM,:CVOAJKQSFUXB v"
	_, err := lab.ParseState(in)
	if !errors.Is(err, game.ErrInvalidState) {
		t.Fatalf("ParseState = %v; want ErrInvalidState", err)
	}
	for _, want := range []string{"r1c6", "Vader symbol is on a corner tile", "only a straight tile shows it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("ParseState error %q; want it to contain %q", err, want)
		}
	}
}

// TestApplyListed: over random games of every variant and player count,
// ApplyListed of every listed move at every state is what Apply gives, in
// both phases, up to and including the winning move.
func TestApplyListed(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	ends := 0
	for _, o := range []lab.Options{
		{Players: 2},
		{Players: 4, Variants: lab.Variants{Vader: true}},
		{Players: 3, Variants: lab.Variants{Vader: true, OpenCards: true, NoReturn: true}},
	} {
		for g := range 3 {
			o.Seed = uint64(g)
			s, err := lab.New(o)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 3000; ply++ {
				moves := s.LegalMoves()
				if len(moves) == 0 {
					ends++
					break
				}
				for _, m := range moves {
					want, err := s.Apply(m)
					if err != nil {
						t.Fatalf("%s: Apply(%v): %v", s, m, err)
					}
					if got := s.ApplyListed(m); got != want {
						t.Fatalf("%s: ApplyListed(%v) = %s; Apply gives %s", s, m, got, want)
					}
				}
				s = s.ApplyListed(moves[rng.IntN(len(moves))])
			}
		}
	}
	if ends == 0 {
		t.Error("no game ended: the winning move was not met")
	}
}

// AppendFound and AppendStack append what Found and Stack return, after
// what dst holds, in every state of seeded games in which cards are found
// (and for a player out of range, nothing).
func TestAppendCards(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	for g := range 3 {
		s, err := lab.New(lab.Options{Players: 2 + g, Seed: uint64(g)})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 2000; ply++ {
			for p := -1; p <= s.Players(); p++ {
				prefix := []uint8{99, 98}
				if got, want := s.AppendFound(slices.Clone(prefix), p), append(slices.Clone(prefix), s.Found(p)...); !slices.Equal(got, want) {
					t.Fatalf("%s: AppendFound(%v, %d) = %v; want %v", s, prefix, p, got, want)
				}
				if got, want := s.AppendStack(slices.Clone(prefix), p), append(slices.Clone(prefix), s.Stack(p)...); !slices.Equal(got, want) {
					t.Fatalf("%s: AppendStack(%v, %d) = %v; want %v", s, prefix, p, got, want)
				}
				found += len(s.Found(p))
			}
			moves := s.LegalMoves()
			if len(moves) == 0 {
				break
			}
			s = s.ApplyListed(moves[rng.IntN(len(moves))])
		}
	}
	if found == 0 {
		t.Error("no card was found in any state: the test checked empty lists only")
	}
}
