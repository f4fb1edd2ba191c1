package limit

import (
	"bytes"
	"io"
	"net"
	"testing"

	"golang.org/x/net/http2"
)

// pipeConn runs a trackedConn over a net.Pipe; the returned reader is the
// client's side.
func pipeConn(t *testing.T) (*trackedConn, net.Conn) {
	t.Helper()
	s, c := net.Pipe()
	t.Cleanup(func() { s.Close(); c.Close() })
	tc := &trackedConn{Conn: s}
	tc.remote = &connAddr{Addr: s.RemoteAddr(), conn: tc}
	return tc, c
}

// frames encodes HTTP/2 frames with x/net's framer: the server's side of
// a connection as grpc-go writes it.
func frames(t *testing.T, write func(fr *http2.Framer)) []byte {
	t.Helper()
	var b bytes.Buffer
	write(http2.NewFramer(&b, nil))
	return b.Bytes()
}

func TestCloseGoAwayAtBoundary(t *testing.T) {
	tc, client := pipeConn(t)
	out := frames(t, func(fr *http2.Framer) {
		_ = fr.WriteSettings(http2.Setting{ID: http2.SettingMaxConcurrentStreams, Val: 100})
		_ = fr.WriteRSTStream(7, http2.ErrCodeCancel)
		_ = fr.WriteData(5, false, make([]byte, 300))
	})
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(client); got <- b }()
	// In pieces that split headers and payloads, as a buffered writer does.
	for _, cut := range [][2]int{{0, 4}, {4, 20}, {20, 31}, {31, 100}, {100, len(out)}} {
		if _, err := tc.Write(out[cut[0]:cut[1]]); err != nil {
			t.Fatal(err)
		}
		if mid := cut[1] != len(out) && cut[1] != 15 && cut[1] != 28; mid == tc.ft.atBoundary() {
			t.Fatalf("after %d bytes: at a frame boundary = %v", cut[1], tc.ft.atBoundary())
		}
	}
	tc.closeGoAway("gamerules: resets")
	b := <-got
	if !bytes.HasPrefix(b, out) {
		t.Fatal("the server's own frames were changed")
	}
	fr := http2.NewFramer(nil, bytes.NewReader(b[len(out):]))
	f, err := fr.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	ga, ok := f.(*http2.GoAwayFrame)
	if !ok {
		t.Fatalf("got %v, want GOAWAY", f)
	}
	if ga.LastStreamID != 7 || ga.ErrCode != http2.ErrCodeEnhanceYourCalm || string(ga.DebugData()) != "gamerules: resets" {
		t.Errorf("GOAWAY last stream %d, code %v, debug %q; want 7, ENHANCE_YOUR_CALM, %q", ga.LastStreamID, ga.ErrCode, ga.DebugData(), "gamerules: resets")
	}
}

// TestCloseGoAwayAfterFrame: a close asked in the middle of a frame
// writes the GOAWAY after the write that completes it.
func TestCloseGoAwayAfterFrame(t *testing.T) {
	tc, client := pipeConn(t)
	out := frames(t, func(fr *http2.Framer) {
		_ = fr.WriteSettings()
		_ = fr.WriteData(3, false, make([]byte, 100))
	})
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(client); got <- b }()
	if _, err := tc.Write(out[:30]); err != nil {
		t.Fatal(err)
	}
	tc.closeGoAway("late")
	if _, err := tc.Write(out[30:]); err != nil {
		t.Fatal(err)
	}
	b := <-got
	f, err := http2.NewFramer(nil, bytes.NewReader(b[len(out):])).ReadFrame()
	if ga, ok := f.(*http2.GoAwayFrame); err != nil || !ok || ga.LastStreamID != 3 || string(ga.DebugData()) != "late" {
		t.Fatalf("after the frame: %v %v; want GOAWAY(last stream 3, %q)", f, err, "late")
	}
}

// TestCloseGoAwayNotMidFrameOrTLS: with no boundary to come (a frame
// left part-written) or on TLS, the connection closes without a GOAWAY.
func TestCloseGoAwayNotMidFrameOrTLS(t *testing.T) {
	for name, out := range map[string][]byte{
		// A DATA frame's header and part of its payload: a GOAWAY now
		// would land inside the frame.
		"mid-frame": frames(t, func(fr *http2.Framer) {
			_ = fr.WriteSettings()
			_ = fr.WriteData(1, false, make([]byte, 100))
		})[:9+9+50],
		// A TLS record (ServerHello): ciphertext follows, not frames.
		"tls": {0x16, 0x03, 0x03, 0x00, 0x7a, 0x02, 0x00, 0x00, 0x76, 0x03, 0x03},
	} {
		t.Run(name, func(t *testing.T) {
			tc, client := pipeConn(t)
			got := make(chan []byte)
			go func() { b, _ := io.ReadAll(client); got <- b }()
			if _, err := tc.Write(out); err != nil {
				t.Fatal(err)
			}
			tc.closeGoAway("x")
			if b := <-got; !bytes.Equal(b, out) {
				t.Errorf("the client read %d bytes, want the %d written (no GOAWAY)", len(b), len(out))
			}
		})
	}
}
