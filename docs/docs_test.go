package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outside matches the ways a file once cited documents that a clone of the
// repository does not have.
var outside = regexp.MustCompile(`\.\./shared|shared folder|\bseeds/\d|(^|[^/\w])design\.md`)

// mdLink matches a relative Markdown link target.
var mdLink = regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)

// TestNoPathOutsideRepo reads every text file of the repository (but .git,
// .bin, node_modules and this test) and fails on a citation of a document
// outside it, or on a relative Markdown link to a file that does not exist.
func TestNoPathOutsideRepo(t *testing.T) {
	root := ".."
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".bin", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".proto", ".yaml", ".yml", ".sh", ".json", ".js", ".py", ".txt", "":
		default:
			return nil
		}
		if strings.HasSuffix(path, "docs_test.go") || strings.HasSuffix(path, "sync-rules.sh") {
			return nil // they name the patterns they look for
		}
		if info, err := d.Info(); err != nil || info.Size() > 2<<20 {
			return err // no document is that large (a built binary is)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(raw), "\n") {
			if outside.MatchString(line) {
				t.Errorf("%s:%d cites a document outside the repository: %s", path, i+1, strings.TrimSpace(line))
			}
			if filepath.Ext(path) != ".md" {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := filepath.Join(filepath.Dir(path), m[1])
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d links to %s, which does not exist", path, i+1, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files; is the walk rooted at the repository?", checked)
	}
}
