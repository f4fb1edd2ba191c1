package requestid

import (
	"encoding/hex"
	"testing"
)

// TestNew checks that fresh ids are 32 hex digits, valid, and distinct over
// 100,000 of them (from goroutines on several threads).
func TestNew(t *testing.T) {
	const n, workers = 100_000, 4
	ch := make(chan []string, workers)
	for w := 0; w < workers; w++ {
		go func() {
			ids := make([]string, n/workers)
			for i := range ids {
				ids[i] = New()
			}
			ch <- ids
		}()
	}
	seen := make(map[string]bool, n)
	for w := 0; w < workers; w++ {
		for _, id := range <-ch {
			if b, err := hex.DecodeString(id); err != nil || len(b) != 16 || !Valid(id) {
				t.Fatalf("New() = %q: want 32 hex digits", id)
			}
			if seen[id] {
				t.Fatalf("New() gave %q twice", id)
			}
			seen[id] = true
		}
	}
}
