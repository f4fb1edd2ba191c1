package limit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
)

// Body is HTTP middleware that bounds request bodies before next reads
// anything. It refuses a body that says it is larger than maxBytes (413,
// RESOURCE_EXHAUSTED) and a path that is not valid UTF-8 (400,
// INVALID_ARGUMENT: grpc-gateway would copy such a path into a protobuf
// string and fail with an internal error). Then it reads the whole body, at
// most maxBytes, so that next works on bytes in memory (BodyBytes) and no
// slow client holds a request slot (put InFlight.HTTP inside Body). A body
// that turns out larger is 413; one that stalls past the http.Server's read
// timeout is 408 (and the connection closed); one that ends before its
// declared length, 400. The messages never echo socket addresses or the
// reader's own error text; all are google.rpc.Status JSON (WriteStatus).
//
// The bytes of request bodies as they arrive, and of answers an InFlight.HTTP
// inside Body keeps in memory for a client that reads them slowly, share
// budget (nil: no budget): a request that would pass it is refused,
// WriteOverloaded (429 with Retry-After), so that neither slow uploads nor
// slow readers can hold unbounded memory. Bytes are charged as they arrive,
// so a declared length that never comes costs nothing. gamerulesd's
// --max-recv-bytes sets maxBytes (default 512 KiB).
func Body(next http.Handler, maxBytes int64, budget *BodyBudget) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxBytes {
			WriteError(w, http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
				fmt.Sprintf("request body of %d bytes is larger than the server's limit of %d bytes (--max-recv-bytes)", r.ContentLength, maxBytes))
			return
		}
		if !utf8.ValidString(r.URL.Path) {
			WriteError(w, http.StatusBadRequest, codes.InvalidArgument, "the request path is not valid UTF-8")
			return
		}
		if budget == nil {
			if readBody(w, r, maxBytes, nil) {
				next.ServeHTTP(w, r)
			}
			return
		}
		held := &budgetHold{budget: budget}
		defer held.release()
		if !readBody(w, r, maxBytes, held) {
			return
		}
		r, s := scopeOf(r, func(s *requestScope) bool { return s.hold != nil })
		s.hold = held
		next.ServeHTTP(w, r)
	})
}

// BodyBudget bounds the bytes of request bodies being read or held at once
// by the Body handlers that share it (and the answers their InFlight.HTTP
// keeps in memory). It is safe for concurrent use.
type BodyBudget struct {
	max     int64
	used    atomic.Int64
	refused Counter
}

// NewBodyBudget is a budget of maxBytes bytes, counting the requests it
// refuses on refused (nil: not counted). The gamerules server's is
// (--max-in-flight + --max-waiting) × --max-recv-bytes.
func NewBodyBudget(maxBytes int64, refused Counter) *BodyBudget {
	return &BodyBudget{max: maxBytes, refused: refused}
}

func (b *BodyBudget) take(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

func (b *BodyBudget) give(n int64) { b.used.Add(-n) }

// overMessage is the message of a request refused past the budget.
func (b *BodyBudget) overMessage() string {
	return fmt.Sprintf("the server holds %d bytes of request bodies and answers, its limit ((--max-in-flight + --max-waiting) × --max-recv-bytes)", b.max)
}

// errBudget is a budgetReader's error when the budget is spent.
var errBudget = errors.New("body budget spent")

// budgetHold is what one request has taken from the budget; release gives
// it all back when the request is done.
type budgetHold struct {
	budget *BodyBudget
	n      int64
}

func (h *budgetHold) take(n int64) bool {
	if !h.budget.take(n) {
		inc(h.budget.refused)
		return false
	}
	h.n += n
	return true
}

func (h *budgetHold) release() { h.budget.give(h.n); h.n = 0 }

// budgetReader charges the bytes it reads to a hold.
type budgetReader struct {
	r    io.Reader
	hold *budgetHold
}

func (b budgetReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 && !b.hold.take(int64(n)) {
		return n, errBudget
	}
	return n, err
}

// holdKey finds a request's budget hold (Body's, in its requestScope),
// which InFlight.HTTP charges the answer it keeps in memory to.
type holdKey struct{}

// readBody reads r's whole body, at most limit bytes (charged to held, if
// not nil), and puts it back as an in-memory reader. When it cannot, it
// answers and returns false.
func readBody(w http.ResponseWriter, r *http.Request, limit int64, held *budgetHold) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	var buf bytes.Buffer // grown as bytes arrive, not from the declared length
	var src io.Reader = http.MaxBytesReader(w, r.Body, limit)
	if held != nil {
		src = budgetReader{src, held}
	}
	_, err := buf.ReadFrom(src)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.Is(err, errBudget):
		WriteOverloaded(w, held.budget.overMessage())
		return false
	case err == nil:
		r.Body = memBody{bytes.NewReader(buf.Bytes()), buf.Bytes()}
		r.ContentLength = int64(buf.Len())
		return true
	case errors.As(err, &tooLarge):
		WriteError(w, http.StatusRequestEntityTooLarge, codes.ResourceExhausted,
			fmt.Sprintf("request body is larger than the server's limit of %d bytes (--max-recv-bytes)", limit))
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		WriteError(w, http.StatusRequestTimeout, codes.DeadlineExceeded,
			fmt.Sprintf("the request body did not arrive in time: %d bytes came before the server's read timeout", buf.Len()))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		WriteError(w, http.StatusBadRequest, codes.InvalidArgument,
			fmt.Sprintf("the request body ended after %d of its %d declared bytes", buf.Len(), r.ContentLength))
	default:
		WriteError(w, http.StatusBadRequest, codes.InvalidArgument,
			fmt.Sprintf("the request body could not be read (%d bytes came)", buf.Len()))
	}
	return false
}

// memBody is a request body readBody holds in memory: a reader of b that a
// decoder may take b from without copying it (BodyBytes).
type memBody struct {
	*bytes.Reader
	b []byte
}

func (memBody) Close() error { return nil }

// BodyBytes returns the bytes of a request body Body read into memory, when
// r is such a body and none of it has been read yet, without copying them;
// the caller must not change them.
func BodyBytes(r io.Reader) ([]byte, bool) {
	if mb, ok := r.(memBody); ok && mb.Len() == len(mb.b) {
		return mb.b, true
	}
	return nil, false
}
