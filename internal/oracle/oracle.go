// Package oracle reads the oracle files under the repository's testdata/
// folder for the tests of every package (rules engines and service alike),
// so that each file format is read one way. It uses only the standard
// library, so the rules packages' tests may import it too.
package oracle

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Path returns the path of testdata/<name> (e.g. "abalone/layouts.json"),
// found by walking up from the test's working directory to the module root
// (the folder holding go.mod). It fails the test when there is none.
func Path(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", filepath.FromSlash(name))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("testdata: no go.mod above the working directory; cannot find testdata/%s", name)
		}
		dir = parent
	}
}

// Open opens testdata/<name>, gunzipping it when the name ends in ".gz".
// The file is closed when the test ends.
func Open(t testing.TB, name string) io.Reader {
	t.Helper()
	f, err := os.Open(Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if !strings.HasSuffix(name, ".gz") {
		return f
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("testdata/%s: %v", name, err)
	}
	return z
}

// Lines returns a scanner over the lines of testdata/<name> (gunzipped when
// ".gz"), with room for lines of up to 16 MiB.
func Lines(t testing.TB, name string) *bufio.Scanner {
	t.Helper()
	sc := bufio.NewScanner(Open(t, name))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	return sc
}

// JSONL decodes every non-blank line of testdata/<name> (JSON Lines,
// gunzipped when ".gz") into a T, in file order.
func JSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	sc := Lines(t, name)
	var rows []T
	for line := 1; sc.Scan(); line++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("testdata/%s:%d: %v", name, line, err)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("testdata/%s: %v", name, err)
	}
	return rows
}
