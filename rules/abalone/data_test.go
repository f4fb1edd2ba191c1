package abalone

// Tests against the oracle data in ../../testdata/abalone (see
// testdata/abalone/README.md): the standard layouts,
// 400 random positions with their complete move sets, 8 replay games with
// the legal-move count before every ply, and 1,941 archive games.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/oracle"
)

// openData opens testdata/abalone/<name>, gunzipping it when its name ends in .gz.
func openData(t testing.TB, name string) io.Reader {
	t.Helper()
	return oracle.Open(t, "abalone/"+name)
}

// mustCells parses upper-case cell names into a bitboard.
func mustCells(t testing.TB, names []string) uint64 {
	t.Helper()
	var b uint64
	for _, n := range names {
		c, err := ParseCell(n)
		if err != nil {
			t.Fatal(err)
		}
		b |= bitOf(c)
	}
	return b
}

func playerOf(t testing.TB, name string) int {
	switch name {
	case "black":
		return Black
	case "white":
		return White
	}
	t.Fatalf("side %q", name)
	return -1
}

// applyCanonical applies an oracle move in canonical form
// "<own from>><own to>[|<pushed from>><pushed to or OFF>]" to a board,
// independently of the engine, and returns the board after it.
func applyCanonical(t testing.TB, board [2]uint64, me int, canon string) [2]uint64 {
	t.Helper()
	parts := strings.Split(canon, "|")
	move := func(b *uint64, part string) {
		from, to, ok := strings.Cut(part, ">")
		if !ok {
			t.Fatalf("canonical move %q", canon)
		}
		f, g := strings.Split(from, ","), strings.Split(to, ",")
		if len(f) != len(g) {
			t.Fatalf("canonical move %q", canon)
		}
		for _, c := range f {
			if *b&mustCells(t, []string{c}) == 0 {
				t.Fatalf("canonical move %q: %s is not occupied", canon, c)
			}
			*b &^= mustCells(t, []string{c})
		}
		for _, c := range g {
			if c != "OFF" {
				*b |= mustCells(t, []string{c})
			}
		}
	}
	move(&board[me], parts[0])
	if len(parts) == 2 {
		move(&board[me^1], parts[1])
	}
	return board
}

type layoutsFile map[string]struct{ Black, White []string }

var layoutKeys = map[Layout]string{Classic: "classic", BelgianDaisy: "belgian", GermanDaisy: "german"}

func TestLayoutsMatchData(t *testing.T) {
	var data layoutsFile
	if err := json.NewDecoder(openData(t, "layouts.json")).Decode(&data); err != nil {
		t.Fatal(err)
	}
	want := map[Layout]int{Classic: 44, BelgianDaisy: 52, GermanDaisy: 80}
	for l, key := range layoutKeys {
		s, err := New(Options{Layout: l})
		if err != nil {
			t.Fatal(err)
		}
		d := data[key]
		if got := [2]uint64{mustCells(t, d.Black), mustCells(t, d.White)}; s.board != got {
			t.Errorf("New(%s) board = %s; want the %q cells of layouts.json", l, s, key)
		}
		if s.ToMove() != Black {
			t.Errorf("New(%s).ToMove() = %d; want Black", l, s.ToMove())
		}
		if n := len(s.LegalMoves()); n != want[l] {
			t.Errorf("len(New(%s).LegalMoves()) = %d; want %d", l, n, want[l])
		}
	}
}

type randomPosition struct {
	Black, White []string
	ToMove       string `json:"to_move"`
	Count        int
	Moves        []string
}

// TestRandomPositions compares LegalMoves with the oracle's complete move set
// for 400 positions, by resulting position.
func TestRandomPositions(t *testing.T) {
	sc := bufio.NewScanner(openData(t, "random-positions.jsonl.gz"))
	sc.Buffer(nil, 1<<20)
	rows := 0
	for sc.Scan() {
		var p randomPosition
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		rows++
		me := playerOf(t, p.ToMove)
		s := State{board: [2]uint64{mustCells(t, p.Black), mustCells(t, p.White)}, toMove: uint8(me)}
		if err := s.Validate(); err != nil {
			t.Fatalf("row %d: %v", rows, err)
		}
		if len(p.Moves) != p.Count {
			t.Fatalf("row %d: data has %d moves, count %d", rows, len(p.Moves), p.Count)
		}
		want := map[[2]uint64]string{}
		for _, cm := range p.Moves {
			want[applyCanonical(t, s.board, me, cm)] = cm
		}
		if len(want) != p.Count {
			t.Fatalf("row %d: oracle moves are not distinct", rows)
		}
		moves := s.LegalMoves()
		got := map[[2]uint64]Move{}
		for _, m := range moves {
			next, err := s.Apply(m)
			if err != nil {
				t.Fatalf("row %d %s: Apply(%s) = %v", rows, s, m, err)
			}
			if prev, dup := got[next.board]; dup {
				t.Errorf("row %d %s: %s and %s give the same position", rows, s, prev, m)
			}
			got[next.board] = m
			if _, ok := want[next.board]; !ok {
				t.Errorf("row %d %s: move %s is not in the oracle's set", rows, s, m)
			}
		}
		for b, cm := range want {
			if _, ok := got[b]; !ok {
				t.Errorf("row %d %s: oracle move %s is missing from LegalMoves", rows, s, cm)
			}
		}
		if len(moves) != p.Count {
			t.Errorf("row %d %s: len(LegalMoves()) = %d; want %d", rows, s, len(moves), p.Count)
		}
		if !slices.IsSortedFunc(moves, func(a, b Move) int { return strings.Compare(a.String(), b.String()) }) {
			t.Errorf("row %d %s: LegalMoves not sorted by notation: %v", rows, s, moves)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != 400 {
		t.Fatalf("read %d random positions; want 400", rows)
	}
}

type replayGame struct {
	Event       string
	Result      string
	Termination string
	Layout      string
	AbaPro      []string `json:"abapro"`
	Canonical   []string
	Counts      []int `json:"legal_move_counts_before_each_ply"`
	Final       struct {
		Black, White []string
		ToMove       string `json:"to_move"`
	} `json:"final_position"`
	Lost       struct{ Black, White int } `json:"marbles_lost"`
	FinalCount int                        `json:"final_legal_move_count"`
}

var layoutByKey = map[string]Layout{"classic": Classic, "belgian": BelgianDaisy, "german": GermanDaisy}

// TestReplayGames replays the 8 oracle games: the legal-move count before
// every ply, each Aba-Pro move's effect against the oracle's canonical form,
// the final position, marbles lost and the recorded result.
func TestReplayGames(t *testing.T) {
	var games []replayGame
	if err := json.NewDecoder(openData(t, "replay-tests.json")).Decode(&games); err != nil {
		t.Fatal(err)
	}
	if len(games) != 8 {
		t.Fatalf("%d replay games; want 8", len(games))
	}
	for _, g := range games {
		t.Run(g.Event, func(t *testing.T) {
			s, err := New(Options{Layout: layoutByKey[g.Layout]})
			if err != nil {
				t.Fatal(err)
			}
			for ply, text := range g.AbaPro {
				if n := len(s.LegalMoves()); n != g.Counts[ply] {
					t.Fatalf("ply %d %s: len(LegalMoves()) = %d; want %d", ply, s, n, g.Counts[ply])
				}
				m, err := ParseMove(s, text)
				if err != nil {
					t.Fatalf("ply %d %s: ParseMove(%q) = %v", ply, s, text, err)
				}
				next, err := s.Apply(m)
				if err != nil {
					t.Fatalf("ply %d %s: Apply(%s) = %v", ply, s, m, err)
				}
				if want := applyCanonical(t, s.board, s.ToMove(), g.Canonical[ply]); next.board != want {
					t.Fatalf("ply %d %s: %s gives %s; the oracle's %s differs", ply, s, text, next, g.Canonical[ply])
				}
				s = next
			}
			want := State{board: [2]uint64{mustCells(t, g.Final.Black), mustCells(t, g.Final.White)}, toMove: uint8(playerOf(t, g.Final.ToMove))}
			if s != want {
				t.Errorf("final position %s; want %s", s, want)
			}
			if s.Lost(Black) != g.Lost.Black || s.Lost(White) != g.Lost.White {
				t.Errorf("lost %d/%d; want %d/%d", s.Lost(Black), s.Lost(White), g.Lost.Black, g.Lost.White)
			}
			// The oracle counts the moves of the final position even when the game is over.
			if n := len(s.appendMoves(nil)); n != g.FinalCount {
				t.Errorf("final move count %d; want %d", n, g.FinalCount)
			}
			checkResult(t, s, g.Result, g.Termination)
		})
	}
}

// checkResult checks a replayed game's final state against its recorded
// result: "1-0"/"0-1" are wins by six pushed off; "*" is a game stopped
// before the end (abandoned, disconnected, time, agreed draw).
func checkResult(t testing.TB, s State, result, termination string) {
	t.Helper()
	o := s.Outcome()
	switch result {
	case "1-0", "0-1":
		w := Black
		if result == "0-1" {
			w = White
		}
		if !o.Finished || o.Winner != w || o.Points[w] != MarblesToWin || o.Detail != "six pushed off" {
			t.Errorf("result %s (%s): Outcome() = %+v after %s", result, termination, o, s)
		}
	case "*":
		// Six archive games say "Au score" with result "*"; none of them
		// reached six, so "*" always means unfinished.
		if o.Finished {
			t.Errorf("result * (%s): Outcome() = %+v after %s; want unfinished", termination, o, s)
		}
	default:
		t.Errorf("unknown result %q", result)
	}
}

type apgnGame struct {
	tags  map[string]string
	moves []string
}

// readAPGN parses APGN: blocks of [Tag "value"] lines, then move text with
// move numbers ("12.") and a result token.
func readAPGN(t testing.TB, r io.Reader) []apgnGame {
	t.Helper()
	var games []apgnGame
	var g *apgnGame
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			if g == nil || len(g.moves) > 0 || g.tags["_done"] != "" {
				games = append(games, apgnGame{tags: map[string]string{}})
				g = &games[len(games)-1]
			}
			name, value, ok := strings.Cut(strings.Trim(line, "[]"), " ")
			if !ok {
				t.Fatalf("APGN tag line %q", line)
			}
			g.tags[name] = strings.Trim(value, `"`)
		default:
			if g == nil {
				t.Fatalf("APGN move text before tags: %q", line)
			}
			for _, tok := range strings.Fields(line) {
				switch {
				case strings.HasSuffix(tok, "."):
				case tok == "1-0" || tok == "0-1" || tok == "*" || tok == "1/2-1/2":
					g.tags["_done"] = tok
				default:
					g.moves = append(g.moves, tok)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

// TestArchiveGames replays all 1,941 archive games from their layout: every
// move parses and is legal, the ply count matches the Plies tag, and the
// final marble counts agree with the recorded result.
func TestArchiveGames(t *testing.T) {
	games := readAPGN(t, openData(t, "migs-games.apgn.gz"))
	if len(games) != 1941 {
		t.Fatalf("read %d APGN games; want 1941", len(games))
	}
	plies, finished := 0, 0
	for _, g := range games {
		name := g.tags["Event"]
		l, ok := layoutByKey[g.tags["Variant"]]
		if !ok {
			t.Fatalf("%s: variant %q", name, g.tags["Variant"])
		}
		if g.tags["Result"] != g.tags["_done"] {
			t.Errorf("%s: Result tag %q, move text ends with %q", name, g.tags["Result"], g.tags["_done"])
		}
		if want := g.tags["Plies"]; fmt.Sprint(len(g.moves)) != want {
			t.Errorf("%s: %d moves; Plies tag %s", name, len(g.moves), want)
		}
		s, err := New(Options{Layout: l})
		if err != nil {
			t.Fatal(err)
		}
		for ply, text := range g.moves {
			m, err := ParseMove(s, text)
			if err != nil {
				t.Fatalf("%s ply %d %s: ParseMove(%q) = %v", name, ply, s, text, err)
			}
			if s, err = s.Apply(m); err != nil {
				t.Fatalf("%s ply %d: Apply(%s) = %v", name, ply, m, err)
			}
			plies++
		}
		checkResult(t, s, g.tags["Result"], g.tags["Termination"])
		if s.Outcome().Finished {
			finished++
		}
	}
	if finished != 631+493 {
		t.Errorf("%d games ended at six pushed off; want 1124 (631 1-0 and 493 0-1)", finished)
	}
	t.Logf("replayed %d games, %d plies", len(games), plies)
}
