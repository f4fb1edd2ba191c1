package limit_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/gamerules/gamerules/server/limit"
)

// One limit alone: limit.Body in front of a program's own handler, which
// then reads the body from memory. A body over the limit is refused before
// the handler runs: 413 with a google.rpc.Status as JSON, code 8
// (RESOURCE_EXHAUSTED).
func ExampleBody() {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "got %d bytes", len(b))
	})
	h := limit.Body(echo, 16, nil) // at most 16 bytes, no shared budget

	for _, body := range []string{`{"ok":true}`, `{"much":"too long for the limit"}`} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/echo", strings.NewReader(body)))
		if rec.Code != http.StatusOK {
			var st struct { // google.rpc.Status as JSON
				Code    int
				Message string
			}
			_ = json.Unmarshal(rec.Body.Bytes(), &st)
			fmt.Println(rec.Code, st.Code, st.Message)
			continue
		}
		fmt.Println(rec.Code, rec.Body.String())
	}
	// Output:
	// 200 got 11 bytes
	// 413 8 request body of 33 bytes is larger than the server's limit of 16 bytes (--max-recv-bytes)
}

// One limit alone: an InFlight of one slot and no queue wait in front of a
// program's own handler. While a request holds the slot, the next is
// refused: 429, Retry-After 1, and the OVERLOADED status as JSON.
func ExampleInFlight_HTTP() {
	inside, release := make(chan struct{}), make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(inside)
		<-release
		fmt.Fprint(w, "done")
	})
	h := limit.NewInFlight(1, 0).HTTP(slow, nil)

	first := httptest.NewRecorder()
	done := make(chan struct{})
	go func() { h.ServeHTTP(first, httptest.NewRequest(http.MethodGet, "/", nil)); close(done) }()
	<-inside // the first request holds the only slot

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	fmt.Println(rec.Code, rec.Header().Get("Retry-After"))
	var st struct { // google.rpc.Status as JSON
		Code    int
		Message string
		Details []struct{ Reason, Domain string }
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &st)
	fmt.Println(st.Code, st.Details[0].Reason, st.Details[0].Domain)
	fmt.Println(st.Message)

	close(release)
	<-done
	fmt.Println(first.Code, first.Body.String())
	// Output:
	// 429 1
	// 8 OVERLOADED gamerules
	// the server is running 1 REST requests, its limit (--max-in-flight), and none finished within 0s (--queue-wait); retry in a moment
	// 200 done
}
