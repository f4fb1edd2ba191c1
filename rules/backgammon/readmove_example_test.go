package backgammon_test

import (
	"fmt"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// ReadMove answers the canonical move for a play written in any dialect,
// and refuses what it cannot read with the nearest legal plays.
func ExampleReadMove() {
	s, _ := backgammon.ParseState("4HPwATDgc/ABMA:MIEFAAAAAAAE") // the start, White to play 3-1
	for _, text := range []string{"8/5 6/5", "8-5 6-5", "6/5, 8/5*", "17-20 19-20", "24/23/20", "8/4 6/5"} {
		m, err := backgammon.ReadMove(s, text)
		if err != nil {
			fmt.Printf("%-13q refused: %v\n", text, err)
			continue
		}
		fmt.Printf("%-13q %s (action %d)\n", text, m, s.Action(m))
	}
	// Output:
	// "8/5 6/5"     8/5 6/5 (action 145136)
	// "8-5 6-5"     8/5 6/5 (action 145136)
	// "6/5, 8/5*"   8/5 6/5 (action 145136)
	// "17-20 19-20" 8/5 6/5 (action 145136)
	// "24/23/20"    24/20 (action 439411)
	// "8/4 6/5"     refused: backgammon: illegal move: "8/4 6/5" needs dice 4 and 1; the roll is 3-1; the nearest legal plays: 8/5 6/5, 8/4
}
