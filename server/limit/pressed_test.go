package limit

import (
	"testing"
	"time"
)

// TestStreamClockPressed: a stream that ends before its message counts as
// a reset unless its client's deadline (10 ms or more) had half passed.
func TestStreamClockPressed(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	ms := time.Millisecond
	for _, tc := range []struct {
		name     string
		timeout  time.Duration // 0: no deadline
		lived    time.Duration
		want     bool
		whatSays string
	}{
		{"no deadline, reset at once", 0, 0, false, "rapid reset"},
		{"no deadline, reset late", 0, 10 * time.Second, false, "no deadline: never pressed"},
		{"5 s deadline, reset at once", 5 * time.Second, 1 * ms, false, "rapid reset under a long deadline"},
		{"20 ms deadline, passed", 20 * ms, 20 * ms, true, "the client's deadline passed"},
		{"20 ms deadline, reset when 11 ms seen", 20 * ms, 11 * ms, true, "client's clock ahead of the server's"},
		{"20 ms deadline, reset at 9 ms", 20 * ms, 9 * ms, false, "less than half of it"},
		{"100 ms deadline, passed", 100 * ms, 150 * ms, true, "ended past it"},
		{"1 ns deadline, passed", time.Nanosecond, 1 * ms, false, "too short to be honest: grpc-timeout 1n"},
		{"9 ms deadline, passed", 9 * ms, 9 * ms, false, "under minHonestTimeout"},
		{"10 ms deadline, passed", 10 * ms, 10 * ms, true, "at minHonestTimeout"},
	} {
		c := streamClock{arrived: t0}
		if tc.timeout > 0 {
			c.deadline = t0.Add(tc.timeout)
		}
		if got := c.pressed(t0.Add(tc.lived)); got != tc.want {
			t.Errorf("%s: pressed = %v; want %v (%s)", tc.name, got, tc.want, tc.whatSays)
		}
	}
}
