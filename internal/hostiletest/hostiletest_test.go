package hostiletest

import (
	"strings"
	"testing"
)

// TestCatalogueWhole: the catalogue has every case it had when it was
// moved here from server's and server/stacktest's tests (210, 43 of them
// REST-only), each with a unique name, a /v1/ path and what it expects;
// and every costly import fills its size without passing it.
func TestCatalogueWhole(t *testing.T) {
	bgOver, labOver := FinishedStates(t)
	cs := Catalogue(bgOver, labOver)
	names := map[string]bool{}
	restOnly := 0
	for _, c := range cs {
		if names[c.Name] {
			t.Errorf("two cases named %q", c.Name)
		}
		names[c.Name] = true
		if c.RESTOnly {
			restOnly++
		}
		if !strings.HasPrefix(c.Path, "/v1/") || c.Status == 0 || c.Reason == "" {
			t.Errorf("%s: path %q, status %d, reason %q", c.Name, c.Path, c.Status, c.Reason)
		}
	}
	if len(cs) < 210 || restOnly < 43 {
		t.Errorf("the catalogue has %d cases (%d REST-only); it had 210 (43)", len(cs), restOnly)
	}
	const size = 64 << 10
	imports := Imports(t, "../..")
	if len(imports) < 8 {
		t.Errorf("%d costly imports; there were 8", len(imports))
	}
	for _, h := range imports {
		text := h.Text(size)
		if len(text) > size || len(text) < size/2 {
			t.Errorf("%s: a record of %d bytes for a size of %d", h.Name, len(text), size)
		}
		if b := h.RESTBody(t, size); len(b) > size {
			t.Errorf("%s: a REST body of %d bytes for a limit of %d", h.Name, len(b), size)
		}
	}
}
