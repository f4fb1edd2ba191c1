package rulestest

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/game"
)

// toy is a tiny game for testing the harness itself: a play of `games`
// games, each counting from 0 to 3 by steps of 1 or 2; a finished game
// before the last lists toyNext, which starts the next one (a match).
type toy struct {
	n, game, games int
	bug            string // a broken invariant, or ""
}

type toyMove int

const toyNext toyMove = 9

func (m toyMove) String() string { return fmt.Sprint(int(m)) }

func (s toy) goesOn() bool { return s.n >= 3 && s.game < s.games-1 }

func (s toy) Validate() error { return nil }

func (s toy) String() string { return fmt.Sprintf("%d/%d/%d", s.n, s.game, s.games) }

func (s toy) Outcome() game.Outcome {
	return game.Outcome{Finished: s.n >= 3, Winner: game.NoWinner, Points: []int{0, 0}}
}

func (s toy) LegalMoves() []toyMove {
	switch {
	case s.n < 3:
		return []toyMove{1, 2}
	case s.goesOn() && s.bug != "match without next game":
		return []toyMove{toyNext}
	case s.bug == "moves when over":
		return []toyMove{1}
	}
	return nil
}

func (s toy) Apply(m toyMove) (toy, error) {
	switch {
	case s.goesOn() && m == toyNext:
		if s.bug == "next game finished" {
			s.game++
			return s, nil
		}
		return toy{game: s.game + 1, games: s.games, bug: s.bug}, nil
	case s.goesOn() && s.bug != "game over in a match":
		return toy{}, fmt.Errorf("toy: %w: the match goes on", game.ErrIllegalMove)
	case s.n >= 3 && s.bug != "moves when over":
		return toy{}, fmt.Errorf("toy: %w", game.ErrGameOver)
	case m != 1 && m != 2:
		return toy{}, fmt.Errorf("toy: %w: %d", game.ErrIllegalMove, m)
	}
	s.n = min(s.n+int(m), 3)
	return s, nil
}

// recorder is a testing.TB whose Fatalf records the message and ends the
// goroutine, so that a test can see the harness fail.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failure = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run plays 5 toy plays of `games` games each with bug and cfg's hooks
// and returns the harness's failure ("" when it passed).
func run(t *testing.T, games int, bug string, edit func(*Config[toy, toyMove])) string {
	cfg := Config[toy, toyMove]{
		Start: func(int, *rand.Rand) toy { return toy{games: games, bug: bug} },
		ParseState: func(text string) (toy, error) {
			var s toy
			_, err := fmt.Sscanf(text, "%d/%d/%d", &s.n, &s.game, &s.games)
			s.bug = bug
			return s, err
		},
		ParseMove: func(_ toy, text string) (toyMove, error) {
			var m int
			_, err := fmt.Sscan(text, &m)
			return toyMove(m), err
		},
		Position:  func(s toy) (toy, error) { return s, nil },
		Continues: toy.goesOn,
		MaxPlies:  100,
	}
	if edit != nil {
		edit(&cfg)
	}
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		RandomPlayouts(r, 5, 1, cfg)
	}()
	<-done
	return r.failure
}

// TestRandomPlayoutsFails checks that the harness passes a sound game, a
// match included, and fails each broken invariant of package game.
func TestRandomPlayoutsFails(t *testing.T) {
	if got := run(t, 1, "", nil); got != "" {
		t.Errorf("one game: %s", got)
	}
	steps, ends := 0, 0
	if got := run(t, 3, "", func(c *Config[toy, toyMove]) {
		c.Step = func(testing.TB, toy, toyMove, toy) { steps++ }
		c.End = func(_ testing.TB, _ int, s toy) {
			if s.game == 2 && s.n == 3 {
				ends++
			}
		}
	}); got != "" || ends != 5 || steps < 5*(3*2+2) {
		t.Errorf("a match of 3: %q, %d ends at the match's end, %d steps", got, ends, steps)
	}
	for _, tc := range []struct {
		name, bug string
		games     int
		edit      func(*Config[toy, toyMove])
		want      string
	}{
		{"moves when over", "moves when over", 1, nil, "legal moves"},
		{"match without next game", "match without next game", 3, nil, "legal moves"},
		{"match not declared", "", 3, func(c *Config[toy, toyMove]) { c.Continues = nil }, "legal moves"},
		{"next game finished", "next game finished", 3, nil, "the move to the next game"},
		{"game over in a match", "game over in a match", 3, nil, "want an error wrapping illegal move"},
		{"position", "", 1, func(c *Config[toy, toyMove]) {
			c.Position = func(s toy) (toy, error) { s.n++; return s, nil }
		}, "FromPosition"},
		{"choose", "", 1, func(c *Config[toy, toyMove]) {
			c.Choose = func(toy, []toyMove, *rand.Rand) toyMove { return 3 }
		}, "not a legal move"},
		{"too long", "", 3, func(c *Config[toy, toyMove]) { c.MaxPlies = 4 }, "not finished"},
	} {
		if got := run(t, tc.games, tc.bug, tc.edit); !strings.Contains(got, tc.want) {
			t.Errorf("%s: harness said %q; want a failure with %q", tc.name, got, tc.want)
		}
	}
}

func (s toy) AppendText(b []byte) ([]byte, error)     { return append(b, s.String()...), nil }
func (m toyMove) AppendText(b []byte) ([]byte, error) { return append(b, m.String()...), nil }

// TestTextChecksFail checks that CheckTexts and CheckStateTexts pass the
// toy's texts and fail a legacy form that differs, in each of its uses.
func TestTextChecksFail(t *testing.T) {
	good := Texts[toy, toyMove]{
		LegacyState: toy.String,
		LegacyMove:  toyMove.String,
		AppendNotations: func(dst []string, moves []toyMove) []string {
			for _, m := range moves {
				dst = append(dst, m.String())
			}
			return dst
		},
		AppendStateTexts: func(dst []string, states []toy) []string {
			for _, s := range states {
				dst = append(dst, s.String())
			}
			return dst
		},
	}
	check := func(x Texts[toy, toyMove]) string {
		r := &recorder{TB: t}
		done := make(chan struct{})
		go func() {
			defer close(done)
			CheckTexts(r, toy{n: 1}, x)
			CheckStateTexts(r, []toy{{n: 1}, {n: 2}}, x)
		}()
		<-done
		return r.failure
	}
	if got := check(good); got != "" {
		t.Errorf("sound texts: %s", got)
	}
	badState, badMove, badList, badStates := good, good, good, good
	badState.LegacyState = func(s toy) string { return "?" + s.String() }
	badMove.LegacyMove = func(m toyMove) string { return "?" }
	badList.AppendNotations = func(dst []string, moves []toyMove) []string { return good.AppendNotations(dst, moves[1:]) }
	badStates.AppendStateTexts = func(dst []string, states []toy) []string { return append(dst, "", "") }
	for name, x := range map[string]Texts[toy, toyMove]{"state": badState, "move": badMove, "notations": badList, "state texts": badStates} {
		if check(x) == "" {
			t.Errorf("%s: a wrong text passed", name)
		}
	}
}
