package restjson

import (
	"strings"
	"testing"

	"github.com/gamerules/gamerules/server/limit"
)

// TestJSONElements: the element budget on a JSON body counts objects and
// strings (keys included), and is the gRPC port's budget (limit.MaxElements),
// so that a request is refused alike on both ports.
func TestJSONElements(t *testing.T) {
	if MaxElements != limit.MaxElements {
		t.Errorf("restjson.MaxElements = %d, limit.MaxElements = %d; the two ports must hold a request to the same budget", MaxElements, limit.MaxElements)
	}
	if n, over := JSONElements([]byte(`{"a":["b",{"c":"d\"}"}]}`)); n != 6 || over {
		t.Errorf("JSONElements = %d, %v; want 6, false", n, over)
	}
	if _, over := JSONElements([]byte(strings.Repeat("{}", MaxElements+1))); !over {
		t.Errorf("JSONElements of %d objects: not over", MaxElements+1)
	}
}
