package gravitytrap_test

import (
	"fmt"

	gt "github.com/gamerules/gamerules/rules/gravitytrap"
)

// A whole game on the default board: set-up, moves, and the end.
func Example() {
	s, _ := gt.New(gt.Options{}) // default board, red places first
	fmt.Println(s)
	for len(s.LegalMoves()) > 0 {
		s, _ = s.Apply(s.LegalMoves()[0]) // always the lowest station
	}
	fmt.Println(s)
	out := s.Outcome()
	fmt.Println(gt.Info().Players[out.Winner], "wins with", out.Points[out.Winner])
	// Output:
	// ...................... R
	// ........ooo...B.Rooooo r
	// red wins with 2
}

func ExampleParseState() {
	s, err := gt.ParseState("RoooBooooooooooooooooo r")
	fmt.Println(s.LegalMoves(), err)
	s, err = gt.ParseState("RoooBooooooooooooooooo r rings")
	fmt.Println(s.LegalMoves(), err)
	_, err = gt.ParseState("RoooBooooooooooooooooo x")
	fmt.Println(err)
	// Output:
	// [1 8 14] <nil>
	// [1 2 3 8 11 12 13 14] <nil>
	// gravitytrap: cannot parse state "RoooBooooooooooooooooo x" at offset 23: want the player to act: r or b (to move), R or B (to place)
}

func ExampleParseMove() {
	s, _ := gt.New(gt.Options{})
	m, _ := gt.ParseMove(s, "7") // during set-up, "7" means "place 7"
	fmt.Println(m)
	s, _ = s.Apply(m)
	_, err := gt.ParseMove(s, "place 30")
	fmt.Println(err)
	// Output:
	// place 7
	// gravitytrap: cannot parse move "place 30" at offset 6: no station 30 on this board (0..21)
}

// The mirror ban and the option that lifts it.
func ExampleState_Apply() {
	s, _ := gt.New(gt.Options{})
	s, _ = s.Apply(gt.Move{Place: true, Station: 0})
	_, err := s.Apply(gt.Move{Place: true, Station: 11})
	fmt.Println(err)

	s, _ = gt.New(gt.Options{AllowMirrorPlacement: true})
	s, _ = s.Apply(gt.Move{Place: true, Station: 0})
	s, err = s.Apply(gt.Move{Place: true, Station: 11})
	fmt.Println(s, err)
	s, _ = s.Apply(gt.Move{Station: 14})
	fmt.Println(s)
	// Output:
	// gravitytrap: illegal move: place 11: station 11 is opposite the red ship on 0: mirror placement is banned (option allow_mirror_placement lifts the ban)
	// RooooooooooBoooooooooo r m <nil>
	// .ooooooooooBooRooooooo b m
}

// A caller's board travels as data; its states' text names no board.
func ExampleNewBoard() {
	b, err := gt.NewBoard(gt.BoardDef{
		Stations: []gt.Station{{ID: 0}, {ID: 1}, {ID: 2}, {ID: 3}, {ID: 4}, {ID: 5}},
		Lines:    [][]int{{0, 1, 2, 3}, {3, 4, 5, 0}, {1, 4}},
		Opposite: []int{3, 4, 5, 0, 1, 2},
	})
	fmt.Println(err)
	s, _ := gt.New(gt.Options{Board: b})
	s, _ = s.Apply(gt.Move{Place: true, Station: 0})
	fmt.Println(s, s.LegalMoves())
	s, _ = gt.ParseStateOn(b, "RBoooo r")
	fmt.Println(s.LegalMoves())

	_, err = gt.NewBoard(gt.BoardDef{
		Stations: []gt.Station{{ID: 0}, {ID: 1}, {ID: 2}, {ID: 3}},
		Opposite: []int{1, 2, 3, 0},
	})
	fmt.Println(err)
	// Output:
	// <nil>
	// R..... B [place 1 place 2 place 4 place 5]
	// [2 3 4 5]
	// gravitytrap: invalid state: board: opposite map is not an involution: opposite(0) = 1 but opposite(1) = 2
}
