package stacktest

import (
	"encoding/json"
	"github.com/gamerules/gamerules/server"
	"strings"
	"testing"
)

// TestRenderQueryStrict: GET :render refuses a query parameter that names
// no field of RenderStateRequest (400 INVALID_ARGUMENT, reason
// INVALID_REQUEST, the parameter as the field), in both gateway modes, and
// still reads every known one by its JSON or its proto name.
func TestRenderQueryStrict(t *testing.T) {
	const base = "/v1/games/gravity_trap:render?state.text=RoooBooooooooooooooooo%20r"
	for _, gw := range []string{server.GatewayInProcess, server.GatewayLoopback} {
		t.Run(gw, func(t *testing.T) {
			a := startServerWith(t, func(c *server.Options) { c.RESTGateway = gw })
			for _, ok := range []string{"", "&hideCoordinates=true", "&hide_coordinates=true", "&size=300&side=0", "&highlightFrom=0&highlight_to=1", "&state.gravityTrap.board=classic"} {
				if code, body := get(t, a.HTTP, base+ok); code == 400 && strings.Contains(body, "unknown query parameter") {
					t.Errorf("%q: %d %.300s; want it read", ok, code, body)
				}
			}
			for _, bad := range []string{"hideCoordinate", "state.txt", "__proto__", "state.text.x", "size.x", "foo[bar]"} {
				code, body := get(t, a.HTTP, base+"&"+bad+"=1")
				var st struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
					Details []struct {
						Type     string            `json:"@type"`
						Reason   string            `json:"reason"`
						Metadata map[string]string `json:"metadata"`
					} `json:"details"`
				}
				_ = json.Unmarshal([]byte(body), &st)
				reason, field := "", ""
				for _, d := range st.Details {
					if strings.HasSuffix(d.Type, "ErrorInfo") {
						reason, field = d.Reason, d.Metadata["field"]
					}
				}
				if code != 400 || st.Code != 3 || reason != "INVALID_REQUEST" || field != bad || !strings.HasPrefix(st.Message, bad+": unknown query parameter") {
					t.Errorf("?%s=1: %d %.400s; want 400 INVALID_ARGUMENT, INVALID_REQUEST on field %q", bad, code, body, bad)
				}
			}
		})
	}
}
