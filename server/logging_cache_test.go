package server

import (
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// wrappedAddr is an address of another type, as limit's.
type wrappedAddr struct{ net.Addr }

// TestLogTextCaches checks the access log's kept texts against what they
// replace, over times in the same and in other seconds and milliseconds,
// in UTC, a fixed zone and Local: the entry's time as zap's
// ISO8601TimeEncoder writes it in a JSON line, RFC 3339 start and
// deadline, and the peer's address.
func TestLogTextCaches(t *testing.T) {
	cfg := zap.NewProductionEncoderConfig()
	cfg.TimeKey = "time"
	line := func(enc zapcore.TimeEncoder, at time.Time) string {
		cfg.EncodeTime = enc
		b, err := zapcore.NewJSONEncoder(cfg).EncodeEntry(zapcore.Entry{Time: at, Message: "m"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	r := rand.New(rand.NewPCG(1, 2))
	zones := []*time.Location{time.UTC, time.FixedZone("X", -(3*3600 + 30*60)), time.Local}
	base := time.Date(2026, 12, 7, 14, 59, 59, 998_000_000, time.UTC)
	sec := timeText{layout: time.RFC3339, unit: time.Time.Unix}
	ms := timeText{layout: "2006-01-02T15:04:05.000Z0700", unit: time.Time.UnixMilli}
	for i := 0; i < 3000; i++ {
		at := base.Add(time.Duration(r.IntN(3_000_000)) * time.Microsecond).In(zones[r.IntN(len(zones))])
		if got, want := line(iso8601, at), line(zapcore.ISO8601TimeEncoder, at); got != want {
			t.Fatalf("%v: line %q, want %q", at, got, want)
		}
		if got, want := ms.format(at), at.Format("2006-01-02T15:04:05.000Z0700"); got != want {
			t.Fatalf("%v: millisecond text %q, want %q", at, got, want)
		}
		if got, want := sec.format(at), at.Format(time.RFC3339); got != want {
			t.Fatalf("%v: second text %q, want %q", at, got, want)
		}
	}
	var peer addrText
	addrs := []net.Addr{
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 5000},
		&net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 5000},
		&net.TCPAddr{IP: net.ParseIP("::1"), Port: 6000},
		&net.UnixAddr{Name: "/tmp/s", Net: "unix"},
		wrappedAddr{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 9), Port: 7000}},
		wrappedAddr{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 8), Port: 7000}},
		&wrappedAddr{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 7000}},
	}
	for i := 0; i < 200; i++ {
		a := addrs[r.IntN(len(addrs))]
		if got := peer.text(a); got != a.String() {
			t.Fatalf("peer %q, want %q", got, a.String())
		}
	}
}
