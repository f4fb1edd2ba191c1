package service

import (
	"context"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/proto"

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

// expandNode is a node of the tree while it is grown: its position and,
// within the budget, its children's moves (LegalMoves with results) and
// nodes.
type expandNode struct {
	pos    Position
	moves  []*gamerulesv1.Move
	chance bool
	kids   []*expandNode
}

// expander is implemented by the Positions that list their moves and
// children in one pass (backgammon); the others' moves come from
// LegalMoves and their children from searcher.children.
type expander interface {
	expand(w moveParts) (moves []*gamerulesv1.Move, chance bool, kids []Position, err error)
}

// expandOf lists pos's moves with the parts w and its children.
func expandOf(pos Position, w moveParts) ([]*gamerulesv1.Move, bool, []Position, error) {
	if e, ok := pos.(expander); ok {
		return e.expand(w)
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
	return moves, chance, kids, nil
}

// Expand returns the tree of the request's state to its depth. The tree is
// first built as rules positions while it is counted; a tree over the node
// budget is refused then (INVALID_REQUEST on depth, ErrorInfo metadata
// "nodes" the count it needs), before any answer is built.
func (s *Server) Expand(ctx context.Context, req *gamerulesv1.ExpandRequest) (*gamerulesv1.ExpandResponse, error) {
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	depth := int(req.GetDepth())
	if depth < 1 || depth > MaxExpandDepth {
		return nil, toStatus("depth", fmt.Errorf("%w: depth %d; want 1..%d plies", errInvalidRequest, depth, MaxExpandDepth))
	}
	budget := int(req.GetMaxNodes())
	switch {
	case budget < 0 || budget > MaxExpandNodes:
		return nil, toStatus("max_nodes", fmt.Errorf("%w: max_nodes %d; want 0 (the most, %d) up to %d", errInvalidRequest, budget, MaxExpandNodes, MaxExpandNodes))
	case budget == 0:
		budget = MaxExpandNodes
	}
	w := moveParts{Notation: true, Typed: req.GetIncludeTyped(), Probability: true, Action: true, ResultText: true, ResultTyped: req.GetIncludeTyped()}
	b := &treeBuilder{ctx: ctx, budget: budget, countCap: max(expandCountFactor*budget, expandCountFloor), parts: w}
	root := &expandNode{pos: pos}
	b.count = 1
	if err := b.grow(root, depth); err != nil {
		return nil, err
	}
	if b.count > budget {
		need := strconv.Itoa(b.count)
		if b.count > b.countCap {
			need = ">" + strconv.Itoa(b.countCap)
		}
		return nil, toStatusMeta("depth", fmt.Errorf("%w: the tree to depth %d has %s nodes; at most %d (max_nodes): ask for less depth", errInvalidRequest, depth, need, budget), map[string]string{"nodes": need})
	}
	st := pos.Encode()
	if !req.GetIncludeTyped() {
		st = &gamerulesv1.GameState{Text: st.GetText()}
	}
	out := &gamerulesv1.ExpandResponse{Root: &gamerulesv1.ExpandNode{State: st}, NodeCount: int32(b.count)}
	players := len(pos.Outcome().Points)
	sl := &nodeSlabs{nodes: makeSlab[gamerulesv1.ExpandNode](b.count), points: makeSlab[int32](b.count * players)}
	buildNode(out.Root, root, sl)
	if n := proto.Size(out); n > expandAnswerLimit {
		return nil, toStatus("depth", fmt.Errorf("%w: the tree to depth %d (%d nodes) is %d bytes; at most %d: ask for less depth, a smaller max_nodes, or leave out include_typed", errInvalidRequest, depth, b.count, n, expandAnswerLimit))
	}
	return out, nil
}

// treeBuilder grows an Expand tree and counts it.
type treeBuilder struct {
	ctx      context.Context
	budget   int
	countCap int // how far a tree over the budget is counted
	parts    moveParts
	count    int
}

// grow adds depth plies of children below n, with their moves while the
// tree is within the budget. Past the budget it only counts (up to
// countCap), without keeping nodes or building moves.
func (b *treeBuilder) grow(n *expandNode, depth int) error {
	if depth == 0 || over(n.pos) {
		return nil
	}
	if _, ok := n.pos.(searcher); !ok {
		return toStatus("state", fmt.Errorf("expand: the game's positions cannot be searched"))
	}
	var kids []Position
	var err error
	keep := b.count <= b.budget
	if keep {
		n.moves, n.chance, kids, err = expandOf(n.pos, b.parts)
	} else {
		kids, err = n.pos.(searcher).children()
	}
	if err != nil {
		return toStatus("state", err)
	}
	before := b.count
	b.count += len(kids)
	if before/expandCheckEvery != b.count/expandCheckEvery {
		if err := b.ctx.Err(); err != nil {
			return toStatus("depth", err)
		}
	}
	if keep = keep && b.count <= b.budget; keep {
		n.kids = make([]*expandNode, len(kids))
	}
	for i, k := range kids {
		if b.count > b.countCap {
			return nil
		}
		kn := &expandNode{pos: k}
		if keep {
			n.kids[i] = kn
		}
		if err := b.grow(kn, depth-1); err != nil {
			return err
		}
	}
	return nil
}

// over reports whether pos has no move: finished, and not a finished game
// inside an unfinished backgammon match, whose LegalMoves (and so whose
// children) are its "next game".
func over(pos Position) bool {
	if c, ok := pos.(continuer); ok && c.Continues() {
		return false
	}
	return pos.Outcome().Finished
}

// nodeSlabs hold the nodes and points of one Expand answer, so that its
// thousands of small messages cost a few allocations.
type nodeSlabs struct {
	nodes  slab[gamerulesv1.ExpandNode]
	points slab[int32]
}

// buildNode fills out's outcome and children from n: the children's moves
// and states are n's LegalMoves with results, in order.
func buildNode(out *gamerulesv1.ExpandNode, n *expandNode, sl *nodeSlabs) {
	sc := n.pos.Outcome()
	out.Finished = sc.Finished
	out.Points = sl.points.take(len(sc.Points))
	if out.Points == nil {
		out.Points = []int32{}
	}
	for i, p := range sc.Points {
		out.Points[i] = int32(p)
	}
	if sc.Finished && sc.Winner >= 0 {
		wn := int32(sc.Winner)
		out.Winner = &wn
	}
	if len(n.kids) == 0 {
		return
	}
	chance := n.chance
	out.Chance = &chance
	out.Children = make([]*gamerulesv1.ExpandNode, len(n.moves))
	for i, m := range n.moves {
		st := m.Result
		m.Result = nil
		c := sl.nodes.next()
		c.Move, c.State = m, st
		buildNode(c, n.kids[i], sl)
		out.Children[i] = c
	}
}
