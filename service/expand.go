package service

import (
	"context"
	"fmt"
	"strconv"

	"github.com/gamerules/gamerules/rules/game"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// MaxExpandDepth is the deepest tree Expand builds, in plies.
const MaxExpandDepth = 8

// MaxExpandNodes is the most nodes an Expand tree may have, the root
// included: a node is about 60 bytes of protobuf with its text state (a
// few hundred with the typed state), so the answer stays within a few MiB.
// Backgammon from a roll phase has about 450 nodes at depth 2 and 9,000 at
// depth 3.
const MaxExpandNodes = 20_000

// expandCountFactor is how far, in multiples of the node budget, Expand
// counts a tree that is over its budget (at least expandCountFloor) before
// it gives up and reports a lower bound: a refusal costs at most that many budgets of work (counting
// to 1,000,000 cost 0.5-0.7 s of CPU per refused call).
const expandCountFactor = 5

// expandCountFloor is how far Expand counts at least, so that a small
// max_nodes still hears the count it would need.
const expandCountFloor = 100_000

// MaxExpandAnswerBytes bounds an Expand answer (its protobuf size), as
// MaxBatchAnswerBytes bounds a Batch's: 20,000 Labyrinth nodes with their
// typed states are about 32 MB.
const MaxExpandAnswerBytes = 4 << 20

// expandAnswerLimit is MaxExpandAnswerBytes; tests lower it.
var expandAnswerLimit = MaxExpandAnswerBytes

// expandCheckEvery is how many nodes Expand visits between two looks at
// the request's context.
const expandCheckEvery = 256

// expander is implemented by the Positions that build their children's
// nodes themselves, from one pass of the move generator and with the
// tree's scratch buffers (backgammon); the others' nodes are built from
// LegalMoves and their positions from searcher.children.
type expander interface {
	// expandNodes returns the children's nodes, each with its move and
	// state (the parts w asks for, LegalMoves with results: the result is
	// the node's state, not the move's) and nothing else set, the
	// positions of the children in the same order, and whether the moves
	// are chance outcomes. With leaves (the tree ends below the children)
	// it may instead set the children's outcomes itself (sc.setOutcome's)
	// and return no positions.
	expandNodes(w moveParts, sc *expandScratch, leaves bool) (nodes []*gamerulesv1.ExpandNode, chance bool, kids []Position, err error)
}

// expandScratch is what the nodes of one Expand share while they are
// built: buffers an expander reuses from node to node (what it keeps of
// them, it copies out), and the slabs of the nodes' points and flags.
type expandScratch struct {
	bg      *backgammonScratch // from backgammonScratches, given back when the tree is built
	players int                // the game's players: each node's points
	points  slab[int32]        // the nodes' points
	flags   slab[bool]         // the nodes' chance flags
	// bound is at least the protobuf size of the nodes built so far, when
	// every one was built by an expander that adds to it (bounded);
	// otherwise the answer is measured (sizeOf).
	bound   int
	bounded bool
}

// expandNodeOverhead is at most the protobuf bytes of a node whose move
// has a notation, a probability and an action id and whose state only a
// text, without the two texts and its children: the field's tag and
// length (5 bytes: a subtree under 32 GiB), the move's 2 + 2 + 9 + 11,
// the state's 2 + 2, finished 2, two points 2 + 20, a winner 11 and the
// chance flag 2 (71), with room to spare.
const expandNodeOverhead = 96

// addBound adds a node with texts of n bytes in all to sc.bound.
func (sc *expandScratch) addBound(n int) { sc.bound += expandNodeOverhead + n }

// unfinisher is implemented by the Positions that tell cheaply (without
// building an Outcome) that the game goes on: Outcome is then no winner
// and every player's points 0.
type unfinisher interface {
	unfinished() bool
}

// expandOf returns pos's children as nodes with their moves (the parts w
// asks for) and states, and their positions.
func expandOf(pos Position, w moveParts, sc *expandScratch, leaves bool) ([]*gamerulesv1.ExpandNode, bool, []Position, error) {
	if e, ok := pos.(expander); ok {
		return e.expandNodes(w, sc, leaves)
	}
	moves, chance, err := pos.LegalMoves(w)
	if err != nil {
		return nil, false, nil, err
	}
	kids, err := pos.(searcher).children()
	if err != nil {
		return nil, false, nil, err
	}
	if len(kids) != len(moves) {
		return nil, false, nil, fmt.Errorf("expand: %d legal moves but %d children", len(moves), len(kids)) // a bug: INTERNAL
	}
	sc.bounded = false
	return movesToNodes(moves), chance, kids, nil
}

// movesToNodes returns a node for each of moves (LegalMoves with results):
// the move without its result, and the result as the node's state.
func movesToNodes(moves []*gamerulesv1.Move) []*gamerulesv1.ExpandNode {
	if len(moves) == 0 {
		return nil
	}
	block := make([]gamerulesv1.ExpandNode, len(moves))
	nodes := make([]*gamerulesv1.ExpandNode, len(moves))
	for i, m := range moves {
		c := &block[i]
		c.Move, c.State = m, m.Result
		m.Result = nil
		nodes[i] = c
	}
	return nodes
}

// Expand returns the tree of the request's state to its depth. The nodes
// are built while the tree is grown and counted; a tree over the node
// budget is refused (INVALID_REQUEST on depth, ErrorInfo metadata "nodes"
// the count it needs): past the budget it is only counted, and what was
// built is dropped.
func (s *Server) Expand(ctx context.Context, req *gamerulesv1.ExpandRequest) (*gamerulesv1.ExpandResponse, error) {
	pos, depth, budget, err := s.expandRequest(req)
	if err != nil {
		return nil, err
	}
	return expandTree(ctx, pos, depth, budget, req.GetIncludeTyped())
}

// expandRequest checks an Expand request: its position, depth and node
// budget (0: MaxExpandNodes).
func (s *Server) expandRequest(req *gamerulesv1.ExpandRequest) (Position, int, int, error) {
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, 0, 0, err
	}
	depth := int(req.GetDepth())
	if depth < 1 || depth > MaxExpandDepth {
		return nil, 0, 0, toStatus("depth", fmt.Errorf("%w: depth %d; want 1..%d plies", errInvalidRequest, depth, MaxExpandDepth))
	}
	budget := int(req.GetMaxNodes())
	switch {
	case budget < 0 || budget > MaxExpandNodes:
		return nil, 0, 0, toStatus("max_nodes", fmt.Errorf("%w: max_nodes %d; want 0 (the most, %d) up to %d", errInvalidRequest, budget, MaxExpandNodes, MaxExpandNodes))
	case budget == 0:
		budget = MaxExpandNodes
	}
	return pos, depth, budget, nil
}

// expandTree is Expand's tree of pos to depth within budget nodes. It is
// apart from Expand, and its refusals apart from it, so that its stack
// frame, under the whole recursion, stays small.
func expandTree(ctx context.Context, pos Position, depth, budget int, typed bool) (*gamerulesv1.ExpandResponse, error) {
	w := moveParts{Notation: true, Typed: typed, Probability: true, Action: true, ResultText: true, ResultTyped: typed}
	st := pos.Encode()
	if !typed {
		st = &gamerulesv1.GameState{Text: st.GetText()}
	}
	out := &gamerulesv1.ExpandResponse{Root: &gamerulesv1.ExpandNode{State: st}}
	b := &treeBuilder{ctx: ctx, budget: budget, countCap: max(expandCountFactor*budget, expandCountFloor), parts: w}
	b.scratch.players = len(pos.Outcome().Points)
	b.scratch.points, b.scratch.flags = makeChunkedSlab[int32](expandSlabChunk), makeChunkedSlab[bool](expandSlabChunk)
	// The response's own fields (root, node_count) and the root's outcome.
	b.scratch.bound, b.scratch.bounded = sizeOf(st)+2*expandNodeOverhead, true
	b.count = 1
	err := b.grow(out.Root, pos, depth)
	b.scratch.release()
	if err != nil {
		return nil, err
	}
	if b.count > budget {
		return nil, b.overBudget(depth)
	}
	out.NodeCount = int32(b.count)
	if b.scratch.bounded && b.scratch.bound <= expandAnswerLimit {
		return out, nil // within the limit, not measured
	}
	if n := sizeOf(out); n > expandAnswerLimit {
		return nil, b.overSize(depth, n)
	}
	return out, nil
}

// overBudget is the refusal of a tree to depth over b's node budget.
func (b *treeBuilder) overBudget(depth int) error {
	need := strconv.Itoa(b.count)
	if b.count > b.countCap {
		need = ">" + strconv.Itoa(b.countCap)
	}
	return toStatusMeta("depth", fmt.Errorf("%w: the tree to depth %d has %s nodes; at most %d (max_nodes): ask for less depth", errInvalidRequest, depth, need, b.budget), map[string]string{"nodes": need})
}

// overSize is the refusal of a tree to depth of n bytes, over the answer
// limit.
func (b *treeBuilder) overSize(depth, n int) error {
	return toStatus("depth", fmt.Errorf("%w: the tree to depth %d (%d nodes) is %d bytes; at most %d: ask for less depth, a smaller max_nodes, or leave out include_typed", errInvalidRequest, depth, b.count, n, expandAnswerLimit))
}

// expandSlabChunk is how many values the tree's points and chance flags
// take from the heap at a time.
const expandSlabChunk = 1024

// treeBuilder grows an Expand tree and counts it.
type treeBuilder struct {
	ctx      context.Context
	budget   int
	countCap int // how far a tree over the budget is counted
	parts    moveParts
	count    int
	scratch  expandScratch
}

// grow sets out's outcome and adds depth plies of children below it, each
// with its move, state and outcome, while the tree is within the budget.
// Past the budget (out nil, or the count over it) it only counts (up to
// countCap), without building nodes or moves.
func (b *treeBuilder) grow(out *gamerulesv1.ExpandNode, pos Position, depth int) error {
	if out != nil && b.count > b.budget {
		out = nil
	}
	var finished bool
	if out != nil {
		finished = b.scratch.setOutcome(out, pos)
	} else {
		finished = isFinished(pos)
	}
	if depth == 0 || (finished && !continues(pos)) {
		return nil
	}
	if _, ok := pos.(searcher); !ok {
		return toStatus("state", fmt.Errorf("expand: the game's positions cannot be searched"))
	}
	var nodes []*gamerulesv1.ExpandNode
	var chance bool
	var kids []Position
	var err error
	if out != nil {
		nodes, chance, kids, err = expandOf(pos, b.parts, &b.scratch, depth == 1)
	} else {
		kids, err = pos.(searcher).children()
	}
	if err != nil {
		return toStatus("state", err)
	}
	n := len(kids)
	leavesSet := depth == 1 && kids == nil && nodes != nil // the expander set the leaves' outcomes
	if leavesSet {
		n = len(nodes)
	}
	before := b.count
	b.count += n
	if before/expandCheckEvery != b.count/expandCheckEvery {
		if err := b.ctx.Err(); err != nil {
			return toStatus("depth", err)
		}
	}
	if out != nil && b.count <= b.budget && n > 0 {
		c := b.scratch.flags.next()
		*c = chance
		out.Chance, out.Children = c, nodes
	} else {
		nodes = nil
	}
	if leavesSet {
		return nil
	}
	for i, k := range kids {
		if b.count > b.countCap {
			return nil
		}
		var kn *gamerulesv1.ExpandNode
		if nodes != nil {
			kn = nodes[i]
		}
		if err := b.grow(kn, k, depth-1); err != nil {
			return err
		}
	}
	return nil
}

// setOutcome sets out's finished flag, points and winner from pos's
// outcome (Score's) and reports whether the game is over.
func (sc *expandScratch) setOutcome(out *gamerulesv1.ExpandNode, pos Position) bool {
	if u, ok := pos.(unfinisher); ok && u.unfinished() {
		sc.setUnfinished(out)
		return false
	}
	return sc.setFinalOutcome(out, pos.Outcome())
}

// setUnfinished sets out's outcome to a game that goes on: every
// player's points 0 (unfinisher).
func (sc *expandScratch) setUnfinished(out *gamerulesv1.ExpandNode) {
	out.Points = sc.points.take(sc.players)
	if out.Points == nil {
		out.Points = []int32{}
	}
}

// setFinalOutcome sets out's finished flag, points and winner from o and
// reports whether the game is over.
func (sc *expandScratch) setFinalOutcome(out *gamerulesv1.ExpandNode, o game.Outcome) bool {
	out.Finished = o.Finished
	out.Points = sc.points.take(len(o.Points))
	if out.Points == nil {
		out.Points = []int32{}
	}
	for i, p := range o.Points {
		out.Points[i] = int32(p)
	}
	if o.Finished && o.Winner >= 0 {
		wn := int32(o.Winner)
		out.Winner = &wn
	}
	return o.Finished
}

// continues reports whether pos, a finished game, still has a move: a
// finished game inside an unfinished backgammon match, whose LegalMoves
// (and so whose children) are its "next game".
func continues(pos Position) bool {
	c, ok := pos.(continuer)
	return ok && c.Continues()
}

// isFinished reports whether pos's game is over.
func isFinished(pos Position) bool {
	if u, ok := pos.(unfinisher); ok && u.unfinished() {
		return false
	}
	return pos.Outcome().Finished
}
