// Command samebytesrest is the transport floor of a gamerules REST call:
// a bare net/http server (HTTP/1.1 keep-alive, no middleware, no mux)
// that reads each request's body whole and answers every captured REST
// call (bench/floor/raw: "METHOD /path", request body, answer body, status
// and headers) with the answer gamerulesd gave it, already written: the
// same status, the same headers (its X-Request-Id, Content-Type and
// Content-Length included; Date as net/http writes it), the same body
// bytes in one Write, so the same framing (gamerulesd's REST answers carry
// their Content-Length, so none is chunked; net/http would send a body
// above 2 KiB without one chunked). It decodes no JSON and builds nothing: what it costs per
// call is what Go's HTTP/1.1 server costs to carry the same request and
// answer bytes. A call it has not captured is answered 404.
// bench/floor.sh measures it beside gamerulesd's REST port.
//
// Usage: samebytesrest -addr 127.0.0.1:PORT -calls rest.gob
package main

import (
	"bytes"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/gamerules/gamerules/bench/floor/raw"
)

// answer is one captured REST answer, ready to write.
type answer struct {
	method string
	status int
	header http.Header // as captured, without Date
	body   []byte
}

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	path := flag.String("calls", "", "captured REST calls (bench/floor)")
	flag.Parse()
	calls, err := raw.Read(*path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "samebytesrest:", err)
		os.Exit(1)
	}
	// By path, then request body (c.Method is "METHOD /path").
	answers := map[string]map[string]*answer{}
	for _, c := range calls {
		method, path, _ := strings.Cut(c.Method, " ")
		if answers[path] == nil {
			answers[path] = map[string]*answer{}
		}
		h := http.Header{}
		for k, v := range c.Header {
			if k != "Date" {
				h[k] = v
			}
		}
		answers[path][string(c.Request)] = &answer{method: method, status: c.Status, header: h, body: c.Response}
	}
	bufs := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := bufs.Get().(*bytes.Buffer)
		defer bufs.Put(buf)
		buf.Reset()
		if _, err := buf.ReadFrom(r.Body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		a := answers[r.URL.Path][string(buf.Bytes())]
		if a == nil || a.method != r.Method {
			http.Error(w, "samebytesrest: call not captured", http.StatusNotFound)
			return
		}
		h := w.Header()
		for k, v := range a.header {
			h[k] = v
		}
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	})
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "samebytesrest:", err)
		os.Exit(1)
	}
	fmt.Println(lis.Addr())
	if err := http.Serve(lis, handler); err != nil {
		fmt.Fprintln(os.Stderr, "samebytesrest:", err)
		os.Exit(1)
	}
}
