package rpcs

import (
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// The cost of a call is what it buys, in microseconds of the server's CPU
// time (user and system, the garbage collector's included), computed from
// the request alone before it runs, so that the server's admission can
// weigh calls (server/limit.Heavy): a call of HeavyCost or more (10 ms of
// CPU) runs in the heavy lane, whose seats clients share; any other, with
// the light calls.
//
// The weights are measured, not guessed: BenchmarkCost* (cost_bench_test.go)
// calls each heavy RPC in process on one goroutine and reports the
// process's CPU time per unit of work (getrusage), and each weight below
// is the largest over the games, policies and runs, rounded up. Measured
// on 2026-12-07 on the project's 2-core machine (go1.27.3, GOMAXPROCS 2,
// shared with other work, load 10–14: CPU time, which that changes less
// than wall time; three runs each, their spread shown), with
// `go test -run '^$' -bench BenchmarkCost -benchtime 300ms -count 3 ./service/rpcs/`:
//
//	Playout, per ply, random: abalone 0.94–0.98, backgammon 1.27–1.31, gravity_trap 0.49–0.60, labyrinth 0.43–0.64 µs
//	Playout, per ply, greedy: abalone 3.00–3.13, backgammon 2.01–2.17, gravity_trap 0.58–0.64, labyrinth 0.81–1.11 µs
//	Expand, per node (depth 2): abalone 1.27–1.34, backgammon 0.74–0.83, gravity_trap 0.84–1.29, labyrinth 2.6–3.9 µs
//	Batch, per item (500 backgammon LegalMoves; ApplyMove): 17.0–22.4; 21.3–38.1 µs
//	ReplayGame, per move: abalone 1.8–1.9, backgammon 3.4–4.1, gravity_trap 1.6–2.2 µs;
//	  with states: 5.9–6.2, 6.1–6.4, 2.9–3.6 µs
//	ExportRecord, per move (its replay and text): abalone 1.9–2.2, backgammon 3.5–7.8 (mat 3.9–4.3), gravity_trap 2.1–3.1 µs;
//	  per byte written: json 0.08–0.27, apgn 0.27–0.38, mat 0.31–0.56 µs
//	ImportRecord, per byte read: json 0.08–0.34, apgn 0.31–0.34, mat 0.62–0.77 µs
//	LegalMoves of backgammon's opening (a light call): 18.4–22.7 µs
//
// (A first run of 10 iterations only gave up to 12 µs a greedy ply: a
// game's first calls pay for its tables; the weights are for a server
// that has been running.) A machine twice as fast halves every figure
// alike, so the ordering of calls, and which are heavy, hold; HeavyCost
// and the server's CostPerSeat (1 s of CPU a seat) are in the same unit.
const (
	// LightCost is the cost of a call that buys one position's work:
	// ListGames, NewGame, LegalMoves, ApplyMove, Score, ObserveState,
	// GetBoard, ConvertState (a LegalMoves call: 18–23 µs).
	LightCost = 20
	// HeavyCost is the cost from which a call is heavy, 10 ms of CPU: a
	// random Playout of 5,000 plies (a game of at most 10,000 plies), a
	// greedy one of 2,500, an Expand of 2,500 nodes, a Batch of 250
	// items, a replay of 1,429 moves, a record of 10 KB read.
	HeavyCost = 10_000
	// PlyCost is a Playout ply played by the random policy (backgammon's,
	// the dearest: 1.31 µs), GreedyPlyCost by the greedy one (Abalone's:
	// 3.13 µs).
	PlyCost       = 2
	GreedyPlyCost = 4
	// NodeCost is a node of an Expand tree (labyrinth's, the dearest:
	// 3.9 µs).
	NodeCost = 4
	// BatchItemCost is the cost of one item of a Batch (one light call,
	// its answer marshalled into the batch's: 38.1 µs at most, an
	// ApplyMove).
	BatchItemCost = 40
	// MoveCost is a move or action of a replay (ReplayGame, its states
	// included: 6.4 µs at most; and the replay of ExportRecord).
	MoveCost = 7
	// RecordByteCost is a byte of a record read (ImportRecord: gnubg's
	// .mat, the dearest, 0.77 µs a byte at most).
	RecordByteCost = 1
	// ExportMoveCost is what a record's text adds per move exported:
	// ExportRecord costs 7.8 µs a move at most, replay and text.
	ExportMoveCost = 1
	// playoutGamePlies is a Playout's plies per game when max_plies is 0
	// (service.MaxPlayoutGamePlies), and playoutPlies the most plies of
	// one call (service.MaxPlayoutPlies); expandNodes, an Expand's node
	// budget when max_nodes is 0 (service.MaxExpandNodes). The package
	// links no service code (TestCostConstants checks them).
	playoutGamePlies = 10_000
	playoutPlies     = 4_000_000
	expandNodes      = 20_000
)

// heavyMethods are the RPCs whose calls may be heavy: Cost may be
// HeavyCost or more for them, and is LightCost for every other.
var heavyMethods = map[string]bool{
	"Playout": true, "Expand": true, "Batch": true, "ReplayGame": true,
	"ImportRecord": true, "ExportRecord": true, "RenderState": true,
}

// MayBeHeavy reports whether calls of the RPC name ("Playout") may be
// heavy (Cost), so that admission can tell them apart by the method alone,
// before their message is read.
func MayBeHeavy(name string) bool { return heavyMethods[name] }

// Cost is what a call of req buys, in microseconds of CPU (see the
// constants), from the request's own fields, whether or not they are
// valid (a request the service refuses costs what it asked for; the
// refusal is quick), at least LightCost:
//
//   - Playout: games × max_plies (0: 10,000), at most the call's ply
//     budget (4,000,000), × PlyCost (GreedyPlyCost for the greedy
//     policy);
//   - Expand: max_nodes (0: 20,000) × NodeCost;
//   - Batch: BatchItemCost per item;
//   - ReplayGame: its moves and actions × MoveCost;
//   - ImportRecord: its text's bytes × RecordByteCost;
//   - ExportRecord: its replay's moves × (MoveCost + ExportMoveCost),
//     plus its tags' bytes (each game's header repeats them);
//   - RenderState: the request's bytes / 4 (a custom board's stations and
//     lines; not measured here);
//   - any other request: LightCost.
func Cost(req proto.Message) int64 {
	return max(LightCost, cost(req))
}

// cost is Cost before its floor.
func cost(req proto.Message) int64 {
	switch r := req.(type) {
	case *gamerulesv1.PlayoutRequest:
		plies := int64(r.GetMaxPlies())
		if plies <= 0 {
			plies = playoutGamePlies
		}
		per := int64(PlyCost)
		if r.GetPolicy() == gamerulesv1.PlayoutPolicy_PLAYOUT_POLICY_GREEDY {
			per = GreedyPlyCost
		}
		return min(int64(max(0, r.GetGames()))*plies, playoutPlies) * per
	case *gamerulesv1.ExpandRequest:
		n := int64(r.GetMaxNodes())
		if n <= 0 {
			n = expandNodes
		}
		return n * NodeCost
	case *gamerulesv1.BatchRequest:
		return BatchItemCost * int64(len(r.GetRequests()))
	case *gamerulesv1.ReplayGameRequest:
		return MoveCost * int64(len(r.GetMoves())+len(r.GetActions()))
	case *gamerulesv1.ImportRecordRequest:
		return RecordByteCost * int64(len(r.GetText()))
	case *gamerulesv1.ExportRecordRequest:
		tags := 0
		for k, v := range r.GetTags() {
			tags += len(k) + len(v)
		}
		moves := int64(len(r.GetReplay().GetMoves()) + len(r.GetReplay().GetActions()))
		return moves*(MoveCost+ExportMoveCost) + int64(tags)
	case *gamerulesv1.RenderStateRequest:
		return int64(proto.Size(r) / 4)
	}
	return LightCost
}
