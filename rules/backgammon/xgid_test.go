package backgammon

import (
	"encoding/json"
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/rulestest"
)

// xgidStart returns a game of varied options for the XGID playouts: money
// games without the cube, with the cube (Jacoby on or off, beavers or
// not), and matches of 1..25 points from a random score, the Crawford game
// included.
func xgidStart(k int, r *rand.Rand) Options {
	switch k % 5 {
	case 0:
		return Options{}
	case 1, 2:
		return Options{Cube: true, NoJacoby: r.IntN(2) == 0, Beavers: r.IntN(2) == 0, Score: [2]int{r.IntN(5), r.IntN(5)}}
	}
	o := Options{MatchLength: 1 + r.IntN(25)}
	o.Score = [2]int{r.IntN(o.MatchLength), r.IntN(o.MatchLength)}
	if r.IntN(3) == 0 { // often one player at length - 1
		o.Score[r.IntN(2)] = o.MatchLength - 1
	}
	l := o.MatchLength - 1
	o.Crawford = (o.Score[0] == l) != (o.Score[1] == l) && r.IntN(2) == 0
	return o
}

// xgidPlayouts plays random games of varied options and calls f on every
// state reached.
func xgidPlayouts(t *testing.T, n int, seed uint64, f func(s State)) {
	rulestest.RandomPlayouts(t, n, seed, rulestest.Config[State, Move]{
		Start: func(k int, r *rand.Rand) State {
			s, err := New(xgidStart(k, r))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		ParseState: ParseState,
		ParseMove:  ParseMove,
		Continues:  State.SessionGoesOn,
		MaxPlies:   20000,
		Choose:     chooseCubeMove,
		Check:      func(_ testing.TB, s State) { f(s) },
	})
}

// TestXGIDRoundTrip: every state of random games and matches, written as
// an XGID and read back, is itself when an XGID can hold it, and otherwise
// loses exactly what State.XGID documents; the XGID written again is the
// same text.
func TestXGIDRoundTrip(t *testing.T) {
	n := 60
	if long() {
		n *= 20
	}
	whole, lossy := 0, 0
	xgidPlayouts(t, n, 31, func(s State) {
		x := s.XGID()
		got, err := ParseXGID(x)
		if err != nil && s.phase == PhaseOver && s.end != endBorneOff && errors.Is(err, game.ErrInvalidState) {
			lossy++ // a match won by a drop or a resignation: refused as a game to play
			return
		}
		if err != nil {
			t.Fatalf("%s: ParseXGID(%s) = %v", s, x, err)
		}
		if x2 := got.XGID(); x2 != x {
			t.Fatalf("%s: XGID %s reads as %s, written %s", s, x, got, x2)
		}
		if s.Lossless(FormatXGID) {
			whole++
			if got != s {
				t.Fatalf("%s: XGID %s reads back as %s", s, x, got)
			}
			return
		}
		lossy++
		// What is lost: the board, the dice owner, the score and the cube
		// stay.
		if got.board != s.board || got.turn != s.turn || got.score != s.score || got.cubeLog != s.cubeLog || got.owner != s.owner || got.matchLen != s.matchLen {
			t.Fatalf("%s: XGID %s reads back as %s", s, x, got)
		}
	})
	t.Logf("%d states held whole, %d with documented losses", whole, lossy)
	if whole < 1000 || lossy == 0 {
		t.Fatalf("too few states: %d whole, %d lossy", whole, lossy)
	}
}

// TestXGIDExamples reads hand-checked XGIDs: the start position, a pending
// double in a match, a beaver, and refusals naming the field.
func TestXGIDExamples(t *testing.T) {
	for _, c := range []struct{ xgid, want string }{
		// XG's start position, Black (X) to play 5-2; gnubg 1.07 reads it as
		// 4HPwATDgc/ABMA:cIkKAAAAAAAE (set xgid).
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "4HPwATDgc/ABMA:cIkKAAAAAAAE cube"},
		// The same with White (O) on roll: MIEKAAAAAAAE.
		{"xgid=-b----E-C---eE---c-e----B-:0:0:-1:25:0:0:0:0:8", "4HPwATDgc/ABMA:MIEKAAAAAAAE cube"},
		// Money, Jacoby and beavers (rules 3), max cube 0 would be no cube.
		{"-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10", "4HPwATDgc/ABMA:cAkAAAAAAAAA cube beavers"},
		{"-b----E-C---eE---c-e----B-:0:0:1:00:0:0:1:0:0", "4HPwATDgc/ABMA:cAkAAAAAAAAA"},
	} {
		s, err := ParseXGID(c.xgid)
		if err != nil {
			t.Fatalf("ParseXGID(%s) = %v", c.xgid, err)
		}
		if s.String() != c.want {
			t.Errorf("ParseXGID(%s) = %s, want %s", c.xgid, s, c.want)
		}
		a, err := ParseAnyState(c.xgid)
		if err != nil || a != s {
			t.Errorf("ParseAnyState(%s) = %v, %v", c.xgid, a, err)
		}
	}
	// A beaver and a raccoon (XG's "B" and "R", which gnubg does not read):
	// Black doubled at 1 and White beavered, the cube at 4 on White's side,
	// Black (the doubler) to answer; then Black raccooned, the cube at 8
	// still White's (gnubg keeps it with the taker), White to answer.
	for _, c := range []struct {
		xgid                      string
		turn, count, value, owner int
	}{
		{"XGID=-b----E-C---eE---c-e----B-:2:-1:1:B:0:0:3:0:10", Black, 1, 4, White},
		{"XGID=-b----E-C---eE---c-e----B-:3:-1:1:R:0:0:2:0:10", White, 2, 8, White},
	} {
		s, err := ParseXGID(c.xgid)
		if err != nil {
			t.Fatalf("ParseXGID(%s) = %v", c.xgid, err)
		}
		if s.Phase() != PhaseDouble || s.Turn() != c.turn || s.OnRoll() != Black || s.BeaverCount() != c.count || s.CubeValue() != c.value || s.CubeOwner() != c.owner || !s.Beavers() {
			t.Errorf("ParseXGID(%s) = %s: phase %s, turn %d, on roll %d, beavers %d, cube %d owned by %d", c.xgid, s, s.Phase(), s.Turn(), s.OnRoll(), s.BeaverCount(), s.CubeValue(), s.CubeOwner())
		}
		if s.XGID() != c.xgid {
			t.Errorf("ParseXGID(%s).XGID() = %s", c.xgid, s.XGID())
		}
	}
	for _, c := range []struct{ xgid, field string }{
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0", "9 fields"},
		{"XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:0:10", "position: 26"},
		{"XGID=-b----E-C---eE---c-e----B-:13:0:1:52:0:0:0:0:10", "cube:"},
		{"XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:0:0:10", "cube owner"},
		{"XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:0:0:10", "turn"},
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:0:10", "dice"},
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10", "dice"},
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:40000:0:0:0:10", "score of X"},
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:7:0:0:7:10", "match is over"},
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:2:7:10", "rules"},
		{"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:0:0", ""}, // Jacoby without the cube: kept as read
		{"XGID=-b----E-C---eE---c-e----Z-:0:0:1:52:0:0:0:0:10", "position: character 24"},
		{"XGID=-b----E-C---eE---c-e----C-:0:0:1:52:0:0:0:0:10", "16 checkers"},
	} {
		_, err := ParseXGID(c.xgid)
		if c.field == "" {
			if err != nil {
				t.Errorf("ParseXGID(%s) = %v", c.xgid, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, game.ErrInvalidState) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("ParseXGID(%s) = %v; want an invalid state naming %q", c.xgid, err, c.field)
		}
	}
}

// xgidRow is one line of testdata/backgammon/xgid/gnubg-xgid.jsonl.gz
// (made by gnubg-xgid.py): a state of our random playouts (Ours, its text
// form), the XGID we write for it and gnubg 1.07's Position ID and Match
// ID after "set xgid" of it, and the same for a variant spelling of the
// XGID (no or lower-case prefix, the dice the other way round, another max
// cube), which our writer never produces.
type xgidRow struct {
	Ours, XGID, Gnubg, Variant, GnubgVariant string
}

// xgidBits counts the bits of a Position ID and Match ID pair that agree
// (out of 80 + 72).
func xgidBits(t *testing.T, ours, theirs string) int {
	t.Helper()
	op, om, _ := strings.Cut(ours, ":")
	tp, tm, _ := strings.Cut(theirs, ":")
	var a, b [10]byte
	var c, d [9]byte
	if decode64(op, a[:]) >= 0 || decode64(tp, b[:]) >= 0 || decode64(om, c[:]) >= 0 || decode64(tm, d[:]) >= 0 {
		t.Fatalf("IDs %s, %s do not decode", ours, theirs)
	}
	n := 0
	for i := range a {
		n += 8 - bits.OnesCount8(a[i]^b[i])
	}
	for i := range c {
		n += 8 - bits.OnesCount8(c[i]^d[i])
	}
	return n
}

// TestXGIDGnubg checks our XGID reading against gnubg 1.07's "set xgid"
// on the corpus (at least 2,000 states): every bit of the Position ID and
// Match ID of our reading of each XGID (ours, and the variant spelling)
// equals gnubg's, and our XGID of each state reads back as that state.
// gnubg cannot hold a double offered (it steps back to the roll before the
// offer, saying so): for those rows its IDs must be our reading with the
// offer removed.
func TestXGIDGnubg(t *testing.T) {
	rows := oracle.JSONL[xgidRow](t, "backgammon/xgid/gnubg-xgid.jsonl.gz")
	if len(rows) < 2000 {
		t.Fatalf("only %d rows", len(rows))
	}
	compared, agree, doubles := 0, 0, 0
	kinds := map[string]int{}
	for i, r := range rows {
		want, err := ParseState(r.Ours)
		if err != nil {
			t.Fatalf("row %d: ParseState(%s) = %v", i, r.Ours, err)
		}
		if x := want.XGID(); x != r.XGID {
			t.Fatalf("row %d: %s: XGID %s, the corpus has %s", i, r.Ours, x, r.XGID)
		}
		for _, c := range [][2]string{{r.XGID, r.Gnubg}, {r.Variant, r.GnubgVariant}} {
			s, err := ParseXGID(c[0])
			if err != nil {
				t.Fatalf("row %d: ParseXGID(%s) = %v", i, c[0], err)
			}
			if s != want {
				t.Fatalf("row %d: ParseXGID(%s) = %s, want %s", i, c[0], s, want)
			}
			if s.doubled {
				doubles++
				s.doubled, s.actor = false, s.turn
			}
			ids := s.PositionID() + ":" + s.MatchID()
			compared++
			n := xgidBits(t, ids, c[1])
			agree += n
			if n != 152 {
				t.Errorf("row %d: %s: ours %s, gnubg %s (%d of 152 bits agree)", i, c[0], ids, c[1], n)
			}
		}
		switch {
		case want.matchLen == 0 && !want.cubeUse:
			kinds["money, no cube"]++
		case want.matchLen == 0:
			kinds["money, cube"]++
		case want.crawford:
			kinds["match, Crawford game"]++
		default:
			kinds["match"]++
		}
		if want.cubeLog > 0 {
			kinds["cube turned"]++
		}
		if want.beavers {
			kinds["beavers"]++
		}
		if want.Jacoby() {
			kinds["Jacoby"]++
		}
		kinds[want.Phase().String()]++
	}
	t.Logf("%d XGIDs compared with gnubg (%d with a double offered, compared stepped back): %d of %d bits agree; %v", compared, doubles, agree, compared*152, kinds)
}

// TestXGIDDump writes the states and XGIDs for gnubg-xgid.py when
// GAMERULES_DUMP_XGID names a file (scripts/gnubg-xgid.sh); otherwise it
// is skipped.
func TestXGIDDump(t *testing.T) {
	path := os.Getenv("GAMERULES_DUMP_XGID")
	if path == "" {
		t.Skip("GAMERULES_DUMP_XGID not set")
	}
	r := rand.New(rand.NewPCG(2026, 31))
	seen := map[State]bool{}
	var out []byte
	xgidPlayouts(t, 400, 3131, func(s State) {
		// gnubg reads the XGIDs of states play goes on in; a beaver or a
		// raccoon it does not read.
		if !s.Lossless(FormatXGID) || s.phase == PhaseOver || s.beavered != 0 || seen[s] || r.IntN(24) != 0 {
			return
		}
		seen[s] = true
		x := s.XGID()
		// The variant: another spelling of the same XGID.
		v := x
		switch r.IntN(3) {
		case 0:
			v = strings.TrimPrefix(v, xgidPrefix)
		case 1:
			v = "xgid=" + strings.TrimPrefix(v, xgidPrefix)
		}
		f := strings.Split(v, ":")
		if len(f[4]) == 2 && f[4] != "00" {
			f[4] = string([]byte{f[4][1], f[4][0]})
		}
		if f[9] != "0" {
			f[9] = []string{"8", "10", "12", "15"}[r.IntN(4)]
		}
		v = strings.Join(f, ":")
		line, _ := json.Marshal(map[string]string{"ours": s.String(), "xgid": x, "variant": v})
		out = append(append(out, line...), '\n')
	})
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d states", len(seen))
}
