package mat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
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
