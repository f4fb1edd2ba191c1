package service

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// archiveFiles are 2,000 .mat files for BenchmarkImportArchive: the
// dialect samples and gnubg's matches (testdata/backgammon/mat), taken in
// turn, or the files of the directory GAMERULES_MAT_ARCHIVE names (each
// subdirectory's .mat and .txt files), taken in turn.
func archiveFiles(b *testing.B) []string {
	b.Helper()
	var paths []string
	if dir := os.Getenv("GAMERULES_MAT_ARCHIVE"); dir != "" {
		for _, pat := range []string{"*.mat", "*.txt", "*/*.mat", "*/*.txt"} {
			m, _ := filepath.Glob(filepath.Join(dir, pat))
			paths = append(paths, m...)
		}
	} else {
		paths, _ = filepath.Glob("../testdata/backgammon/mat/dialects/*/*.mat")
		seeds, _ := filepath.Glob("../testdata/backgammon/mat/seed*.mat")
		paths = append(paths, seeds...)
	}
	if len(paths) == 0 {
		b.Fatal("no .mat file")
	}
	files := make([]string, 2000)
	for i := range files {
		data, err := os.ReadFile(paths[i%len(paths)])
		if err != nil {
			b.Fatal(err)
		}
		files[i] = string(data)
	}
	return files
}

// BenchmarkImportArchive measures the documented way to import an archive
// (docs/records.md, "An archive"): a loop calling ImportRecord once per
// file. One op is 2,000 files; files that are refused (the archive's own
// refusals) count as done.
func BenchmarkImportArchive(b *testing.B) {
	srv := New()
	ctx := context.Background()
	files := archiveFiles(b)
	b.ReportAllocs()
	games := 0
	for b.Loop() {
		games = 0
		for _, text := range files {
			im, err := srv.ImportRecord(ctx, &gamerulesv1.ImportRecordRequest{Game: bgGame, Format: "mat", Text: text})
			if err == nil {
				games += len(im.GetReplay().GetMoves())
			}
		}
	}
	b.ReportMetric(float64(games), "moves/op")
}
