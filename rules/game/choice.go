package game

import "math/rand/v2"

// Choice picks, among scored candidates offered one at a time, one with the
// highest score, uniformly among equal scores: the k-th candidate to tie
// the best replaces the pick with probability 1/k (reservoir sampling, one
// rng.IntN(k) per tie, none otherwise), so a seeded rng gives the same pick
// on every run. The engines' greedy playout policies use it (each spec's
// "Greedy playout policy"). The zero Choice has no pick.
type Choice struct {
	index, score, ties int
}

// Offer offers candidate i with score and reports whether i is now the
// pick (the first candidate always is).
func (c *Choice) Offer(i, score int, rng *rand.Rand) bool {
	switch {
	case c.ties == 0 || score > c.score:
		c.index, c.score, c.ties = i, score, 1
		return true
	case score == c.score:
		c.ties++
		if rng.IntN(c.ties) == 0 {
			c.index = i
			return true
		}
	}
	return false
}

// Index is the pick: the index of the candidate chosen, -1 before any
// offer.
func (c *Choice) Index() int {
	if c.ties == 0 {
		return -1
	}
	return c.index
}
