package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The scripted agent: no model, but the mistakes models make, each
// recovered from the error text alone. It plays a whole game through the
// tools: it plans with playout (the greedy policy's game from the current
// state, so that a game ends in tens or hundreds of plies), plays the plan
// move by move with apply_move, and at set plies makes a mistake instead:
// chess notation for a move, a move of the previous ply (illegal here as a
// rule), an action id out of range, a stale state, an argument of the wrong
// JSON type; after the end it plays on a finished game.

// call calls a tool with args and answers its result (a protocol error
// fails the test: every fault must be a tool result).
func call(t *testing.T, cs *sdkmcp.ClientSession, name string, args map[string]any) *sdkmcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdkmcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): protocol error %v", name, args, err)
	}
	return res
}

// textOf is a result's first text content.
func textOf(res *sdkmcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*sdkmcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// structured decodes a result's structuredContent into v.
func structured(t *testing.T, res *sdkmcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
}

// play is the structured answer of new_game and apply_move as a client
// reads it.
type play struct {
	State      string `json:"state"`
	Finished   bool   `json:"finished"`
	Winner     *int   `json:"winner"`
	Points     []int  `json:"points"`
	Move       string `json:"move"`
	LegalMoves []struct {
		Notation string `json:"notation"`
		Action   *int   `json:"action"`
	} `json:"legal_moves"`
	LegalMovesTotal int    `json:"legal_moves_total"`
	Board           string `json:"board"`
}

// listedMoves reads the legal moves a refusal lists ("Legal moves in the
// state you sent (N…): a; b; c.").
func listedMoves(text string) []string {
	_, rest, ok := strings.Cut(text, "Legal moves in the state you sent (")
	if !ok {
		return nil
	}
	_, rest, ok = strings.Cut(rest, "): ")
	if !ok {
		return nil
	}
	line, _, _ := strings.Cut(rest, "\n")
	return strings.Split(strings.TrimSuffix(line, "."), "; ")
}

// agentStats counts what happened in a game.
type agentStats struct {
	plies, refused, recovered int
	mistakes                  map[string]int // kind -> refusals seen
	final                     play
}

// planFrom is the greedy playout's game from state: its moves.
func planFrom(t *testing.T, cs *sdkmcp.ClientSession, game, state string, seed int) []string {
	t.Helper()
	res := call(t, cs, "playout", map[string]any{"game": game, "state": state, "games": 1, "policy": "greedy",
		"include_moves": true, "first_move_by_policy": true, "seed": fmt.Sprint(seed)})
	if res.IsError {
		t.Fatalf("playout: %s", textOf(res))
	}
	var p struct {
		Played struct {
			Games []struct {
				Moves []string `json:"moves"`
			} `json:"games"`
		} `json:"played"`
	}
	structured(t, res, &p)
	if len(p.Played.Games) != 1 || len(p.Played.Games[0].Moves) == 0 {
		t.Fatalf("playout from %q planned no moves: %v", state, res.StructuredContent)
	}
	return p.Played.Games[0].Moves
}

// playAgent plays a whole game of game through cs.
func playAgent(t *testing.T, cs *sdkmcp.ClientSession, game string, options map[string]any) agentStats {
	t.Helper()
	st := agentStats{mistakes: map[string]int{}}
	args := map[string]any{"game": game, "seed": "7"}
	if options != nil {
		args["options"] = options
	}
	res := call(t, cs, "new_game", args)
	if res.IsError {
		t.Fatalf("new_game: %s", textOf(res))
	}
	var cur play
	structured(t, res, &cur)
	history := []string{cur.State}
	var plan, played []string
	seed := 1
	refused := func(kind string, r *sdkmcp.CallToolResult) bool {
		if !r.IsError {
			return false
		}
		st.refused++
		st.mistakes[kind]++
		return true
	}
	// apply plays mv on state; a refusal's text is the agent's only guide.
	apply := func(state, mv string) (*sdkmcp.CallToolResult, play) {
		r := call(t, cs, "apply_move", map[string]any{"game": game, "state": state, "move": mv})
		var p play
		if !r.IsError {
			structured(t, r, &p)
		}
		return r, p
	}
	for step := 0; !cur.Finished; step++ {
		if step > 3000 {
			t.Fatalf("%s: no end after %d plies", game, step)
		}
		if len(plan) == 0 {
			plan = planFrom(t, cs, game, cur.State, seed)
			seed++
		}
		mv := plan[0]
		var r *sdkmcp.CallToolResult
		var next play
		switch {
		case step == 1 && !strings.HasPrefix(mv, "roll"):
			// Chess notation: refused, the planned move is among the
			// moves listed (nearest first) or the agent takes the first.
			r, _ = apply(cur.State, "e2e4")
			if !refused("notation", r) {
				t.Fatalf("%s: e2e4 accepted", game)
			}
			listed := listedMoves(textOf(r))
			if len(listed) == 0 {
				t.Fatalf("%s: the refusal lists no moves: %s", game, textOf(r))
			}
			if !slices.Contains(listed, mv) {
				mv, plan = listed[0], []string{listed[0]}
			}
			st.recovered++
		case step == 4 && len(played) > 0:
			// A move of the previous ply: mostly illegal now.
			r, next = apply(cur.State, played[len(played)-1])
			if refused("illegal", r) {
				if l := listedMoves(textOf(r)); len(l) == 0 || strings.Contains(textOf(r), "rpc error") {
					t.Fatalf("%s: refusal without legal moves or with the transport's prefix: %s", game, textOf(r))
				}
				st.recovered++
				break
			}
			// Legal after all: the agent goes on from there.
			cur, plan, played = next, nil, append(played, next.Move)
			history = append(history, cur.State)
			st.plies++
			continue
		case step == 6:
			r = call(t, cs, "apply_move", map[string]any{"game": game, "state": cur.State, "action": 1 << 30})
			if !refused("action", r) || !strings.Contains(textOf(r), "action") {
				t.Fatalf("%s: action 2^30: %v %s", game, r.IsError, textOf(r))
			}
			st.recovered++
		case step == 8 && len(history) >= 3:
			// A stale state: the one two plies back.
			stale := history[len(history)-3]
			r, next = apply(stale, mv)
			if refused("stale", r) {
				// Recovery: the planned move is not among the moves of
				// the state sent, so the agent resends its latest state.
				if slices.Contains(listedMoves(textOf(r)), mv) {
					t.Fatalf("%s: refused %q yet lists it: %s", game, mv, textOf(r))
				}
				st.recovered++
				break
			}
			cur, plan, played = next, nil, append(played, next.Move)
			history = append(history, cur.State)
			st.plies++
			continue
		case step == 10:
			r = call(t, cs, "apply_move", map[string]any{"game": game, "state": cur.State, "action": "5"})
			if !refused("argument", r) || !strings.Contains(textOf(r), "action") || !strings.Contains(textOf(r), "Arguments of apply_move") {
				t.Fatalf("%s: action as a string: %v %s", game, r.IsError, textOf(r))
			}
			st.recovered++
		}
		r, next = apply(cur.State, mv)
		if r.IsError {
			t.Fatalf("%s ply %d: planned move %q refused: %s", game, step, mv, textOf(r))
		}
		if next.Move == "" || next.State == "" || next.State == cur.State {
			t.Fatalf("%s: apply_move %q answered %+v", game, mv, next)
		}
		if !next.Finished && next.LegalMovesTotal == 0 {
			t.Fatalf("%s: a game going on with no next moves: %s", game, textOf(r))
		}
		cur, plan, played = next, plan[1:], append(played, next.Move)
		history = append(history, cur.State)
		st.plies++
	}
	// Played on after the end: refused as finished; the agent asks score.
	r, _ := apply(cur.State, played[len(played)-1])
	if !refused("finished", r) || !strings.Contains(textOf(r), "finished") || !strings.Contains(textOf(r), "score") {
		t.Fatalf("%s: a move on a finished game: %v %s", game, r.IsError, textOf(r))
	}
	sc := call(t, cs, "score", map[string]any{"game": game, "state": cur.State})
	var s struct {
		Finished bool  `json:"finished"`
		Winner   *int  `json:"winner"`
		Points   []int `json:"points"`
	}
	structured(t, sc, &s)
	if sc.IsError || !s.Finished || len(s.Points) == 0 {
		t.Fatalf("%s: score of the end: %s", game, textOf(sc))
	}
	if (s.Winner == nil) != (cur.Winner == nil) || (s.Winner != nil && *s.Winner != *cur.Winner) {
		t.Fatalf("%s: score's winner %v, apply_move's %v", game, s.Winner, cur.Winner)
	}
	st.recovered++
	st.final = cur
	return st
}

// checkAgent plays every game with the agent and checks that every kind of
// mistake was made and recovered from.
func checkAgent(t *testing.T, cs *sdkmcp.ClientSession) {
	t.Helper()
	for _, game := range []string{"abalone", "backgammon", "gravity_trap", "labyrinth"} {
		t.Run(game, func(t *testing.T) {
			st := playAgent(t, cs, game, nil)
			for _, kind := range []string{"notation", "action", "argument", "finished"} {
				if st.mistakes[kind] == 0 {
					t.Errorf("no %s mistake was refused: %v", kind, st.mistakes)
				}
			}
			if st.mistakes["illegal"]+st.mistakes["stale"] == 0 {
				t.Errorf("neither the illegal nor the stale move was refused: %v", st.mistakes)
			}
			if !st.final.Finished || st.plies < 5 {
				t.Errorf("finished %v after %d plies", st.final.Finished, st.plies)
			}
			winner := "none"
			if st.final.Winner != nil {
				winner = fmt.Sprint(*st.final.Winner)
			}
			t.Logf("%s: %d plies, %d refusals %v, winner %s, points %v", game, st.plies, st.refused, st.mistakes, winner, st.final.Points)
		})
	}
}
