package limit_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gamerules/gamerules/server/limit"
)

// A connection limit alone in front of a program's own HTTP server: at most
// 2 connections open; the third is closed as soon as it is accepted.
func ExampleNewListener() {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	l := limit.NewListener(inner, limit.ListenerOptions{Max: 2})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })}
	go srv.Serve(l)
	defer srv.Close()

	var conns []net.Conn
	for range 2 {
		c, _ := net.Dial("tcp", l.Addr().String())
		conns = append(conns, c)
	}
	for l.Open() < 2 { // Accept has taken them
		time.Sleep(time.Millisecond)
	}
	c, _ := net.Dial("tcp", l.Addr().String())
	_, err = c.Read(make([]byte, 1))
	fmt.Println("third connection:", err == io.EOF, "refused:", l.Refused())
	for _, c := range conns {
		c.Close()
	}
	// Output:
	// third connection: true refused: 1
}

func TestListenerFirstUseTimeout(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := limit.NewListener(inner, limit.ListenerOptions{Max: 4, FirstUseTimeout: 100 * time.Millisecond})
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go io.Copy(io.Discard, c)
		}
	}()
	silent, _ := net.Dial("tcp", l.Addr().String())
	defer silent.Close()
	_ = silent.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("a connection never used: read %v, want EOF (closed by FirstUseTimeout)", err)
	}
	for l.Open() != 0 {
		time.Sleep(time.Millisecond)
	}
}
