package mat

import (
	"os"
	"testing"

	"github.com/gamerules/gamerules/rules/backgammon"
)

// benchFiles are gnubg's longest match in testdata (7 points, 8 games)
// and a money session whose points prove the Jacoby rule off.
var benchFiles = []struct{ name, path string }{
	{"match7", "../../../testdata/backgammon/mat/seed14-match7.mat"},
	{"session-jacoby-inferred", "../../../testdata/backgammon/mat/money-session-s2-jacoby-off.mat"},
}

// BenchmarkReadReplay is Read then Match.Replay of a record: what an
// import costs in this package.
func BenchmarkReadReplay(b *testing.B) {
	for _, f := range benchFiles {
		data, err := os.ReadFile(f.path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m, err := Read(data)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := m.Replay(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWrite is Write of a record's replayed moves (canonical
// notation) from its start.
func BenchmarkWrite(b *testing.B) {
	for _, f := range benchFiles {
		data, err := os.ReadFile(f.path)
		if err != nil {
			b.Fatal(err)
		}
		m, err := Read(data)
		if err != nil {
			b.Fatal(err)
		}
		mvs, err := m.Replay()
		if err != nil {
			b.Fatal(err)
		}
		start, err := backgammon.New(m.Options())
		if err != nil {
			b.Fatal(err)
		}
		s := start
		var moves []string
		for _, mv := range mvs {
			next, am, err := applyText(s, mv.Notation)
			if err != nil {
				b.Fatal(err)
			}
			moves = append(moves, am.String())
			s = next
		}
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Write(start, moves, m.Players); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
