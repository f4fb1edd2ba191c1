package backgammon

import (
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gamerules/gamerules/rules/rulestest"
)

func long() bool { return os.Getenv("GAMERULES_LONG") != "" }

// checkState is the per-state check of the playouts: the pip count matches
// the board, and checkers on the board plus borne off are 15 a side.
func checkState(t testing.TB, s State) {
	t.Helper()
	b := s.Board()
	for p := 0; p < 2; p++ {
		pips, n := 0, 0
		for i, c := range b[p] {
			pips += c * (i + 1)
			n += c
		}
		if s.Pips(p) != pips || n+s.Checkers(p, Off) != Checkers {
			t.Fatalf("%s: player %d pips %d (board says %d), %d on board + %d off", s, p, s.Pips(p), pips, n, s.Checkers(p, Off))
		}
	}
}

func TestRandomPlayouts(t *testing.T) {
	games := 300
	if long() {
		games = 20000
	} else if testing.Short() || rulestest.RaceEnabled {
		games = 60
	}
	plies := rulestest.RandomPlayouts(t, games, 1, rulestest.Config[State, Move]{
		Start: func(i int, r *rand.Rand) State {
			s, _ := New(Options{})
			return s
		},
		ParseState: ParseState,
		ParseMove:  ParseMove,
		Position:   func(s State) (State, error) { return FromPosition(s.Position()) },
		MaxPlies:   20000,
		Check:      checkState,
	})
	t.Logf("%d games, %d plies", games, plies)
}

// TestRandomPlayoutsCubeAndMatch runs the shared harness, with uniformly
// random moves, on the other variants: money games with the cube (Jacoby
// on or off, beavers or not) and matches of 1 to 7 points from a random
// score, Crawford or not, where a finished game lists "next game" until the
// match is over. TestCubePlayouts plays them as a plausible player would.
func TestRandomPlayoutsCubeAndMatch(t *testing.T) {
	games := 200
	if long() {
		games = 20000
	} else if testing.Short() || rulestest.RaceEnabled {
		games = 40
	}
	plies := rulestest.RandomPlayouts(t, games, 2, rulestest.Config[State, Move]{
		Start: func(i int, r *rand.Rand) State {
			o := Options{Cube: true, NoJacoby: r.IntN(2) == 0, Beavers: r.IntN(2) == 0}
			if i%2 == 1 {
				o = Options{MatchLength: 1 + r.IntN(7)}
				o.Score = [2]int{r.IntN(o.MatchLength), r.IntN(o.MatchLength)}
				l := o.MatchLength - 1
				o.Crawford = (o.Score[0] == l) != (o.Score[1] == l) && r.IntN(2) == 0
			}
			s, err := New(o)
			if err != nil {
				t.Fatalf("New(%+v) = %v", o, err)
			}
			return s
		},
		ParseState: ParseState,
		ParseMove:  ParseMove,
		Position:   func(s State) (State, error) { return FromPosition(s.Position()) },
		Continues:  State.SessionGoesOn,
		MaxPlies:   20000,
		Check:      checkState,
		End: func(t testing.TB, i int, s State) {
			if s.MatchLength() > 0 && !s.MatchOver() {
				t.Fatalf("play %d ended at %s before the match is over", i, s)
			}
		},
	})
	t.Logf("%d games and matches, %d plies", games, plies)
}

// gameStats counts what the property playouts saw.
type gameStats struct {
	games, plays, passes, hits int
	points                     [4]int // games won by 1, 2, 3 points
}

// playGames plays n games with dice drawn by RollDice and uniformly random
// plays, seeded by seed, and checks every transition: the mover's pips drop
// by the steps' lengths, each step is one die (or a bear-off with a larger
// die), the opponent's pips rise exactly by the hits, borne-off checkers
// never come back, no point is mixed (Validate), and every game ends with a
// valid score. visit, when set, sees every state in PhaseMove.
func playGames(t testing.TB, n int, seed uint64, visit func(State)) gameStats {
	r := rand.New(rand.NewPCG(seed, 7))
	var st gameStats
	var buf []Move
	for g := 0; g < n; g++ {
		s, _ := New(Options{})
		for ply := 0; s.Phase() != PhaseOver; ply++ {
			if ply > 20000 {
				t.Fatalf("game %d: not over after %d plies: %s", g, ply, s)
			}
			if s.Phase() != PhaseMove {
				m, err := RollDice(s, r)
				if err != nil {
					t.Fatalf("RollDice(%s) = %v", s, err)
				}
				if s, err = s.Apply(m); err != nil {
					t.Fatalf("Apply(%s) = %v", m, err)
				}
				continue
			}
			if visit != nil {
				visit(s)
			}
			buf = s.AppendLegalMoves(buf[:0])
			m := buf[r.IntN(len(buf))]
			next, err := s.Apply(m)
			if err != nil {
				t.Fatalf("%s: Apply(%s) = %v", s, m, err)
			}
			if err := next.Validate(); err != nil {
				t.Fatalf("%s: after %s: %v", s, m, err)
			}
			me, op := s.Turn(), 1-s.Turn()
			if m.Kind() == KindPass {
				st.passes++
				if next.Board() != s.Board() {
					t.Fatalf("%s: pass changed the board", s)
				}
			} else {
				st.plays++
				d1, d2 := s.Dice()
				dice := []int{d1, d2}
				if d1 == d2 {
					dice = []int{d1, d1, d1, d1}
				}
				drop, rise := 0, 0
				for _, step := range m.Steps() {
					drop += step.From - step.To
					if step.Hit {
						rise += step.To
						st.hits++
					}
					ok := false
					for k, d := range dice {
						if d == step.From-step.To || step.To == Off && d > step.From {
							dice = append(dice[:k], dice[k+1:]...)
							ok = true
							break
						}
					}
					if !ok {
						t.Fatalf("%s: %s: step %s is no die of %d-%d", s, m, step, d1, d2)
					}
				}
				if s.Pips(me)-next.Pips(me) != drop || next.Pips(op)-s.Pips(op) != rise {
					t.Fatalf("%s: %s: pips %d->%d and %d->%d; want a drop of %d and a rise of %d", s, m, s.Pips(me), next.Pips(me), s.Pips(op), next.Pips(op), drop, rise)
				}
			}
			if next.Checkers(me, Off) < s.Checkers(me, Off) || next.Checkers(op, Off) != s.Checkers(op, Off) {
				t.Fatalf("%s: %s changed the borne-off counts wrongly", s, m)
			}
			s = next
		}
		o := s.Outcome()
		if !o.Finished || o.Winner != 1-s.Turn() || s.Checkers(o.Winner, Off) != Checkers || o.Points[o.Winner] < 1 || o.Points[o.Winner] > 3 || o.Points[1-o.Winner] != 0 {
			t.Fatalf("game %d ends %s with %+v", g, s, o)
		}
		st.points[o.Points[o.Winner]]++
		st.games++
	}
	return st
}

// TestGameProperties plays games with real dice. GAMERULES_LONG=1 plays
// 100,000 (on both cores).
func TestGameProperties(t *testing.T) {
	n, workers := 400, 1
	if long() {
		n, workers = 50000, 2
	} else if testing.Short() || rulestest.RaceEnabled {
		n = 40
	}
	var mu sync.Mutex
	var total gameStats
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			st := playGames(t, n, uint64(100+w), nil)
			mu.Lock()
			defer mu.Unlock()
			total.games += st.games
			total.plays += st.plays
			total.passes += st.passes
			total.hits += st.hits
			for i := range st.points {
				total.points[i] += st.points[i]
			}
		}(w)
	}
	wg.Wait()
	t.Logf("%d games: %d plays, %d passes, %d hits; single %d, gammon %d, backgammon %d",
		total.games, total.plays, total.passes, total.hits, total.points[1], total.points[2], total.points[3])
	if total.passes == 0 || total.hits == 0 || total.points[1] == 0 || total.points[2] == 0 {
		t.Errorf("the games did not see passes, hits, singles and gammons: %+v", total)
	}
}

// refPlays is a slow, direct reading of the rules, to check the generator
// against: it plays the dice in every order (four times for a double), each
// die from every point, keeps the sequences that use the most dice and then
// the most pips, and returns the Position IDs after them (deduplicated,
// sorted).
func refPlays(s State) []string {
	d1, d2 := s.Dice()
	orders := [][]int{{d1, d2}, {d2, d1}}
	if d1 == d2 {
		orders = [][]int{{d1, d1, d1, d1}}
	}
	type result struct {
		b          Board
		used, pips int
	}
	var results []result
	me, op := s.Turn(), 1-s.Turn()
	var rec func(b Board, dice []int, used, pips int)
	rec = func(b Board, dice []int, used, pips int) {
		moved := false
		if len(dice) > 0 {
			d := dice[0]
			for from := 25; from >= 1; from-- {
				if b[me][from-1] == 0 || (b[me][24] > 0 && from != 25) {
					continue
				}
				to := from - d
				if to >= 1 {
					if b[op][24-to] >= 2 { // my point to is his 25-to
						continue
					}
				} else {
					home := true
					for p := 7; p <= 25; p++ {
						home = home && b[me][p-1] == 0
					}
					if !home {
						continue
					}
					if to < 0 {
						higher := false
						for p := from + 1; p <= 6; p++ {
							higher = higher || b[me][p-1] > 0
						}
						if higher {
							continue
						}
					}
				}
				nb := b
				nb[me][from-1]--
				if to >= 1 {
					if nb[op][24-to] == 1 {
						nb[op][24-to] = 0
						nb[op][24]++
					}
					nb[me][to-1]++
				}
				moved = true
				rec(nb, dice[1:], used+1, pips+d)
			}
		}
		if !moved {
			results = append(results, result{b, used, pips})
		}
	}
	for _, o := range orders {
		rec(s.Board(), o, 0, 0)
	}
	best := result{used: -1}
	for _, r := range results {
		if r.used > best.used || r.used == best.used && r.pips > best.pips {
			best = r
		}
	}
	seen := map[string]bool{}
	var ids []string
	for _, r := range results {
		if r.used != best.used || r.pips != best.pips || r.used == 0 {
			continue
		}
		next, err := FromBoard(r.b, op, PhaseRoll, 0, 0)
		if err != nil {
			next, _ = FromBoard(r.b, op, PhaseOver, 0, 0)
		}
		if id := next.PositionID(); !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// TestAgainstReference compares LegalMoves with refPlays on the positions
// of random games (with real dice).
func TestAgainstReference(t *testing.T) {
	n := 30
	if long() {
		n = 3000
	} else if testing.Short() || rulestest.RaceEnabled {
		n = 3
	}
	positions := 0
	playGames(t, n, 42, func(s State) {
		positions++
		want := refPlays(s)
		var got []string
		for _, m := range s.LegalMoves() {
			if m.Kind() == KindPass {
				continue
			}
			next, err := s.Apply(m)
			if err != nil {
				t.Fatalf("%s: Apply(%s) = %v", s, m, err)
			}
			got = append(got, next.PositionID())
		}
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("%s: LegalMoves gives %d positions, the reference %d:\n got  %v\n want %v", s, len(got), len(want), got, want)
		}
	})
	t.Logf("%d positions agree with the reference generator", positions)
}
