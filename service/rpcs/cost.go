package rpcs

import (
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// The cost of a call is what it buys, in work units of about one ply played
// or one tree node built (a few microseconds), computed from the request
// alone before it runs, so that the server's admission can weigh calls
// (server/limit.Heavy): a call of HeavyCost or more runs in the heavy lane,
// whose seats clients share; any other, with the light calls.
const (
	// LightCost is the cost of a call that buys one position's work:
	// ListGames, NewGame, LegalMoves, ApplyMove, Score, ObserveState,
	// GetBoard, ConvertState.
	LightCost = 1
	// HeavyCost is the cost from which a call is heavy: a Playout of one
	// game of at most 10,000 plies, an Expand of 10,000 nodes, a Batch
	// of 500 items, a replay of 10,000 moves, a record of 40 KB.
	HeavyCost = 10_000
	// BatchItemCost is the cost of one item of a Batch (one light call,
	// its answer marshalled into the batch's).
	BatchItemCost = 20
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

// Cost is what a call of req buys, in work units (see HeavyCost), from
// the request's own fields, whether or not they are valid (a request the
// service refuses costs what it asked for; the refusal is quick):
//
//   - Playout: games × max_plies (0: 10,000), at most the call's ply
//     budget (4,000,000);
//   - Expand: max_nodes (0: 20,000);
//   - Batch: BatchItemCost per item;
//   - ReplayGame: its moves and actions;
//   - ImportRecord: its text's bytes / 4 (a move takes at least 4);
//   - ExportRecord: its replay's cost × 4 plus its tags' bytes (an
//     exported move is a few bytes of text, each game's header repeats the
//     tags);
//   - RenderState: the request's bytes / 4 (a custom board's stations and
//     lines);
//   - any other request: LightCost.
func Cost(req proto.Message) int64 {
	switch r := req.(type) {
	case *gamerulesv1.PlayoutRequest:
		plies := int64(r.GetMaxPlies())
		if plies <= 0 {
			plies = playoutGamePlies
		}
		return max(LightCost, min(int64(max(0, r.GetGames()))*plies, playoutPlies))
	case *gamerulesv1.ExpandRequest:
		if n := int64(r.GetMaxNodes()); n > 0 {
			return n
		}
		return expandNodes
	case *gamerulesv1.BatchRequest:
		return max(LightCost, BatchItemCost*int64(len(r.GetRequests())))
	case *gamerulesv1.ReplayGameRequest:
		return max(LightCost, int64(len(r.GetMoves())+len(r.GetActions())))
	case *gamerulesv1.ImportRecordRequest:
		return max(LightCost, int64(len(r.GetText())/4))
	case *gamerulesv1.ExportRecordRequest:
		tags := 0
		for k, v := range r.GetTags() {
			tags += len(k) + len(v)
		}
		return 4*Cost(r.GetReplay()) + int64(tags)
	case *gamerulesv1.RenderStateRequest:
		return max(LightCost, int64(proto.Size(r)/4))
	}
	return LightCost
}
