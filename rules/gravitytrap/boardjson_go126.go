//go:build !go1.27

package gravitytrap

import "encoding/json"

// builtinDef is boardjson.go's, by json.Unmarshal (before Go 1.27, which
// has encoding/json/jsontext).
func builtinDef(data []byte) (def BoardDef, name, note string, err error) {
	var f struct {
		BoardDef
		Name string `json:"name"`
		Note string `json:"note"`
	}
	err = json.Unmarshal(data, &f)
	return f.BoardDef, f.Name, f.Note, err
}
