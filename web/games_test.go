package web

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/service"
)

// TestGameModules checks that the playground's per-game code stays in
// games/<id>.js: every game the service serves has its module there (and
// every module is a served game), and no other file of the page names a
// game id more than once (the generic page is driven by ListGames).
func TestGameModules(t *testing.T) {
	ids := service.New().Games()
	if len(ids) < 4 {
		t.Fatalf("the service serves %d games: %v", len(ids), ids)
	}
	served := map[string]bool{}
	for _, id := range ids {
		served[id] = true
		src, err := fs.ReadFile(Static, "games/"+id+".js")
		if err != nil {
			t.Errorf("game %q has no playground module: %v", id, err)
			continue
		}
		if !strings.Contains(string(src), "export default (page) =>") {
			t.Errorf("games/%s.js does not export its hooks as `export default (page) => ...`", id)
		}
	}
	mods, err := fs.Glob(Static, "games/*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mods {
		if id := strings.TrimSuffix(strings.TrimPrefix(m, "games/"), ".js"); !served[id] {
			t.Errorf("%s is the module of no served game (%v)", m, ids)
		}
	}
	err = fs.WalkDir(Static, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(path, "games/") || strings.HasSuffix(path, ".ico") {
			return err
		}
		src, err := fs.ReadFile(Static, path)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if n := strings.Count(string(src), id); n > 1 {
				t.Errorf("%s names game %q %d times; per-game code belongs in games/%s.js", path, id, n, id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
