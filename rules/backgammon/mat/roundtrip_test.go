package mat

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// randomMatch plays a random match of the given length as gnubg plays
// one: doubles, takes and drops, resignations accepted in the roll phase
// and after a roll (never declined: the format does not hold those), and,
// when unfinished is set, it stops in its last game after a roll (the dice
// still to be played), after a play, or after a pass. It returns the start and the
// replay (each move with the state after it).
func randomMatch(t testing.TB, r *rand.Rand, length int, unfinished bool) (backgammon.State, []Move) {
	t.Helper()
	start, err := backgammon.New(backgammon.Options{MatchLength: length, Cube: true})
	if err != nil {
		t.Fatal(err)
	}
	s := start
	var out []Move
	apply := func(m backgammon.Move) {
		next, err := s.Apply(m)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		out = append(out, Move{Notation: m.String(), Played: m, After: next})
		s = next
	}
	stopAt, inPass := -1, false
	if unfinished {
		stopAt = 20 + r.IntN(200)
		// Half of them end at the first pass from there (when the match
		// has one before its end).
		inPass = r.IntN(2) == 0
	}
	for !s.MatchOver() {
		if len(out) >= stopAt && stopAt >= 0 && s.Phase() == backgammon.PhaseMove && noPlay(s) {
			// A roll with nothing to play: the record ends in its pass
			// (written as the roll alone, which reads back as the pass).
			apply(backgammon.PassMove())
			break
		}
		if len(out) == stopAt && !inPass && (s.Phase() == backgammon.PhaseMove || s.Phase() == backgammon.PhaseRoll) && !(s.Phase() == backgammon.PhaseMove && noPlay(s)) {
			break
		}
		legal := s.LegalMoves()
		switch s.Phase() {
		case backgammon.PhaseOver:
			apply(legal[0]) // next game
		case backgammon.PhaseOpening:
			m, _ := backgammon.RollDice(s, r)
			apply(m)
		case backgammon.PhaseRoll, backgammon.PhaseMove:
			var plays, doubles, resigns []backgammon.Move
			for _, mv := range legal {
				switch mv.Kind() {
				case backgammon.KindPlay, backgammon.KindPass:
					plays = append(plays, mv)
				case backgammon.KindDouble:
					doubles = append(doubles, mv)
				case backgammon.KindResign:
					resigns = append(resigns, mv)
				}
			}
			switch {
			case len(doubles) > 0 && r.IntN(25) == 0:
				apply(doubles[0])
			case len(resigns) > 0 && r.IntN(90) == 0:
				apply(resigns[r.IntN(len(resigns))])
			case s.Phase() == backgammon.PhaseRoll:
				m, _ := backgammon.RollDice(s, r)
				apply(m)
			default:
				apply(plays[r.IntN(len(plays))])
			}
		default: // a double or a resignation to answer
			var take, drop, accept backgammon.Move
			for _, mv := range legal {
				switch mv.Kind() {
				case backgammon.KindTake:
					take = mv
				case backgammon.KindDrop:
					drop = mv
				case backgammon.KindAccept:
					accept = mv
				}
			}
			switch {
			case accept.Kind() == backgammon.KindAccept:
				apply(accept)
			case r.IntN(3) == 0:
				apply(drop)
			default:
				apply(take)
			}
		}
	}
	return start, out
}

// fibsDice writes the dice of every roll in a random order, as FIBS's
// records (and Snowie's of them) write them in the order rolled.
func fibsDice(r *rand.Rand, text []byte) []byte {
	return regexp.MustCompile(`\b([1-6])([1-6]):`).ReplaceAllFunc(text, func(b []byte) []byte {
		if r.IntN(2) == 0 {
			return []byte{b[1], b[0], ':'}
		}
		return b
	})
}

// dialectRecord writes a replay in a dialect ("gnubg", "jellyfish",
// "xg", "galaxy", "fibs": Jellyfish's with the dice in random order),
// forced plays left out when omit is set.
func dialectRecord(t testing.TB, r *rand.Rand, dialect string, omit bool, start backgammon.State, moves []Move) []byte {
	t.Helper()
	d := map[string]Dialect{"gnubg": Gnubg, "jellyfish": Jellyfish, "xg": XG, "galaxy": Galaxy, "fibs": Jellyfish}[dialect]
	o := WriteOptions{Dialect: d, OmitForced: omit}
	if d == XG {
		o.Tags = []Tag{{"Site", "eXtreme Gammon"}, {"Player 1", "Left"}, {"Player 2", "Right"}, {"Crawford", "On"}}
	}
	text, err := WriteReplayOptions(start, moves, [2]string{"Left", "Right"}, o)
	if err != nil {
		t.Fatal(err)
	}
	if dialect == "fibs" {
		text = fibsDice(r, text)
	}
	return text
}

// TestDialectsRoundTrip: random matches (1 to 7 points; doubles, drops,
// resignations before and after a roll; some unfinished, stopping after a
// roll still to be played), written in each dialect, forced plays kept or
// left out, read back to the same replay: every move as the engine played
// it and every state after it.
func TestDialectsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 1))
	n := 30
	if os.Getenv("GAMERULES_LONG") != "" {
		n = 300
	}
	seen := map[string]int{}
	for k := 0; k < n; k++ {
		start, moves := randomMatch(t, r, 1+r.IntN(7), k%3 == 0)
		for _, dialect := range []string{"gnubg", "jellyfish", "xg", "galaxy", "fibs"} {
			for _, omit := range []bool{false, true} {
				text := dialectRecord(t, r, dialect, omit, start, moves)
				m, err := Read(text)
				if err != nil {
					t.Fatalf("%s (omit %v) record %d: %v\n%s", dialect, omit, k, err, text)
				}
				got, err := m.Replay()
				if err != nil {
					t.Fatalf("%s (omit %v) record %d: %v\n%s", dialect, omit, k, err, text)
				}
				if len(got) != len(moves) {
					t.Fatalf("%s (omit %v) record %d: %d moves, want %d\n%s", dialect, omit, k, len(got), len(moves), text)
				}
				for i := range got {
					if d := dialect != "gnubg"; d && got[i].Played != moves[i].Played && got[i].Played.Kind() == backgammon.KindResign && moves[i].Played.Kind() == backgammon.KindResign &&
						moves[len(moves)-1].After.MatchOver() && got[len(got)-1].After.MatchWinner() == moves[len(moves)-1].After.MatchWinner() &&
						!slices.ContainsFunc(moves[i:], func(m Move) bool { return m.Played.Kind() == backgammon.KindNextGame }) {
						// The match's last game resigned, its "Wins" line
						// capped at the points needed: the smallest level
						// whose stake reaches them, as gnubg reads it.
						seen["capped resignation"]++
						break
					}
					if got[i].Played.String() != moves[i].Played.String() || got[i].After != moves[i].After {
						t.Fatalf("%s (omit %v) record %d move %d: %s -> %s; want %s -> %s\n%s", dialect, omit, k, i, got[i].Played, got[i].After, moves[i].Played, moves[i].After, text)
					}
				}
				seen[dialect]++
			}
		}
		if last := moves[len(moves)-1].After; last.Phase() == backgammon.PhaseMove {
			seen["pending roll"]++
		}
		if moves[len(moves)-1].Played.Kind() == backgammon.KindPass {
			seen["ends in a pass"]++
		}
	}
	t.Logf("%v", seen)
	if seen["pending roll"] == 0 || seen["ends in a pass"] == 0 {
		t.Error("no record stopped after a roll, or none in a pass")
	}
}

// TestWriteDialectSamples writes the dialect samples of
// testdata/backgammon/mat/dialects (random matches in each dialect) when
// GAMERULES_WRITE_MAT_SAMPLES names that directory; scripts/gnubg-mat-dialects.sh
// then makes their oracle.
func TestWriteDialectSamples(t *testing.T) {
	dir := os.Getenv("GAMERULES_WRITE_MAT_SAMPLES")
	if dir == "" {
		t.Skip("GAMERULES_WRITE_MAT_SAMPLES not set")
	}
	r := rand.New(rand.NewPCG(24, 2))
	for _, dialect := range []string{"jellyfish", "xg", "galaxy", "fibs"} {
		if err := os.MkdirAll(filepath.Join(dir, dialect), 0o755); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 6; k++ {
			start, moves := randomMatch(t, r, []int{1, 3, 5, 7, 3, 5}[k], k == 4)
			text := dialectRecord(t, r, dialect, k%2 == 1, start, moves)
			name := fmt.Sprintf("%s-%d.mat", dialect, k+1)
			if err := os.WriteFile(filepath.Join(dir, dialect, name), text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
