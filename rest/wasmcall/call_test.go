package wasmcall

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/gamerules/gamerules/gen/openapiv2"
	"github.com/gamerules/gamerules/internal/readme"
	"github.com/gamerules/gamerules/server/servertest"
	"github.com/gamerules/gamerules/service"
	"github.com/gamerules/gamerules/service/rpcs"
)

// restCase is one request as call takes it (RPC and JSON) and as the REST
// API takes it (HTTP method, path and body), derived from a README example
// with the routes of the OpenAPI document. The Node tests (js/test) read
// them from the file GAMERULES_WASM_CASES names.
type restCase struct {
	Line       string          `json:"line"`
	RPC        string          `json:"rpc"`
	Request    json.RawMessage `json:"request"`
	HTTPMethod string          `json:"httpMethod"`
	Path       string          `json:"path"`
	Body       string          `json:"body,omitempty"`
}

// route is one HTTP binding of an RPC in the OpenAPI document.
type route struct {
	rpc, method string
	re          *regexp.Regexp
	params      []string                     // path parameters, in order
	query       map[string]map[string]string // query parameter -> its type and format
	body        bool
}

// routes reads the HTTP bindings of every RPC from the OpenAPI document.
func routes(t *testing.T) []route {
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name   string `json:"name"`
				In     string `json:"in"`
				Type   string `json:"type"`
				Format string `json:"format"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(openapiv2.GameRules, &doc); err != nil {
		t.Fatal(err)
	}
	var out []route
	param := regexp.MustCompile(`\{([^}]+)\}`)
	for path, ops := range doc.Paths {
		var names []string
		for _, m := range param.FindAllStringSubmatch(path, -1) {
			names = append(names, m[1])
		}
		var pat strings.Builder
		for i, lit := range param.Split(path, -1) {
			if i > 0 {
				pat.WriteString(`([^/:]+)`)
			}
			pat.WriteString(regexp.QuoteMeta(lit))
		}
		re := regexp.MustCompile("^" + pat.String() + "$")
		for verb, op := range ops {
			r := route{rpc: strings.TrimRight(strings.TrimPrefix(op.OperationID, "GameRules_"), "0123456789"),
				method: strings.ToUpper(verb), re: re, params: names, query: map[string]map[string]string{}}
			for _, p := range op.Parameters {
				switch p.In {
				case "body":
					r.body = true
				case "query":
					r.query[p.Name] = map[string]string{"type": p.Type, "format": p.Format}
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// caseOf is a README example as a restCase: the RPC of its route; the
// request, its body with the path's parameters (and a GET's query, typed
// as the document types them) added as JSON fields; and the REST request
// that sends the same JSON: the example itself when it is a POST or has no
// query, else a POST to the same RPC's route with a body.
func caseOf(t *testing.T, rs []route, ex readme.Example) restCase {
	path, rawQuery, _ := strings.Cut(ex.Target, "?")
	for _, r := range rs {
		m := r.re.FindStringSubmatch(path)
		if m == nil || r.method != ex.Method {
			continue
		}
		c := restCase{Line: ex.Line, RPC: r.rpc, HTTPMethod: ex.Method, Path: ex.Target, Body: ex.Body}
		if rawQuery != "" && ex.Method == http.MethodGet {
			q, err := url.ParseQuery(rawQuery)
			if err != nil {
				t.Fatal(err)
			}
			body := map[string]any{}
			for k, vs := range q {
				var v any = vs[0]
				switch typ := r.query[k]; {
				case typ["type"] == "boolean":
					v = vs[0] == "true"
				case typ["type"] == "integer" && typ["format"] != "int64" && typ["format"] != "uint64":
					v = json.Number(vs[0])
				case typ == nil && (vs[0] == "true" || vs[0] == "false"):
					v = vs[0] == "true" // not a parameter (an error example): as a client would send it
				}
				setPath(body, strings.Split(k, "."), v)
			}
			b, _ := json.Marshal(body)
			c.HTTPMethod, c.Path, c.Body = http.MethodPost, path, string(b)
			found := false
			for _, p := range rs {
				found = found || p.rpc == r.rpc && p.body && p.method == http.MethodPost && p.re.MatchString(path)
			}
			if !found {
				t.Fatalf("%s: no POST route of %s to send its query as JSON", ex.Line, r.rpc)
			}
		}
		// The request is the body's text with the path's parameters
		// appended as fields, so that an error's offset into the JSON is
		// the same.
		req := strings.TrimSpace(c.Body)
		if req == "" {
			req = "{}"
		}
		for i, name := range r.params {
			v, err := url.PathUnescape(m[i+1])
			if err != nil {
				t.Fatal(err)
			}
			field, _ := json.Marshal(v)
			sep := ","
			if strings.TrimSpace(req[1:len(req)-1]) == "" {
				req, sep = "{}", ""
			}
			req = req[:len(req)-1] + sep + `"` + name + `":` + string(field) + "}"
		}
		if !json.Valid([]byte(req)) {
			t.Fatalf("%s: request %s is not JSON", ex.Line, req)
		}
		c.Request = json.RawMessage(req)
		return c
	}
	t.Fatalf("%s: no route of the OpenAPI document matches %s %s", ex.Line, ex.Method, path)
	return restCase{}
}

// setPath sets m[p0][p1]... = v, making the objects on the way.
func setPath(m map[string]any, p []string, v any) {
	for _, k := range p[:len(p)-1] {
		sub, ok := m[k].(map[string]any)
		if !ok {
			sub = map[string]any{}
			m[k] = sub
		}
		m = sub
	}
	m[p[len(p)-1]] = v
}

// TestCallMatchesREST sends every README example to the server over REST
// and to call, natively: a successful answer must be the same bytes, an
// error the same google.rpc.Status JSON value (protojson, which writes the
// Status, varies its spacing between binaries), and RenderState's
// HttpBody the REST answer's bytes and content type. NewGame without a
// seed draws one: call then gets the server's seed. With
// GAMERULES_WASM_CASES set it writes the cases to that file for js/test.
func TestCallMatchesREST(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	srv := servertest.Start(t, nil)
	rs := routes(t)
	s := service.New()
	var cases []restCase
	examples, _ := readme.Examples(string(raw))
	for _, ex := range examples {
		c := caseOf(t, rs, ex)
		cases = append(cases, c)
		var body io.Reader
		if c.HTTPMethod == http.MethodPost {
			body = strings.NewReader(c.Body)
		}
		req, _ := http.NewRequest(c.HTTPMethod, "http://"+srv.HTTPAddr()+c.Path, body)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rest, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		request := []byte(c.Request)
		drawn := !bytes.Contains(request, []byte(`"seed"`)) && resp.StatusCode == http.StatusOK
		if drawn && (c.RPC == "NewGame" || c.RPC == "ReplayGame") {
			// The server drew the seed: call is given it.
			var a struct{ Seed string }
			_ = json.Unmarshal(rest, &a)
			request = append(append(request[:len(request)-1:len(request)-1], `,"seed":"`+a.Seed+`"`...), '}')
		}
		got := call(s, c.RPC, request)
		if drawn {
			// A seed drawn inside (ImportRecord's replay): the server's.
			got = withSeedsOf(got, rest)
		}
		switch {
		case resp.StatusCode != http.StatusOK:
			if !jsonEqual(got, rest) {
				t.Errorf("%s\ncall(%s, %s)\n= %s\nREST %d %s", c.Line, c.RPC, request, got, resp.StatusCode, rest)
			}
		case c.RPC == "RenderState":
			var hb struct{ ContentType, Data string }
			_ = json.Unmarshal(got, &hb)
			data, _ := base64.StdEncoding.DecodeString(hb.Data)
			if hb.ContentType != resp.Header.Get("Content-Type") || !bytes.Equal(data, rest) {
				t.Errorf("%s\ncall(%s, %s)\n= %.200s\nREST %s %.200s", c.Line, c.RPC, request, got, resp.Header.Get("Content-Type"), rest)
			}
		default:
			if !bytes.Equal(got, rest) {
				t.Errorf("%s\ncall(%s, %s)\n= %.300s\nREST %.300s", c.Line, c.RPC, request, got, rest)
			}
		}
	}
	if len(cases) < 15 {
		t.Errorf("only %d README examples", len(cases))
	}
	if out := os.Getenv("GAMERULES_WASM_CASES"); out != "" {
		b, _ := json.MarshalIndent(cases, "", " ")
		if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCallErrors: what call answers for what is not a request.
func TestCallErrors(t *testing.T) {
	s := service.New()
	for _, tc := range []struct{ method, body, want string }{
		{"Nope", `{}`, `"code":12`},
		{"LegalMoves", `{"game":"backgammon"} x`, `more data after its JSON value`},
		{"LegalMoves", `{"game":"chess","state":{"text":"x"}}`, `"reason":"UNKNOWN_GAME"`},
		{"LegalMoves", `{"gme":"backgammon"}`, `unknown field \"gme\"`},
		{"ListGames", ``, `"games":[`},
	} {
		got := string(call(s, tc.method, []byte(tc.body)))
		if !strings.Contains(strings.ReplaceAll(got, ": ", ":"), tc.want) {
			t.Errorf("call(%q, %q) = %s; want it to hold %s", tc.method, tc.body, got, tc.want)
		}
	}
}

// seedField is a seed in an answer's JSON.
var seedField = regexp.MustCompile(`"seed":"[0-9]+"`)

// withSeedsOf returns answer with its seeds replaced by those of like, in
// order.
func withSeedsOf(answer, like []byte) []byte {
	seeds := seedField.FindAll(like, -1)
	i := 0
	return seedField.ReplaceAllFunc(answer, func(s []byte) []byte {
		if i < len(seeds) {
			s = seeds[i]
			i++
		}
		return s
	})
}

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// TestNoAnswerHasCode: no answer message has a top-level field whose JSON
// name is "code", the key by which js/src/index.js's isStatus tells an
// error answer (a google.rpc.Status) from an answer.
func TestNoAnswerHasCode(t *testing.T) {
	st := reflect.TypeFor[*service.Server]()
	for _, name := range rpcs.Names() {
		m, _ := st.MethodByName(name)
		answer := reflect.New(m.Type.Out(0).Elem()).Interface().(proto.Message)
		if f := answer.ProtoReflect().Descriptor().Fields().ByJSONName("code"); f != nil {
			t.Errorf("%s's answer has a field %s with JSON name \"code\": isStatus in js/src/index.js would take it for an error", name, f.FullName())
		}
	}
}
