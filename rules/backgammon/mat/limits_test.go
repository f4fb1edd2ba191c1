package mat

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// maxRecord is the largest record the service takes (its 512 KiB receive
// limit).
const maxRecord = 512 << 10

// hostileMats are records of the maximum size shaped to cost the most:
// one game of one-roll lines (what made reading quadratic), numbered lines
// without actions, repeated "Wins" lines, comments before the header, and
// a money session of many short games (each one roll, then resigned).
func hostileMats() map[string][]byte {
	fill := func(head, line func(i int) string) []byte {
		var b strings.Builder
		b.WriteString(head(0))
		for i := 1; b.Len() < maxRecord; i++ {
			b.WriteString(line(i))
		}
		return []byte(b.String()[:maxRecord])
	}
	game := func(int) string { return " 5 point match\n\n Game 1\n White : 0                    Black : 0\n" }
	return map[string][]byte{
		"one-roll-lines": fill(game, func(i int) string { return fmt.Sprintf("%3d) 31:\n", i) }),
		"empty-lines":    fill(game, func(i int) string { return fmt.Sprintf("%3d)\n", i) }),
		"wins-lines":     fill(game, func(int) string { return "     Wins 1 point\n" }),
		"comments":       fill(func(int) string { return "" }, func(int) string { return "; [x]\n" }),
		"tags":           fill(func(int) string { return "" }, func(int) string { return "; [Site \"x\"]\n" }),
		"xg-steps": fill(game, func(i int) string {
			return fmt.Sprintf("%3d) 31: 24/23*/22*/21*/20*/19*/18*/17*/16*/15*/14*/13*/12*/11*/10*/9*/8*/7*/6*/5*/4*/3*/2*/1*/off(4)\n", i)
		}),
		"session": fill(func(int) string { return " 0 point match\n" }, func(i int) string {
			return fmt.Sprintf("\n Game %d\n White : 0                    Black : 0\n  1) 31: 8/5 6/5\n     Wins 1 point\n", i)
		}),
	}
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// importMax is what an import does with a record: read, then replay, with
// the service's move limit.
func importMax(ctx context.Context, data []byte) error {
	lim := Limits{MaxMoves: 9_000, MaxTags: 1_000}
	m, err := ReadContext(ctx, data, lim)
	if err != nil {
		return err
	}
	_, err = m.ReplayContext(ctx, lim)
	return err
}

// TestMaxSizeRecordsLinear reads and replays every hostile record of the
// maximum size within a CPU bound generous enough for a loaded 2-core
// machine (BenchmarkMaxSizeRecords measures them; the target is 50 ms):
// before reading was linear and capped, the first took 6-7 s.
func TestMaxSizeRecordsLinear(t *testing.T) {
	for name, data := range hostileMats() {
		t.Run(name, func(t *testing.T) {
			start := cpuTime()
			err := importMax(context.Background(), data)
			if used := cpuTime() - start; used > 500*time.Millisecond {
				t.Errorf("%v of CPU for %d bytes (err %v); want well under 500ms", used, len(data), err)
			}
			t.Logf("%s: %v", name, err)
		})
	}
}

// TestReadStopsAtTheMoveLimit: a record over the limit is refused at the
// line where the fewest moves it can replay to pass it, not after reading
// or replaying the rest.
func TestReadStopsAtTheMoveLimit(t *testing.T) {
	data := hostileMats()["one-roll-lines"]
	_, err := ReadContext(context.Background(), data, Limits{MaxMoves: 100})
	var le *LimitError
	if !errors.As(err, &le) || le.Max != 100 || le.Line > 60 {
		t.Fatalf("err %v; want a *LimitError near line 55", err)
	}
}

// TestReadStopsAtTheDeadline: an ended context stops reading and the
// replay with its error.
func TestReadStopsAtTheDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadContext(ctx, hostileMats()["empty-lines"], Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadContext: %v; want context.Canceled", err)
	}
	session := string(hostileMats()["session"][:64<<10])
	m, err := Read([]byte(session[:strings.LastIndex(session, "\n Game")]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.ReplayContext(ctx, Limits{}); !errors.Is(err, context.Canceled) {
		t.Errorf("ReplayContext: %v; want context.Canceled", err)
	}
}

// BenchmarkMaxSizeRecords measures an import (ReadContext, ReplayContext
// with the service's limit) of each hostile record of the maximum size.
func BenchmarkMaxSizeRecords(b *testing.B) {
	for name, data := range hostileMats() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				_ = importMax(context.Background(), data)
			}
		})
	}
}

// TestWriteMaxBytes: a record over WriteOptions.MaxBytes is a *SizeError
// giving the exact size the record needs (the length written without the
// limit), in every dialect; at exactly that size it is written.
func TestWriteMaxBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 3))
	long := strings.Repeat("n", 3000)
	for k := range 6 {
		start, moves := randomMatch(t, r, 1+r.IntN(7), k%2 == 0)
		for _, d := range []Dialect{Gnubg, Jellyfish, XG, Galaxy} {
			full, err := WriteReplayOptions(start, moves, [2]string{long, "b"}, WriteOptions{Dialect: d})
			if err != nil {
				t.Fatal(err)
			}
			for _, max := range []int{1, 4000, len(full) / 2, len(full) - 1} {
				text, err := WriteReplayOptions(start, moves, [2]string{long, "b"}, WriteOptions{Dialect: d, MaxBytes: max})
				var se *SizeError
				if !errors.As(err, &se) || se.Need != len(full) || se.Max != max || !errors.Is(err, ErrUnwritable) || text != nil {
					t.Fatalf("dialect %d, max %d: %d bytes, %v; want a *SizeError needing %d", d, max, len(text), err, len(full))
				}
			}
			if text, err := WriteReplayOptions(start, moves, [2]string{long, "b"}, WriteOptions{Dialect: d, MaxBytes: len(full)}); err != nil || string(text) != string(full) {
				t.Fatalf("dialect %d at its size: %v", d, err)
			}
		}
	}
}

// TestWriteRefusesRollWithoutPass: a record that stops after a roll with
// no play cannot be written (it would read back with the pass); with the
// pass it is written and reads back whole, in every dialect.
func TestWriteRefusesRollWithoutPass(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 7))
	found := 0
	for k := 0; k < 200 && found < 3; k++ {
		start, moves := randomMatch(t, r, 3, false)
		for i, mv := range moves {
			if mv.Played.Kind() != backgammon.KindPass {
				continue
			}
			found++
			for _, d := range []Dialect{Gnubg, Jellyfish, XG, Galaxy} {
				if _, err := WriteReplayOptions(start, moves[:i], [2]string{}, WriteOptions{Dialect: d}); !errors.Is(err, ErrUnwritable) {
					t.Fatalf("dialect %d: the record stopping before the pass of move %d: %v; want ErrUnwritable", d, i, err)
				}
				text, err := WriteReplayOptions(start, moves[:i+1], [2]string{}, WriteOptions{Dialect: d})
				if err != nil {
					t.Fatal(err)
				}
				m, err := Read(text)
				if err != nil {
					t.Fatal(err)
				}
				got, err := m.Replay()
				if err != nil || len(got) != i+1 || got[i].Played.Kind() != backgammon.KindPass {
					t.Fatalf("dialect %d: %d moves ending in a pass read back as %d (%v)\n%s", d, i+1, len(got), err, text)
				}
			}
			break
		}
	}
	if found < 3 {
		t.Fatalf("%d passes found; want 3", found)
	}
}
