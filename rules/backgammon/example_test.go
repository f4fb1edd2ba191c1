package backgammon_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// A game starts with the opening roll, a chance move; then the winner of
// the opening roll plays both numbers.
func Example() {
	s, _ := backgammon.New(backgammon.Options{})
	fmt.Println(s, s.Phase(), len(s.LegalMoves()), "opening rolls")

	roll, _ := backgammon.ParseMove(s, "roll 3-1") // white rolled 3, black 1
	s, _ = s.Apply(roll)
	fmt.Println(s, s.Phase(), "turn", s.Turn())
	moves := s.LegalMoves()
	fmt.Println(len(moves), "plays, first", moves[0], "last", moves[len(moves)-1])

	m, _ := backgammon.ParseMove(s, "8/5 6/5")
	s, _ = s.Apply(m)
	fmt.Println(s, s.Phase(), "turn", s.Turn())
	// Output:
	// 4HPwATDgc/ABMA:MAAAAAAAAAAE opening 30 opening rolls
	// 4HPwATDgc/ABMA:MIEFAAAAAAAE move turn 0
	// 16 plays, first 24/23 24/21 last 6/2
	// sGfwATDgc/ABMA:cAkAAAAAAAAE roll turn 1
}

func ExampleParseMove() {
	s, _ := backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE") // white to play 3-1
	for _, text := range []string{"8/5 6/5", "6/5 8/5", "24/21/20", "24/20", "13/10 bar/24", "6/2", "pass"} {
		m, err := backgammon.ParseMove(s, text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q -> %s\n", text, m)
	}
	// Output:
	// "8/5 6/5" -> 8/5 6/5
	// "6/5 8/5" -> 8/5 6/5
	// "24/21/20" -> 24/20
	// "24/20" -> 24/20
	// backgammon: illegal move: "13/10 bar/24" with 3-1: bar/24: no checker of yours on the bar
	// "6/2" -> 6/2
	// backgammon: illegal move: pass with 3-1: a play is possible (16 legal, e.g. 24/23 24/21)
}

func ExampleState_Apply() {
	s, _ := backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE")
	m, _ := backgammon.ParseMove(s, "13/10 24/23")
	next, _ := s.Apply(m)
	fmt.Println(s)
	fmt.Println(next, next.Phase(), "black to roll:", next.Turn() == backgammon.Black)
	// Output:
	// 4HPwATDgc/ABMA:MIEFAAAAAAAE
	// 4HPiASjgc/ABMA:cAkAAAAAAAAE roll black to roll: true
}

// The server draws the dice with a seeded generator, so a game can be replayed.
func ExampleRollDice() {
	r := rand.New(rand.NewPCG(1, 2))
	s, _ := backgammon.New(backgammon.Options{})
	for s.Phase() != backgammon.PhaseOver {
		var m backgammon.Move
		if s.Phase() == backgammon.PhaseMove {
			moves := s.LegalMoves()
			m = moves[0]
		} else {
			m, _ = backgammon.RollDice(s, r)
		}
		s, _ = s.Apply(m)
	}
	o := s.Outcome()
	w, b := s.Score() // the Match ID's session score, with the point won
	fmt.Println(s, o.Winner, o.Points, o.Detail, w, b)
	// Output:
	// AAAAegAAAAAAAA:MAIAAAAACAAE 1 [0 1] single 0 1
}

func ExampleMove_Probability() {
	s, _ := backgammon.ParseState("4HPwATDgc/ABMA:cAkAAAAAAAAE") // black to roll
	sum := 0.0
	for _, m := range s.LegalMoves() {
		sum += m.Probability()
	}
	fmt.Printf("%d outcomes, total %.3f\n", len(s.LegalMoves()), sum)
	// Output:
	// 21 outcomes, total 1.000
}
