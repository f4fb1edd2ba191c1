package labyrinth_test

import (
	"fmt"

	"github.com/gamerules/gamerules/rules/labyrinth"
)

// A seeded two-player game: the first turn, shift then move.
func Example() {
	s, err := labyrinth.New(labyrinth.Options{Players: 2, Seed: 0})
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	fmt.Println(len(s.LegalMoves()), "shifts, first", s.LegalMoves()[0], "last", s.LegalMoves()[len(s.LegalMoves())-1])

	m, _ := labyrinth.ParseMove(s, "W2:1")
	s, _ = s.Apply(m)
	fmt.Println("red may move to", s.LegalMoves())
	s, _ = s.Apply(s.LegalMoves()[1])
	fmt.Println(s)
	fmt.Println(s.Outcome())
	// Output:
	// 6aeAaeB5*c/9c6ceOa7Q/7C97D6eEadF/5cT5aaa9U/7G6SbH5dI7PdJ/dM6V9936Xa/3eRbK3WbL59 7N R11,Y17 - Rs :MAGBULCXIWPE,:HKNTQRJDSFOV -
	// 48 shifts, first N2 last W6:3
	// red may move to [r1c1 r1c2 r1c3 r1c4 r1c5]
	// 6aeAaeB5*c/eN9c6ceOa/7C97D6eEadF/5cT5aaa9U/7G6SbH5dI7PdJ/dM6V9936Xa/3eRbK3WbL59 7Q R12,Y17 W2 Ys :MAGBULCXIWPE,:HKNTQRJDSFOV -
	// {false -1 [0 0] }
}

// ParseMove reads the spec's notation; ":0" may be written or left out.
// (With a straight spare, a rotation by 2 reads as the smaller one.)
func ExampleParseMove() {
	s, _ := labyrinth.New(labyrinth.Options{Players: 2, Seed: 0})
	for _, text := range []string{"N2", "E4:3", "S6:0", "r3c5", "V:r7c1", "N3"} {
		m, err := labyrinth.ParseMove(s, text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-8q %v\n", text, m)
	}
	// Output:
	// "N2"     N2
	// "E4:3"   E4:3
	// "S6:0"   S6
	// "r3c5"   r3c5
	// "V:r7c1" V:r7c1
	// labyrinth: cannot parse move "N3" at offset 0: want an insertion point N2, N4, N6, E2, …, W6 or a square such as r3c5
}

// Apply refuses the reversal of the previous push and says why.
func ExampleState_Apply() {
	s, _ := labyrinth.New(labyrinth.Options{Players: 2, Seed: 0})
	s, _ = s.Apply(labyrinth.ShiftMove(labyrinth.N4, 0))
	s, _ = s.Apply(labyrinth.ShipMove(s.Ship(0))) // red stays
	_, err := s.Apply(labyrinth.ShiftMove(labyrinth.S4, 0))
	fmt.Println(err)
	// Output:
	// labyrinth: illegal move: S4: S4 would reverse the previous push N4
}

// View hides what a player may not see: the others' stacks, and his own
// below the top card.
func ExampleState_View() {
	s, _ := labyrinth.New(labyrinth.Options{Players: 2, Seed: 0})
	v := s.View(1)
	fmt.Println(v)
	fmt.Println(v.Validate())
	// Output:
	// 6aeAaeB5*c/9c6ceOa7Q/7C97D6eEadF/5cT5aaa9U/7G6SbH5dI7PdJ/dM6V9936Xa/3eRbK3WbL59 7N R11,Y17 - Rs :????????????,:H??????????? -
	// labyrinth: invalid state: hidden cards: a per-player view is for display only and cannot be played
}
