package mat

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// TestReplayOnePass: Replay plays a record once, and what it answers is
// what the two-pass replay it replaced answered (twoPassReplay, the code
// of before, which replayed a money session again with NoJacoby set when
// a game's points proved the Jacoby rule off): the same moves, lines and
// columns, the same error, the same NoJacoby after it; and each move's
// Played and After are what the engine makes of its notation from the
// state before it (from Options, chaining a money session's games with
// State.NextSessionGame). The records are random money sessions with the
// cube (gammons with the cube in the middle, doubles, beavers,
// resignations), written without the Jacoby rule and the tag that says so
// (so Replay must infer it), then tampered at random: a "Wins" line's
// points changed or removed, a header's score changed.
func TestReplayOnePass(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 4))
	winsRe := regexp.MustCompile(`Wins (\d+) points?`)
	scoreRe := regexp.MustCompile(`: (\d+)`)
	kinds := map[string]int{}
	for k := 0; k < 200; k++ {
		start, moves, proofs := randomSession(t, r, 2+r.IntN(4), r.IntN(2) == 0)
		on := r.IntN(2) == 0
		if !on {
			start = start.WithoutJacoby()
		}
		text, err := Write(start, moves, [2]string{"a", "b"})
		if err != nil {
			t.Fatal(err)
		}
		games := strings.Split(strings.TrimPrefix(string(text), "; [Jacoby \"Off\"]\n"), "\n Game ")
		what := "as written"
		if on && len(proofs) > 0 {
			// Written with the rule, but for one game, the last that
			// scores more without it, which says its full points: the
			// replay finds the rule off there, and the games before it
			// then contradict the record (at their "Wins" lines, or, with
			// those removed, at the next header).
			g := proofs[len(proofs)-1]
			games[1+g[0]] = winsRe.ReplaceAllString(games[1+g[0]], fmt.Sprintf("Wins %d points", g[1]))
			what = "one game scored in full"
			if r.IntN(2) == 0 {
				for _, e := range proofs[:len(proofs)-1] {
					games[1+e[0]] = winsRe.ReplaceAllString(games[1+e[0]], "")
				}
			}
		}
		for n := r.IntN(3); n > 0; n-- {
			gi := 1 + r.IntN(len(games)-1)
			switch r.IntN(3) {
			case 0:
				games[gi] = winsRe.ReplaceAllStringFunc(games[gi], func(w string) string {
					return fmt.Sprintf("Wins %d points", 1+r.IntN(4))
				})
				what = "points changed"
			case 1:
				games[gi] = winsRe.ReplaceAllString(games[gi], "")
				what = "wins line removed"
			default:
				lines := strings.SplitN(games[gi], "\n", 3)
				if len(lines) == 3 {
					lines[1] = scoreRe.ReplaceAllStringFunc(lines[1], func(s string) string {
						v, _ := strconv.Atoi(s[2:])
						return ": " + strconv.Itoa(v+1)
					})
					games[gi] = strings.Join(lines, "\n")
				}
				what = "header changed"
			}
		}
		rec := []byte(strings.Join(games, "\n Game "))
		m, err := Read(rec)
		if err != nil {
			t.Fatalf("%s\n%v", rec, err)
		}
		old := m
		got, err := m.Replay()
		want, wantErr := old.twoPassReplay()
		outcome := "replayed"
		switch {
		case err != nil || wantErr != nil:
			outcome = "refused"
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || fmt.Sprintf("%#v", errors.Unwrap(err)) != fmt.Sprintf("%#v", errors.Unwrap(wantErr)) {
				t.Fatalf("record %d (%s):\n%s\nReplay: %v\ntwo passes: %v", k, what, rec, err, wantErr)
			}
		case len(got) != len(want):
			t.Fatalf("record %d: %d moves; two passes %d", k, len(got), len(want))
		}
		if m.NoJacoby != old.NoJacoby {
			t.Fatalf("record %d (%s): NoJacoby %v; two passes %v", k, what, m.NoJacoby, old.NoJacoby)
		}
		if m.NoJacoby {
			outcome += ", Jacoby off"
		}
		kinds[what+": "+outcome]++
		if err != nil {
			continue
		}
		s, _ := backgammon.New(m.Options())
		for i, mv := range got {
			if w := want[i]; mv.Notation != w.Notation || mv.Line != w.Line || mv.Column != w.Column {
				t.Fatalf("record %d move %d: %+v; two passes %+v", k, i, mv, w)
			}
			next, played, err := applyText(s, mv.Notation)
			if err != nil || next != mv.After || played != mv.Played {
				t.Fatalf("record %d move %d %q: Played %v, After %s; from %s the engine makes %v, %s (%v)", k, i, mv.Notation, mv.Played, mv.After, s, played, next, err)
			}
			s = next
		}
	}
	t.Logf("%v", kinds)
	for _, want := range []string{"as written: replayed, Jacoby off", "points changed: refused", "wins line removed: replayed, Jacoby off", "header changed: refused", "one game scored in full: refused"} {
		if kinds[want] == 0 {
			t.Errorf("no record %q", want)
		}
	}
}

// randomSession plays a random money session with the cube and the
// Jacoby rule of the given number of games (rolls, plays, now and then a
// double, beaver or resignation and their answers) and returns its start
// and moves, "next game" between the games, and the games (from 0) that
// score more without the Jacoby rule, each with its points without it.
func randomSession(t *testing.T, r *rand.Rand, games int, beavers bool) (backgammon.State, []string, [][2]int) {
	t.Helper()
	start, err := backgammon.New(backgammon.Options{Cube: true, Beavers: beavers, Score: [2]int{r.IntN(5), r.IntN(5)}})
	if err != nil {
		t.Fatal(err)
	}
	s := start
	var moves []string
	var proofs [][2]int
	for g := 0; g < games; g++ {
		if g > 0 {
			if s, err = s.NextSessionGame(); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, "next game")
		}
		for s.Phase() != backgammon.PhaseOver {
			legal := s.LegalMoves()
			var m backgammon.Move
			switch s.Phase() {
			case backgammon.PhaseOpening, backgammon.PhaseRoll:
				m, _ = backgammon.RollDice(s, r)
				if r.IntN(60) == 0 {
					if i := slices.IndexFunc(legal, func(mv backgammon.Move) bool { return mv.Kind() == backgammon.KindDouble }); i >= 0 {
						m = legal[i]
					}
				}
			default:
				var plays, others []backgammon.Move
				for _, mv := range legal {
					if k := mv.Kind(); k == backgammon.KindPlay || k == backgammon.KindPass {
						plays = append(plays, mv)
					} else {
						others = append(others, mv)
					}
				}
				if len(plays) == 0 || len(others) > 0 && r.IntN(80) == 0 {
					m = others[r.IntN(len(others))]
				} else {
					m = plays[r.IntN(len(plays))]
				}
			}
			if s, err = s.Apply(m); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, m.String())
		}
		if off := s.WithoutJacoby().Outcome(); off.Points[off.Winner] != s.Outcome().Points[off.Winner] {
			proofs = append(proofs, [2]int{g, off.Points[off.Winner]})
		}
	}
	return start, moves, proofs
}

// The replay of before, for TestReplayOnePass: main at 1d15be7, the moves
// (Notation, Line, Column) only; the Jacoby rule found by replaying again.
func (m *Match) twoPassReplay() ([]Move, error) {
	out, err := m.replayOld()
	if errors.Is(err, errJacobyOff) && m.Length == 0 && !m.NoJacoby {
		m.NoJacoby = true
		if out, err = m.replayOld(); err != nil {
			m.NoJacoby = false
		}
	}
	if err != nil {
		var je *jacobyError
		if errors.As(err, &je) {
			return nil, je.err
		}
		return nil, err
	}
	return out, nil
}

// errJacobyOff marks a game whose "Wins" line is what the game scores
// without the Jacoby rule.
var errJacobyOff = errors.New("played without the Jacoby rule")

type jacobyError struct{ err error }

func (e *jacobyError) Error() string { return e.err.Error() }
func (e *jacobyError) Unwrap() error { return errJacobyOff }

func (m *Match) replayOld() ([]Move, error) {
	s, err := backgammon.New(m.Options())
	if err != nil {
		return nil, fail(1, 1, "match header: %v", err)
	}
	var out []Move
	apply := func(mv Move) error {
		next, _, err := s.ApplyText(mv.Notation)
		if err != nil {
			return &MoveError{Line: mv.Line, Column: mv.Column, Index: len(out), Notation: mv.Notation, Before: s.String(), Err: err}
		}
		s = next
		out = append(out, mv)
		return nil
	}
	for gi, g := range m.Games {
		switch {
		case gi > 0 && m.Length == 0:
			// A money session's next game is not a move of the API (a
			// money game is one game); the engine chains it.
			mv := Move{Notation: "next game", Line: g.lineOf(), Column: 1}
			next, err := s.NextSessionGame()
			if err != nil {
				return nil, &MoveError{Line: mv.Line, Column: mv.Column, Index: len(out), Notation: mv.Notation, Before: s.String(), Err: err}
			}
			s = next
			out = append(out, mv)
		case gi > 0:
			if err := apply(Move{Notation: "next game", Line: g.lineOf(), Column: 1}); err != nil {
				return nil, err
			}
		}
		if w, b := s.Score(); [2]int{w, b} != g.Score {
			return nil, fail(g.line+1, 1, "game %d starts at %d-%d, the score the games before reach, not %d-%d", gi+1, w, b, g.Score[0], g.Score[1])
		}
		opening := true
		for ai, a := range g.Actions {
			if a.Dice[0] == 0 {
				before := s
				if err := apply(Move{Notation: a.Play, Line: a.Line, Column: a.Column}); err != nil {
					return nil, err
				}
				if want := 2 * s.CubeValue(); a.Play == "beaver" && a.Cube != want || a.Play == "double" && a.Cube != 2*before.CubeValue() {
					return nil, fail(a.Line, a.Column, "the cube offered is %d, not %d", map[bool]int{true: want, false: 2 * before.CubeValue()}[a.Play == "beaver"], a.Cube)
				}
				continue
			}
			if s.Phase() == backgammon.PhaseDouble && len(out) > 0 && out[len(out)-1].Notation == "beaver" {
				// gnubg writes no "Takes" after a beaver: the roll says it.
				if err := apply(Move{Notation: "take", Line: a.Line, Column: a.Column}); err != nil {
					return nil, err
				}
			}
			d := a.Dice
			if opening {
				hi, lo := max(d[0], d[1]), min(d[0], d[1])
				if a.Player == 0 {
					d = [2]int{hi, lo}
				} else {
					d = [2]int{lo, hi}
				}
				opening = false
			}
			play := "pass"
			if a.Play != "" {
				play = ourSteps(a.Play)
			}
			if err := apply(Move{Notation: fmt.Sprintf("roll %d-%d", d[0], d[1]), Line: a.Line, Column: a.Column}); err != nil {
				return nil, err
			}
			if a.Play == "" && ai == len(g.Actions)-1 && g.Winner >= 0 && g.Winner != a.Player {
				// The game's last roll, no play, and the roller lost: he
				// resigned after rolling (gnubg writes the roll alone).
				continue
			}
			if p, _ := forcedPlay(s); a.Play == "" && ai == len(g.Actions)-1 && g.Winner < 0 && gi == len(m.Games)-1 && p != "pass" {
				continue // the dice still to be played (a roll with no play: its pass)
			}
			if a.Play == "" {
				// A roll written alone: the forced play, or none.
				p, n := forcedPlay(s)
				if n > 1 {
					return nil, fail(a.Line, a.Column, "%d%d: the roll is written without a play while %d plays are legal (only a forced play, or none, may be left out)", a.Dice[0], a.Dice[1], n)
				}
				play = p
			}
			if err := apply(Move{Notation: play, Line: a.Line, Column: a.Column}); err != nil {
				return nil, err
			}
		}
		if g.Winner < 0 {
			continue
		}
		if s.Phase() != backgammon.PhaseOver {
			level, err := m.resignLevel(g, s)
			if err != nil {
				return nil, err
			}
			for _, n := range []string{"resign " + [...]string{"", "single", "gammon", "backgammon"}[level], "accept"} {
				if err := apply(Move{Notation: n, Line: g.winsLine, Column: 1}); err != nil {
					return nil, err
				}
			}
		}
		res := s.Outcome()
		if res.Winner == g.Winner && res.Points[res.Winner] == g.Points {
			continue
		}
		err := fail(g.winsLine, 1, "the record says %s wins %d points; the game ends with %s winning %d (%s)", m.side(g.Winner), g.Points, m.side(res.Winner), res.Points[res.Winner], res.Detail)
		if res.Winner == g.Winner && s.Jacoby() && s.End() == "borne off" && s.CubeOwner() < 0 && res.Detail != "single" &&
			g.Points == map[string]int{"gammon": 2, "backgammon": 3}[res.Detail]*s.CubeValue() {
			return nil, &jacobyError{err}
		}
		return nil, err
	}
	return out, nil
}
