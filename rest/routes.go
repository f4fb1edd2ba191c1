package rest

import (
	"net/http"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// Route is one HTTP binding of an RPC, read from the service descriptor's
// google.api.http annotations: the HTTP method, the path template
// ("/v1/games/{game}:legalMoves"), and the RPC's name ("LegalMoves"). The
// template is the route's label in the HTTP metrics and span names.
type Route struct {
	Method, Template, RPC string

	segs      []string // the template's segments before the verb, "{x}" for a variable
	colonVerb string   // ":legalMoves", or "" without a verb
}

// gameRules is the descriptor of gamerules.v1.GameRules.
var gameRules = gamerulesv1grpc.File_gamerules_v1_service_proto.Services().ByName("GameRules")

// routes are every RPC's HTTP bindings, in the descriptor's order (an
// RPC's additional bindings after its first).
var routes = func() []Route {
	var out []Route
	ms := gameRules.Methods()
	for i := range ms.Len() {
		md := ms.Get(i)
		rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
		if rule == nil {
			continue
		}
		for _, b := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
			if r, ok := newRoute(b, md); ok {
				out = append(out, r)
			}
		}
	}
	return out
}()

// newRoute is the Route of one binding b of md.
func newRoute(b *annotations.HttpRule, md protoreflect.MethodDescriptor) (Route, bool) {
	var method, tmpl string
	switch {
	case b.GetGet() != "":
		method, tmpl = http.MethodGet, b.GetGet()
	case b.GetPost() != "":
		method, tmpl = http.MethodPost, b.GetPost()
	case b.GetPut() != "":
		method, tmpl = http.MethodPut, b.GetPut()
	case b.GetDelete() != "":
		method, tmpl = http.MethodDelete, b.GetDelete()
	case b.GetPatch() != "":
		method, tmpl = http.MethodPatch, b.GetPatch()
	case b.GetCustom() != nil:
		method, tmpl = b.GetCustom().GetKind(), b.GetCustom().GetPath()
	default:
		return Route{}, false
	}
	r := Route{Method: method, Template: tmpl, RPC: string(md.Name())}
	path := strings.TrimPrefix(tmpl, "/")
	// The verb follows the last ':' that is outside a variable.
	if i := strings.LastIndexByte(path, ':'); i >= 0 && i > strings.LastIndexByte(path, '}') {
		path, r.colonVerb = path[:i], path[i:]
	}
	r.segs = strings.Split(path, "/")
	return r, true
}

// byVerb indexes routes by their verb with its colon (":legalMoves"; ""
// for the routes without one), so that RouteOf tries only those.
var byVerb = func() map[string][]*Route {
	m := make(map[string][]*Route)
	for i := range routes {
		m[routes[i].colonVerb] = append(m[routes[i].colonVerb], &routes[i])
	}
	return m
}()

// candidates are the routes a request path may match: those of its verb
// (the text from the last ':' of its last segment), then those without one.
func candidates(path string) (withVerb, without []*Route) {
	if i := strings.LastIndexByte(path, ':'); i >= 0 && i > strings.LastIndexByte(path, '/') {
		withVerb = byVerb[path[i:]]
	}
	return withVerb, byVerb[""]
}

// Routes returns every RPC's HTTP bindings, from the service descriptor.
func Routes() []Route { return append([]Route(nil), routes...) }

// match reports whether a request path is one of r's: the same literal
// segments and verb, a variable matching one non-empty segment. It
// allocates nothing.
func (r *Route) match(path string) bool {
	rest, ok := strings.CutPrefix(path, "/")
	if !ok {
		return false
	}
	if r.colonVerb != "" {
		if rest, ok = strings.CutSuffix(rest, r.colonVerb); !ok {
			return false
		}
	}
	for i, seg := range r.segs {
		s, after, more := strings.Cut(rest, "/")
		if more == (i == len(r.segs)-1) {
			return false // more segments than the template, or fewer
		}
		if strings.HasPrefix(seg, "{") {
			if s == "" {
				return false
			}
		} else if s != seg {
			return false
		}
		rest = after
	}
	return true
}

// RouteOf is the path template of the route a request path matches
// ("/v1/games/backgammon:playout" → "/v1/games/{game}:playout"), for the
// route label of the metrics and spans; false when it is no route of the
// API. The HTTP method is not looked at (a GET of a POST route is labelled
// by its route too).
func RouteOf(path string) (string, bool) {
	withVerb, without := candidates(path)
	for _, rs := range [2][]*Route{withVerb, without} {
		for _, r := range rs {
			if r.match(path) {
				return r.Template, true
			}
		}
	}
	return "", false
}

// Allow is the HTTP methods path's routes take ("GET", "POST" or
// "GET, POST"), for the Allow header of a 405; "POST" when path is no route.
func Allow(path string) string {
	allow := ""
	withVerb, without := candidates(path)
	for _, rs := range [2][]*Route{withVerb, without} {
		for _, r := range rs {
			if r.match(path) && !strings.Contains(allow, r.Method) {
				if allow != "" {
					allow += ", "
				}
				allow += r.Method
			}
		}
	}
	if allow == "" {
		return http.MethodPost
	}
	return allow
}
