package stacktest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// operations is the number of REST operations in /openapi.json: the 15 RPCs
// of service.proto, RenderState twice (GET and POST).
const operations = 16

// TestOpenAPIExamplesAnswered sends every operation's example request in
// /openapi.json as it is (the path parameters' and query parameters'
// x-example, the body's example) to the real server: each is answered 2xx,
// and where the document shows an example answer, the server's answer is
// that one.
func TestOpenAPIExamplesAnswered(t *testing.T) {
	a := startServer(t)
	resp, err := http.Get("http://" + a.HTTP + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name     string `json:"name"`
				In       string `json:"in"`
				Required bool   `json:"required"`
				Example  any    `json:"x-example"`
				Schema   struct {
					Ref     string `json:"$ref"`
					Example any    `json:"example"`
				} `json:"schema"`
			} `json:"parameters"`
			Responses map[string]struct {
				Examples map[string]any `json:"examples"`
			} `json:"responses"`
		} `json:"paths"`
		Definitions map[string]struct {
			Example any `json:"example"`
		} `json:"definitions"`
	}
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	ops := 0
	for path, item := range doc.Paths {
		for method, op := range item {
			ops++
			u := path
			q := url.Values{}
			var body []byte
			for _, p := range op.Parameters {
				switch p.In {
				case "path":
					v, ok := p.Example.(string)
					if !ok || v == "" {
						t.Errorf("%s: path parameter %s has no x-example", op.OperationID, p.Name)
					}
					u = strings.Replace(u, "{"+p.Name+"}", url.PathEscape(v), 1)
				case "query":
					if v, ok := p.Example.(string); ok {
						q.Set(p.Name, v)
					}
				case "body":
					def := doc.Definitions[strings.TrimPrefix(p.Schema.Ref, "#/definitions/")].Example
					if p.Schema.Example == nil || !reflect.DeepEqual(def, p.Schema.Example) {
						t.Errorf("%s: body example %v, on its definition %v; want the same, on both (RapiDoc reads the definition's)", op.OperationID, p.Schema.Example, def)
					}
					body, _ = json.Marshal(p.Schema.Example)
				}
			}
			if len(q) > 0 {
				u += "?" + q.Encode()
			}
			req, _ := http.NewRequest(strings.ToUpper(method), "http://"+a.HTTP+u, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				t.Errorf("%s %s %s = %d %.300s", op.OperationID, method, u, resp.StatusCode, got)
				continue
			}
			if want := op.Responses["200"].Examples["application/json"]; want != nil {
				var answer any
				if err := json.Unmarshal(got, &answer); err != nil || !reflect.DeepEqual(answer, want) {
					t.Errorf("%s: the answer is not the document's example:\n got %.400s\nwant %.400v", op.OperationID, got, want)
				}
			}
		}
	}
	if ops != operations {
		t.Errorf("%d operations; want %d", ops, operations)
	}
}
