// Package readme reads the curl examples of README.md, for the tests that
// run them: against the server (server.TestReadmeExamples) and through the
// WebAssembly build (wasm/, js/test), so that both run the same examples.
package readme

import (
	"net/http"
	"regexp"
	"strings"
)

// curlLine matches the README's curl examples:
// curl -s [-XPOST] localhost:8080/<path> [-d '<body>'] [-o <file>] [| jq <filter>],
// the URL optionally in single quotes (a query string needs them in a shell).
// The jq that pretty-prints an answer is the reader's, not the server's: the
// request is the same with or without it. A body holds no single quote (the
// shell's quoting could not say one).
var curlLine = regexp.MustCompile(`^curl -s (-XPOST )?'?localhost:8080([^\s']+)'?(?: -d '([^']*)')?(?: -o \S+)?(?: \| jq(?: [^|]+)?)?(?:\s+#.*)?$`)

// Example is one curl example of the README.
type Example struct {
	Line   string // the README line, as written
	Method string // http.MethodGet or http.MethodPost
	Target string // the path with its query, e.g. "/v1/games/abalone:render?size=5"
	Body   string // the -d body ("" for a GET)
	// WantError is true when the comment line above the example says
	// INVALID_ARGUMENT: the example shows a refused request (HTTP 400).
	WantError bool
}

// Examples returns the curl examples of a README's text, in order, and
// the lines that start like one ("curl ") but are not in the form above
// (a test must refuse them rather than skip them).
func Examples(text string) (out []Example, unreadable []string) {
	prev := ""
	for _, line := range strings.Split(text, "\n") {
		m := curlLine.FindStringSubmatch(line)
		if m == nil && strings.HasPrefix(line, "curl ") {
			unreadable = append(unreadable, line)
		}
		if m == nil {
			if strings.HasPrefix(line, "#") {
				prev = line
			}
			continue
		}
		ex := Example{Line: line, Method: http.MethodGet, Target: m[2], WantError: strings.Contains(prev, "INVALID_ARGUMENT")}
		if m[1] != "" {
			ex.Method, ex.Body = http.MethodPost, m[3]
		}
		out = append(out, ex)
		prev = ""
	}
	return out, unreadable
}
