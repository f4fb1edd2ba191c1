package stacktest

import (
	"testing"

	"github.com/gamerules/gamerules/internal/hostiletest"
)

// The hostile-input catalogue is internal/hostiletest's, shared with
// server's own tests; these are the names this package's tests use.

// Known states (see hostiletest's constants).
const (
	bg31    = hostiletest.BG31
	abStart = hostiletest.ABStart
	labMove = hostiletest.LabMove
)

// hostileCase is one case of the catalogue (hostiletest.Case).
type hostileCase struct {
	name, path, body string
	status           int
	reason, fragment string
	restOnly         bool
}

// hostileCatalogue is hostiletest.Catalogue.
func hostileCatalogue(bgOver, labOver string) []hostileCase {
	var cs []hostileCase
	for _, c := range hostiletest.Catalogue(bgOver, labOver) {
		cs = append(cs, hostileCase{c.Name, c.Path, c.Body, c.Status, c.Reason, c.Fragment, c.RESTOnly})
	}
	return cs
}

// finishedStates is hostiletest.FinishedStates.
func finishedStates(t *testing.T) (bgOver, labOver string) { return hostiletest.FinishedStates(t) }

// st, obj and repeatJSON write JSON (hostiletest.State, Obj, RepeatJSON).
func st(text string) string                { return hostiletest.State(text) }
func obj(parts ...string) string           { return hostiletest.Obj(parts...) }
func repeatJSON(item string, n int) string { return hostiletest.RepeatJSON(item, n) }
