//go:build go1.27

package gravitytrap

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestBuiltinJSONAsEncodingJSON checks that builtinDef reads every
// built-in board file as json.Unmarshal does.
func TestBuiltinJSONAsEncodingJSON(t *testing.T) {
	files, err := boardFiles.ReadDir("boards")
	if err != nil || len(files) < 2 {
		t.Fatalf("boards: %v, %d files", err, len(files))
	}
	for _, f := range files {
		data, err := boardFiles.ReadFile("boards/" + f.Name())
		if err != nil {
			t.Fatal(err)
		}
		var want struct {
			BoardDef
			Name string `json:"name"`
			Note string `json:"note"`
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		def, name, note, err := builtinDef(data)
		if err != nil || !reflect.DeepEqual(def, want.BoardDef) || name != want.Name || note != want.Note {
			t.Errorf("%s: builtinDef = %+v, %q, %q, %v; json.Unmarshal %+v", f.Name(), def, name, note, err, want)
		}
		if len(def.Stations) != 22 || len(def.Lines) == 0 {
			t.Errorf("%s: %d stations, %d lines", f.Name(), len(def.Stations), len(def.Lines))
		}
	}
	if _, _, _, err := builtinDef([]byte(`{"stations":{}}`)); err == nil {
		t.Error("a board of another shape was read")
	}
}
