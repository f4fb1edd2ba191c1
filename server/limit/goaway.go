package limit

import (
	"encoding/binary"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// A connection closed by a limit is told why first when it can be: grpc-go
// offers no way to send one connection a GOAWAY, so trackedConn writes the
// frame itself, between two of grpc-go's frames. It follows the server's
// output frame by frame (9-byte headers; payloads are skipped, never
// copied), and when the gate closes the connection at a frame boundary it
// writes GOAWAY(ENHANCE_YOUR_CALM, last stream: the highest the server has
// written a frame for) and then closes. It does so only on cleartext
// HTTP/2 (h2c: the first bytes the server writes are a SETTINGS frame); on
// TLS the bytes it sees are ciphertext and the connection is only closed.
// Nor does it wait: when grpc-go is in the middle of a write (an answer the
// client does not read, blocked on a full TCP window) the connection is
// closed without the frame if no write ends at a frame boundary within
// goAwayTimeout.

// goAwayTimeout bounds the write of the GOAWAY frame: a client that reads
// nothing cannot hold the close.
const goAwayTimeout = 100 * time.Millisecond

// lingerFor is how long a connection told GOAWAY stays half-open (our side
// shut down for writing, what the client sends read and dropped) before it
// is closed: closing a socket with unread input makes the kernel send RST,
// and a client that receives it loses the GOAWAY it has not read yet.
const lingerFor = 500 * time.Millisecond

// HTTP/2 frame types and error code used here (RFC 9113 §6, §7).
const (
	frameSettings   = 0x4
	frameGoAway     = 0x7
	errCodeEnhance  = 0xb // ENHANCE_YOUR_CALM
	frameHeaderSize = 9
)

// frameTracker follows the frames of a byte stream written in pieces.
type frameTracker struct {
	hdr      [frameHeaderSize]byte
	n        int    // bytes of the current frame's header seen
	left     int    // bytes of the current frame's payload still to come
	lastID   uint32 // the highest stream id of a frame seen
	decided  bool   // the first bytes were seen
	h2c      bool   // they were a SETTINGS frame: cleartext HTTP/2
	disabled bool   // not h2c, or lost (a write failed part way)
}

// feed follows b, the next bytes written.
func (f *frameTracker) feed(b []byte) {
	if f.disabled {
		return
	}
	for len(b) > 0 {
		if f.left > 0 {
			k := min(len(b), f.left)
			b, f.left = b[k:], f.left-k
			continue
		}
		k := copy(f.hdr[f.n:], b)
		f.n += k
		b = b[k:]
		if f.n < frameHeaderSize {
			return
		}
		f.n = 0
		if !f.decided {
			f.decided = true
			f.h2c = f.hdr[0] == 0 && f.hdr[3] == frameSettings && binary.BigEndian.Uint32(f.hdr[5:])&0x7fffffff == 0
			if !f.h2c {
				f.disabled = true
				return
			}
		}
		f.left = int(f.hdr[0])<<16 | int(f.hdr[1])<<8 | int(f.hdr[2])
		if id := binary.BigEndian.Uint32(f.hdr[5:]) & 0x7fffffff; id > f.lastID {
			f.lastID = id
		}
	}
}

// atBoundary reports whether the stream so far ends with a whole frame of
// cleartext HTTP/2.
func (f *frameTracker) atBoundary() bool {
	return f.h2c && !f.disabled && f.n == 0 && f.left == 0
}

// trackedConn is an accepted gRPC connection whose RemoteAddr is a
// *connAddr, and which can close with a GOAWAY (closeGoAway).
type trackedConn struct {
	net.Conn
	remote *connAddr

	wmu     sync.Mutex // held by a Write in progress
	ft      frameTracker
	pending atomic.Pointer[string] // a GOAWAY's debug data, to write at the next frame boundary
	closing atomic.Bool
	linger  atomic.Bool // the GOAWAY was written: input is dropped until the close
}

// Close closes the connection, except while it lingers after a GOAWAY
// (then it closes when lingerFor ends).
func (c *trackedConn) Close() error {
	if c.linger.Load() {
		return nil
	}
	return c.Conn.Close()
}

// Read reads from the connection; once the GOAWAY is written it drops the
// client's input until the close (drain).
func (c *trackedConn) Read(b []byte) (int, error) {
	if c.linger.Load() {
		return c.drain()
	}
	return c.Conn.Read(b)
}

// drain reads and drops the client's input until it closes its side or
// lingerFor ends, then reports the end of the connection to grpc-go.
func (c *trackedConn) drain() (int, error) {
	_ = c.Conn.SetReadDeadline(time.Now().Add(lingerFor))
	var scratch [4096]byte
	for {
		if _, err := c.Conn.Read(scratch[:]); err != nil {
			return 0, io.EOF
		}
	}
}

func (c *trackedConn) RemoteAddr() net.Addr { return c.remote }

// Write writes b, following its frames; once the GOAWAY is written, what
// grpc-go writes is dropped (our side is shut down for writing).
func (c *trackedConn) Write(b []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.linger.Load() {
		return len(b), nil
	}
	n, err := c.Conn.Write(b)
	c.ft.feed(b[:n])
	if n < len(b) {
		c.ft.disabled = true
	}
	if debug := c.pending.Load(); debug != nil && c.ft.atBoundary() {
		c.goAwayLocked(*debug)
	}
	return n, err
}

// closeGoAway closes the connection with a GOAWAY that has debug as its
// debug data: at once when the server's output ends at a frame boundary
// and no write is in progress; else at the end of the first of grpc-go's
// writes that ends at one, or without the frame after goAwayTimeout.
func (c *trackedConn) closeGoAway(debug string) {
	if !c.closing.CompareAndSwap(false, true) {
		return
	}
	c.pending.Store(&debug)
	if c.wmu.TryLock() {
		if c.ft.atBoundary() {
			c.goAwayLocked(debug)
			c.wmu.Unlock()
			return
		}
		c.wmu.Unlock()
	}
	time.AfterFunc(goAwayTimeout, func() {
		if !c.linger.Load() {
			_ = c.Conn.Close()
		}
	})
}

// goAwayLocked writes GOAWAY(ENHANCE_YOUR_CALM) naming the highest stream
// the server has written a frame for; c.wmu is held.
func (c *trackedConn) goAwayLocked(debug string) {
	frame := make([]byte, frameHeaderSize+8+len(debug))
	n := 8 + len(debug)
	frame[0], frame[1], frame[2] = byte(n>>16), byte(n>>8), byte(n)
	frame[3] = frameGoAway
	binary.BigEndian.PutUint32(frame[9:], c.ft.lastID)
	binary.BigEndian.PutUint32(frame[13:], errCodeEnhance)
	copy(frame[17:], debug)
	_ = c.Conn.SetWriteDeadline(time.Now().Add(goAwayTimeout))
	_, err := c.Conn.Write(frame)
	c.ft.disabled = true // nothing may follow
	c.pending.Store(nil)
	cw, ok := c.Conn.(interface{ CloseWrite() error })
	if err != nil || !ok || cw.CloseWrite() != nil {
		_ = c.Conn.Close()
		return
	}
	c.linger.Store(true)
	time.AfterFunc(lingerFor, func() { _ = c.Conn.Close() })
}
