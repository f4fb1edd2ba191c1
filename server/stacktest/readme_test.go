package stacktest

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/internal/readme"
)

// minReadmeExamples is how many curl examples the README had when it was put
// in a newcomer's order and Batch, Expand and Playout were added (54), and the greedy policy's three (57): fewer means an example fell out of the test.
const minReadmeExamples = 57

// TestReadmeExamples runs every curl example in README.md against the real
// server, so the README cannot drift from the API. An example whose comment
// line above says INVALID_ARGUMENT must answer 400; every other must answer
// 200. (js/test runs the same examples through the WebAssembly build.)
func TestReadmeExamples(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	a := startServer(t)
	ran := 0
	examples, unreadable := readme.Examples(string(raw))
	for _, line := range unreadable {
		t.Errorf("README line %q starts like an example but is not one this test can run: write it as curl -s [-XPOST] localhost:8080/<path> [-d '<body>'] [-o <file>] [| jq <filter>]", line)
	}
	for _, ex := range examples {
		var body io.Reader
		if ex.Method == http.MethodPost {
			body = strings.NewReader(ex.Body)
		}
		req, err := http.NewRequest(ex.Method, "http://"+a.HTTP+ex.Target, body)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := http.StatusOK
		if ex.WantError {
			want = http.StatusBadRequest
		}
		if resp.StatusCode != want {
			t.Errorf("README example %s\n= HTTP %d %s; want %d", ex.Line, resp.StatusCode, out, want)
		}
		if want == http.StatusOK && strings.Contains(ex.Target, "format=RENDER_FORMAT_TEXT") {
			if resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || len(out) == 0 || strings.HasPrefix(string(out), "<") {
				t.Errorf("README example %s\n= %s %.60q; want a text/plain board", ex.Line, resp.Header.Get("Content-Type"), out)
			}
		} else if want == http.StatusOK && strings.Contains(ex.Target, ":render") &&
			(resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(out), "<svg ")) {
			t.Errorf("README example %s\n= %s %.60q; want an image/svg+xml <svg>", ex.Line, resp.Header.Get("Content-Type"), out)
		}
		ran++
	}
	t.Logf("ran %d README curl examples", ran)
	if ran < minReadmeExamples {
		t.Errorf("ran %d README curl examples; want at least %d (did the format change?)", ran, minReadmeExamples)
	}
}
