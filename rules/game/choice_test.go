package game

import (
	"math/rand/v2"
	"testing"
)

func TestChoice(t *testing.T) {
	var c Choice
	if c.Index() != -1 {
		t.Fatalf("zero Choice: Index %d, want -1", c.Index())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	// Scores 1, 5, 3, 5, 5, 2: the pick is one of 1, 3, 4, a third of the
	// time each.
	scores := []int{1, 5, 3, 5, 5, 2}
	counts := map[int]int{}
	const n = 30000
	for range n {
		c = Choice{}
		for i, s := range scores {
			c.Offer(i, s, rng)
		}
		counts[c.Index()]++
	}
	for i, k := range counts {
		if scores[i] != 5 {
			t.Errorf("picked %d (score %d), not a best one", i, scores[i])
		}
		if k < n/3-600 || k > n/3+600 {
			t.Errorf("picked %d %d times of %d; want about a third", i, k, n)
		}
	}
	if len(counts) != 3 {
		t.Errorf("picks %v; want 1, 3 and 4", counts)
	}
	// Offer reports a new pick: the first always, a lower score never.
	c = Choice{}
	if !c.Offer(7, -3, rng) || c.Offer(8, -4, rng) || c.Index() != 7 {
		t.Errorf("Offer: index %d, want 7", c.Index())
	}
}
