package server

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// curlLine matches the README's curl examples:
// curl -s [-XPOST] localhost:8080/<path> [-d '<body>'] [-o <file>] [| jq <filter>],
// the URL optionally in single quotes (a query string needs them in a shell).
// The jq that pretty-prints an answer is the reader's, not the server's: the
// request is the same with or without it. A body holds no single quote (the
// shell's quoting could not say one).
var curlLine = regexp.MustCompile(`^curl -s (-XPOST )?'?localhost:8080([^\s']+)'?(?: -d '([^']*)')?(?: -o \S+)?(?: \| jq(?: [^|]+)?)?(?:\s+#.*)?$`)

// minReadmeExamples is how many curl examples the README had when it was put
// in a newcomer's order (49): fewer means an example fell out of the test.
const minReadmeExamples = 49

// TestReadmeExamples runs every curl example in README.md against the real
// server, so the README cannot drift from the API. An example whose comment
// line above says INVALID_ARGUMENT must answer 400; every other must answer
// 200.
func TestReadmeExamples(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	a := startServer(t)
	ran := 0
	prev := ""
	for _, line := range strings.Split(string(raw), "\n") {
		m := curlLine.FindStringSubmatch(line)
		if m == nil && strings.HasPrefix(line, "curl ") {
			t.Errorf("README line %q starts like an example but is not one this test can run: write it as curl -s [-XPOST] localhost:8080/<path> [-d '<body>'] [-o <file>] [| jq <filter>]", line)
		}
		if m == nil {
			if strings.HasPrefix(line, "#") {
				prev = line
			}
			continue
		}
		method, body := http.MethodGet, io.Reader(nil)
		if m[1] != "" {
			method, body = http.MethodPost, strings.NewReader(m[3])
		}
		req, err := http.NewRequest(method, "http://"+a.HTTP+m[2], body)
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
		if strings.Contains(prev, "INVALID_ARGUMENT") {
			want = http.StatusBadRequest
		}
		if resp.StatusCode != want {
			t.Errorf("README example %s\n= HTTP %d %s; want %d", line, resp.StatusCode, out, want)
		}
		if want == http.StatusOK && strings.Contains(m[2], ":render") &&
			(resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(out), "<svg ")) {
			t.Errorf("README example %s\n= %s %.60q; want an image/svg+xml <svg>", line, resp.Header.Get("Content-Type"), out)
		}
		ran++
		prev = ""
	}
	t.Logf("ran %d README curl examples", ran)
	if ran < minReadmeExamples {
		t.Errorf("ran %d README curl examples; want at least %d (did the format change?)", ran, minReadmeExamples)
	}
}
