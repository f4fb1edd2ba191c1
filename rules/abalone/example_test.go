package abalone_test

import (
	"errors"
	"fmt"

	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/game"
)

// A game from the classic start: count the moves, play two in Aba-Pro
// notation, print the text form.
func Example() {
	s, err := abalone.New(abalone.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(s)
	fmt.Println(len(s.LegalMoves()), "legal moves; the first three:", s.LegalMoves()[:3])
	for _, text := range []string{"a1b2", "i5h5"} {
		m, err := abalone.ParseMove(s, text)
		if err != nil {
			panic(err)
		}
		if s, err = s.Apply(m); err != nil {
			panic(err)
		}
	}
	fmt.Println(s)
	// Output:
	// wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b
	// 44 legal moves; the first three: [a1b1 a1b2 a2b2]
	// 1wwww/wwwwww/2www2/3w4/9/3b4/2bbb2/bbbbbb/1bbbb b
}

func ExampleParseMove() {
	s, _ := abalone.ParseState("ww3/6/7/8/4bbbw1/8/bb3ww/bbbwww/bbbww b")
	show := func(text string) {
		m, err := abalone.ParseMove(s, text)
		if err != nil {
			fmt.Printf("%-8q error: %v\n", text, err)
			return
		}
		next, _ := s.Apply(m)
		fmt.Printf("%-8q %-7s -> %s\n", text, m, next)
	}
	show("e5e6")   // in line: e5 trails e6, e7; they push the white marble on e8
	show("E7E5F7") // a broadside, ends in either order and either case
	show("e5e7f5") // the same broadside, as it is written out
	show("a1a2")   // 3 push 2: a5 goes off the board
	show("b1b2")   // 3 against 3: pac
	show("e5e7e6") // an in-line move written with three cells
	show("a1a0")
	// Output:
	// "e5e6"   e5e6    -> ww3/6/7/8/5bbbw/8/bb3ww/bbbwww/bbbww w
	// "E7E5F7" e5e7f5  -> ww3/6/7/3bbb2/7w1/8/bb3ww/bbbwww/bbbww w
	// "e5e7f5" e5e7f5  -> ww3/6/7/3bbb2/7w1/8/bb3ww/bbbwww/bbbww w
	// "a1a2"   a1a2    -> ww3/6/7/8/4bbbw1/8/bb3ww/bbbwww/1bbbw w
	// "b1b2"   error: abalone: illegal move: b1b2: pac: 3 black against 3 white; a push needs more marbles than it pushes
	// "e5e7e6" error: abalone: cannot parse move "e5e7e6" at offset 4: e5 to e6 is along the line of the group: an in-line move is written with two cells
	// "a1a0"   error: abalone: cannot parse move "a1a0" at offset 2: "a0" is not a cell (A1..I9 on the hexagonal board)
}

func ExampleState_Apply() {
	// White (to move) has three in a row on F3..F5, facing black on F6, F7.
	s, _ := abalone.ParseState("wwwww/ww4/7/1wwwbb2/9/8/7/bbb3/bbbbb w")
	for _, text := range []string{"f3f4", "f4f5"} {
		m, err := abalone.ParseMove(s, text)
		if err != nil {
			fmt.Println(err)
			continue
		}
		next, _ := s.Apply(m)
		fmt.Println(m, "->", next)
	}
	// A move that is not legal says why, and wraps game.ErrIllegalMove.
	_, err := s.Apply(abalone.Move{From: abalone.CellAt('F', 6), To: abalone.CellAt('F', 5)})
	fmt.Println(errors.Is(err, game.ErrIllegalMove), err)
	// Output:
	// f3f4 -> wwwww/ww4/7/2wwwbb1/9/8/7/bbb3/bbbbb b
	// abalone: illegal move: f4f5: pac: 2 white against 2 black; a push needs more marbles than it pushes
	// true abalone: illegal move: f6f5: f6 holds a black marble, not a white one
}

func ExampleState_Outcome() {
	// Black has pushed six white marbles off: White has 8 left.
	s, _ := abalone.ParseState("wwwww/www3/7/8/9/8/2bbb2/bbbbbb/bbbb1 w")
	fmt.Printf("%+v\n", s.Outcome())
	fmt.Println(len(s.LegalMoves()))

	// With a ply limit, the count is part of the text form; at the limit the
	// side that pushed off more wins, equal counts draw.
	s, _ = abalone.New(abalone.Options{Layout: abalone.BelgianDaisy, MaxPlies: 100})
	fmt.Println(s, s.Outcome().Finished)
	// Output:
	// {Finished:true Winner:0 Points:[6 1] Detail:six pushed off}
	// 0
	// ww1bb/wwwbbb/1ww1bb1/8/9/8/1bb1ww1/bbbwww/bb1ww b 0/100 false
}
