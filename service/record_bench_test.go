package service

import (
	"context"
	"os"
	"testing"

	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/internal/benchcpu"
)

// matBenchFiles are the .mat records the record benchmarks import and
// export: gnubg's longest match (7 points, 8 games) and a money session
// whose points prove the Jacoby rule off (its import settles the rule on
// the way).
var matBenchFiles = []struct{ name, path string }{
	{"match7", "../testdata/backgammon/mat/seed14-match7.mat"},
	{"session-jacoby-inferred", "../testdata/backgammon/mat/money-session-s2-jacoby-off.mat"},
}

// BenchmarkImportRecordMat is one ImportRecord call of a gnubg .mat
// record (format mat), server side (decode, parse and replay, encode),
// without and with include_states; cpu-ns/op is the process's CPU time per
// call (the GC's included), steadier than ns/op on a loaded machine.
func BenchmarkImportRecordMat(b *testing.B) {
	srv := New()
	for _, f := range matBenchFiles {
		data, err := os.ReadFile(f.path)
		if err != nil {
			b.Fatal(err)
		}
		for _, states := range []bool{false, true} {
			name := f.name
			if states {
				name += "/states"
			}
			b.Run(name, func(b *testing.B) {
				wire, err := proto.Marshal(&gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: string(data), IncludeStates: states})
				if err != nil {
					b.Fatal(err)
				}
				newReq := func() *gamerulesv1.ImportRecordRequest { return &gamerulesv1.ImportRecordRequest{} }
				b.ReportAllocs()
				cpu := benchcpu.Process()
				for b.Loop() {
					serverSide(b, wire, newReq, srv.ImportRecord)
				}
				if cpu = benchcpu.Process() - cpu; cpu > 0 {
					b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				}
			})
		}
	}
}

// BenchmarkExportRecordMat is one ExportRecord call (format mat) of the
// replay an import of each record answers, server side.
func BenchmarkExportRecordMat(b *testing.B) {
	srv := New()
	for _, f := range matBenchFiles {
		data, err := os.ReadFile(f.path)
		if err != nil {
			b.Fatal(err)
		}
		im, err := srv.ImportRecord(context.Background(), &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: string(data)})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(f.name, func(b *testing.B) {
			wire, err := proto.Marshal(&gamerulesv1.ExportRecordRequest{Game: bgGame, Format: "mat", Replay: im.GetReplay(), Tags: im.GetTags()})
			if err != nil {
				b.Fatal(err)
			}
			newReq := func() *gamerulesv1.ExportRecordRequest { return &gamerulesv1.ExportRecordRequest{} }
			b.ReportAllocs()
			for b.Loop() {
				serverSide(b, wire, newReq, srv.ExportRecord)
			}
		})
	}
}
