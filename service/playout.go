package service

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// MaxPlayoutGames is the most games one Playout call plays.
const MaxPlayoutGames = 10_000

// MaxPlayoutPlies is the CPU budget of one Playout call: the plies its
// games may take in all. A ply is 0.16 to 3.6 µs of CPU in the engines
// (BENCHMARKS.md, "Playout's greedy policy": a random Gravity Trap ply the
// cheapest, a greedy Abalone ply the dearest),
// so the budget is 0.6 to 14 s of one core, spread over the cores; the
// request's deadline (server.Options.RequestTimeout, 5 s by default) cuts
// the dearer calls off first, with DEADLINE_EXCEEDED. A call whose games
// pass the budget fails as soon as they do; which games are played does
// not depend on the cores, so the same request always passes it or always
// fails on it (whether the deadline passes first depends on the machine).
const MaxPlayoutPlies = 4_000_000

// playoutPlyBudget is MaxPlayoutPlies; tests lower it.
var playoutPlyBudget int64 = MaxPlayoutPlies

// MaxPlayoutGamePlies is the most plies one game of a playout may take,
// and the default: random games stay well under it (of 100 random games
// from the start, the longest took 4,558 plies in a four-player Labyrinth,
// 2,945 in Abalone, 556 in backgammon and 21 in Gravity Trap; see
// TestPlayoutDefaultFinishes).
const MaxPlayoutGamePlies = 10_000

// MaxPlayoutRecorded is the most games a Playout with include_moves plays.
const MaxPlayoutRecorded = 100

// playoutChunk is how many games a Playout worker plays between two looks
// at the request's context (and two takes of work).
const playoutChunk = 16

// errPlayoutBudget is the failure of a Playout whose games pass
// MaxPlayoutPlies.
func errPlayoutBudget() error {
	return fmt.Errorf("%w: the games take more than %d plies, the budget of one call; ask for fewer games or a smaller max_plies", errInvalidRequest, playoutPlyBudget)
}

// playoutPolicy is the policy a request names (absent: random).
func playoutPolicy(req *gamerulesv1.PlayoutRequest) (policy, error) {
	if req.Policy == nil {
		return policyRandom, nil
	}
	switch req.GetPolicy() {
	case gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_RANDOM:
		return policyRandom, nil
	case gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY:
		return policyGreedy, nil
	}
	what := "PLAYOUT_POLICY_UNSPECIFIED is not a policy"
	if req.GetPolicy() != gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_UNSPECIFIED {
		what = enumText(req.GetPolicy())
	}
	return 0, toStatus("policy", fmt.Errorf("%w: policy %s; want PLAYOUT_POLICY_RANDOM or PLAYOUT_POLICY_GREEDY, or leave it out for random", errInvalidRequest, what))
}

// MaxPlayoutGameOffset is the largest PlayoutRequest.game_offset, 2^53:
// JSON's numbers are exact up to it.
const MaxPlayoutGameOffset = 1 << 53

// Playout plays the request's games from its state and answers their
// statistics. Game i draws from its own generator, seeded by the seed and
// game_offset + i, so the answer does not depend on which core played
// which game, and calls over adjacent ranges of the sequence (game_offset)
// sum to one call over the whole range. A
// finished state (a finished game inside a backgammon match too: Playout
// plays the current game) gives games of 0 plies and its result.
func (s *Server) Playout(ctx context.Context, req *gamerulesv1.PlayoutRequest) (*gamerulesv1.PlayoutResponse, error) {
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	games := int(req.GetGames())
	if games < 1 || games > MaxPlayoutGames {
		return nil, toStatus("games", fmt.Errorf("%w: games %d; want 1..%d", errInvalidRequest, games, MaxPlayoutGames))
	}
	if req.GetIncludeMoves() && games > MaxPlayoutRecorded {
		return nil, toStatus("include_moves", fmt.Errorf("%w: include_moves with %d games; at most %d", errInvalidRequest, games, MaxPlayoutRecorded))
	}
	maxPlies := int(req.GetMaxPlies())
	switch {
	case maxPlies < 0 || maxPlies > MaxPlayoutGamePlies:
		return nil, toStatus("max_plies", fmt.Errorf("%w: max_plies %d; want 1..%d, or 0 for %d", errInvalidRequest, maxPlies, MaxPlayoutGamePlies, MaxPlayoutGamePlies))
	case maxPlies == 0:
		maxPlies = MaxPlayoutGamePlies
	}
	offset := req.GetGameOffset()
	if offset < 0 || offset > MaxPlayoutGameOffset {
		return nil, toStatus("game_offset", fmt.Errorf("%w: game_offset %d; want 0..%d", errInvalidRequest, offset, int64(MaxPlayoutGameOffset)))
	}
	pol, err := playoutPolicy(req)
	if err != nil {
		return nil, err
	}
	sr, ok := pos.(searcher)
	if !ok {
		return nil, toStatus("state", fmt.Errorf("playout: the game's positions cannot be played out"))
	}
	seed := seedOrRandom(req.Seed)
	// The first moves: dealt round robin at a decision (unless the policy
	// chooses them), drawn at chance. A finished state has none, also where
	// LegalMoves lists a backgammon match's next game.
	var firstMoves []*gamerulesv1.Move
	chance := false
	if !pos.Outcome().Finished {
		if firstMoves, chance, err = pos.LegalMoves(moveParts{Notation: true}); err != nil {
			return nil, toStatus("state", err)
		}
	}
	deal := !chance && len(firstMoves) > 0 && !req.GetFirstMoveByPolicy()
	played := make([]playedGame, games)
	var plies atomic.Int64
	chunks := (games + playoutChunk - 1) / playoutChunk
	err = parallel(chunks, 1, func(c int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := c * playoutChunk; i < min(games, (c+1)*playoutChunk); i++ {
			if plies.Load() > playoutPlyBudget {
				return errPlayoutBudget()
			}
			// Game i of the call is game offset+i of the seeded sequence.
			n := uint64(offset) + uint64(i)
			rng := rand.New(rand.NewPCG(seed, n))
			first := -1
			if deal {
				first = int(n % uint64(len(firstMoves)))
			}
			g, err := sr.playout(rng, pol, first, maxPlies, req.GetIncludeMoves())
			if err != nil {
				return err
			}
			played[i] = g
			if plies.Add(int64(g.plies)) > playoutPlyBudget {
				return errPlayoutBudget()
			}
		}
		return nil
	})
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("playout: the call's deadline passed before its %d games (up to %d plies each) were played; ask for fewer games or a smaller max_plies, or give the call a longer deadline: %w", games, maxPlies, err)
	}
	if err != nil {
		return nil, toStatus("games", err)
	}
	// The state's players (a two-player Labyrinth has two), not the game's most.
	players := int32(len(pos.Outcome().Points))
	resp := playoutAnswer(players, seed, played, firstMoves, req.GetIncludeMoves())
	if !chance && len(firstMoves) > 0 {
		t := int32(sr.turn())
		resp.Turn = &t
	}
	return resp, nil
}

// playoutAnswer sums the games played into Playout's answer.
func playoutAnswer(players int32, seed uint64, played []playedGame, firstMoves []*gamerulesv1.Move, record bool) *gamerulesv1.PlayoutResponse {
	resp := &gamerulesv1.PlayoutResponse{Seed: seed, GameCount: int32(len(played)), WinCounts: make([]int32, players)}
	type bar struct{ player, points int }
	hist := map[bar]int32{}
	if record {
		resp.Played = &gamerulesv1.PlayoutGames{Games: make([]*gamerulesv1.PlayoutGame, 0, len(played))}
	}
	first := make([]*gamerulesv1.PlayoutFirstMove, len(firstMoves))
	for i, m := range firstMoves {
		first[i] = &gamerulesv1.PlayoutFirstMove{Notation: m.GetNotation(), WinCounts: make([]int32, players), Points: make([]int32, players)}
	}
	for _, g := range played {
		resp.TotalPlies += int64(g.plies)
		resp.LongestPlies = max(resp.LongestPlies, int32(g.plies))
		var fm *gamerulesv1.PlayoutFirstMove
		if g.first >= 0 && g.first < len(first) {
			fm = first[g.first]
			fm.PlayCount++
		}
		pg := &gamerulesv1.PlayoutGame{Moves: g.moves, Finished: g.out.Finished}
		switch {
		case !g.out.Finished:
			resp.UnfinishedCount++
		case g.out.Winner < 0:
			resp.DrawCount++
			if fm != nil {
				fm.DrawCount++
			}
		default:
			w := g.out.Winner
			resp.WinCounts[w]++
			wn := int32(w)
			pg.Winner = &wn
			pts := 0
			if w < len(g.out.Points) {
				pts = g.out.Points[w]
			}
			hist[bar{w, pts}]++
			if fm != nil {
				fm.WinCounts[w]++
			}
		}
		if fm != nil {
			for p, v := range g.out.Points {
				if p < len(fm.Points) {
					fm.Points[p] += int32(v)
				}
			}
		}
		if record {
			resp.Played.Games = append(resp.Played.Games, pg)
		}
	}
	if len(played) > 0 {
		resp.MeanPlies = float64(resp.TotalPlies) / float64(len(played))
	}
	for b, n := range hist {
		resp.Points = append(resp.Points, &gamerulesv1.PlayoutPoints{Player: int32(b.player), Points: int32(b.points), GameCount: n})
	}
	slices.SortFunc(resp.Points, func(a, b *gamerulesv1.PlayoutPoints) int {
		if a.Player != b.Player {
			return int(a.Player - b.Player)
		}
		return int(a.Points - b.Points)
	})
	resp.FirstMoves = first
	return resp
}
