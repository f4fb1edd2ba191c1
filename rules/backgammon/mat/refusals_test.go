package mat

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/rules/record"
)

// TestRefusalsAtTheFirstProblem: records that gnubg 1.07's import takes
// but the rules forbid are refused at the line and column of the first
// real problem, saying the rule and what the file says (the public FIBS
// and Snowie archives have each of these): a resignation by the player not
// on turn, points no ending gives (a forfeit written "Wins 100 points"), a
// roll written without its play while several plays are legal, Snowie's
// "Illegal play (…)" where the board was set by hand. Before them, the
// records' unknown lines were the errors.
func TestRefusalsAtTheFirstProblem(t *testing.T) {
	head := " 3 point match\n\n Game 1\n Left : 0                     Right : 0\n"
	for _, c := range []struct {
		name, text   string
		line, column int
		says         string
	}{
		{"resignation not on turn", head + "  1) 31: 8/5 6/5\n                                 Wins 1 point\n", 6, 34,
			"Right, the winner, is to act: only the player on turn may resign"},
		{"forfeit", head + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n                                 Wins 100 points\n", 6, 34,
			"100 points is no ending the rules give at cube 1: a resignation scores 1, 2 or 3, or the 3 points Right needed for the match"},
		{"forfeit before the first roll", head + "  1)\n      Wins 3 points and the match\n", 6, 7,
			"the game has no roll, so no resignation explains"},
		{"roll without a play", head + "  1) 31:                         42: 8/4 6/4\n", 5, 6,
			"31: the roll is written without a play while 16 plays are legal"},
		{"hand-set board", head + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) Illegal play (25;0;1;0) 11:\n", 6, 6,
			`"Illegal play (25;0;1;0) 11:": the board was set by hand`},
		{"Losses of other points than the Wins", head + "  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2)  Doubles => 2                Drops\n                                 Losses 2 points\n      Wins 1 point\n", 7, 34,
			`the record says Right loses ("Losses 2"), but Left wins 1`},
		{"\"????\" not last", head + "  1) 31: ????                    42: 8/4 6/4\n", 5, 6,
			`"????" (the roller resigned instead of playing) must be the game's last action`},
	} {
		m, err := Read([]byte(c.text))
		if err == nil {
			_, err = m.Replay()
		}
		var re *record.Error
		if !errors.As(err, &re) || re.Line != c.line || re.Column != c.column || !strings.Contains(re.Reason, c.says) {
			t.Errorf("%s: %v; want line %d, column %d: ...%s...", c.name, err, c.line, c.column, c.says)
		}
	}
}

// TestDocsSamples: the dialect samples of docs/records.md (its code blocks
// with a match header) read and replay, each game ending as its "Wins"
// line says (gnubg 1.07's import gives the same winners and points: bob 4
// at cube 4, bob 2 (a gammon resigned), bob 1).
func TestDocsSamples(t *testing.T) {
	data, err := os.ReadFile("../../../docs/records.md")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0-0:B+4", "0-0:B+2", "0-0:B+1"}
	var got []string
	for _, block := range strings.Split(string(data), "```")[1:] {
		if !strings.Contains(block, " point match\n") {
			continue
		}
		var lines []string
		for _, l := range strings.Split(block, "\n") {
			lines = append(lines, strings.TrimPrefix(l, "  ")) // the list's indent
		}
		s, _, err := importSummary([]byte(strings.Join(lines, "\n")))
		if err != nil {
			t.Fatalf("%v\n%s", err, block)
		}
		got = append(got, s...)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("docs samples: %v; want %v", got, want)
	}
}
