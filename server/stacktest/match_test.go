package stacktest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestBackgammonMatchOverREST plays a whole 5-point match over REST with the
// cube (issue 12): doubles, takes and drops, a Crawford game in which no
// double is offered or accepted, post-Crawford play, and "next game" between
// games, with every Score checked against the scores in the states.
func TestBackgammonMatchOverREST(t *testing.T) {
	a := startServer(t)
	call := func(path string, body any) (int, map[string]any) {
		t.Helper()
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		return post(t, a.HTTP, "/v1/games/backgammon:"+path, string(raw))
	}
	ok := func(path string, body any) map[string]any {
		t.Helper()
		code, out := call(path, body)
		if code != 200 {
			t.Fatalf("%s %v = %d %v", path, body, code, out)
		}
		return out
	}
	state := func(text string) map[string]any { return map[string]any{"text": text} }
	moves := func(text string) []string {
		out := ok("legalMoves", map[string]any{"state": state(text)})
		var names []string
		for _, m := range out["moves"].([]any) {
			names = append(names, m.(map[string]any)["notation"].(string))
		}
		return names
	}
	apply := func(text, move string, seed int) map[string]any {
		return ok("applyMove", map[string]any{"state": state(text), "move": map[string]any{"notation": move}, "seed": fmt.Sprint(seed)})
	}
	has := func(list []string, m string) bool {
		for _, x := range list {
			if x == m {
				return true
			}
		}
		return false
	}
	num := func(v any) int {
		if v == nil {
			return 0
		}
		f, _ := v.(float64)
		return int(f)
	}

	st := ok("new", map[string]any{"backgammon": map[string]any{"matchLength": 5}})["state"].(map[string]any)
	text := st["text"].(string)
	seed := 1
	score := [2]int{}
	seen := map[string]int{}
	for game := 1; ; game++ {
		if game > 30 {
			t.Fatal("the match did not end in 30 games")
		}
		doubled := false
		for ply := 0; ; ply++ {
			if ply > 2000 {
				t.Fatalf("game %d did not end", game)
			}
			out := ok("score", map[string]any{"state": state(text)})
			if out["finished"] == true {
				break
			}
			typed := ok("observe", map[string]any{"state": state(text)})["state"].(map[string]any)["backgammon"].(map[string]any)
			phase := typed["phase"].(string)
			list := moves(text)
			crawford := typed["match"].(map[string]any)["crawford"] == true
			switch phase {
			case "BACKGAMMON_PHASE_OPENING", "BACKGAMMON_PHASE_ROLL":
				if crawford {
					seen["crawford turns"]++
					if has(list, "double") {
						t.Fatalf("game %d: double listed in the Crawford game: %s", game, text)
					}
					if code, _ := call("applyMove", map[string]any{"state": state(text), "move": map[string]any{"notation": "double"}}); code != 400 {
						t.Fatalf("game %d: double in the Crawford game answered %d", game, code)
					}
				}
				if has(list, "double") && !doubled {
					doubled = true
					text = apply(text, "double", 0)["state"].(map[string]any)["text"].(string)
					seen["double"]++
					continue
				}
				seed++
				text = apply(text, "roll", seed)["state"].(map[string]any)["text"].(string)
			case "BACKGAMMON_PHASE_DOUBLE":
				answer := "take"
				if game%2 == 1 && score[0] < 3 {
					answer = "drop"
				}
				seen[answer]++
				text = apply(text, answer, 0)["state"].(map[string]any)["text"].(string)
			case "BACKGAMMON_PHASE_MOVE":
				text = apply(text, list[0], 0)["state"].(map[string]any)["text"].(string)
			default:
				t.Fatalf("game %d: phase %s in %s", game, phase, text)
			}
		}
		sc := ok("score", map[string]any{"state": state(text)})
		bg := sc["backgammon"].(map[string]any)
		match := bg["match"].(map[string]any)
		w := num(sc["winner"])
		pts := num(sc["points"].([]any)[w])
		score[w] += pts
		if num(bg["whiteScore"]) != score[0] || num(bg["blackScore"]) != score[1] || num(match["length"]) != 5 {
			t.Fatalf("game %d: Score %v; want %v after %d points to player %d", game, sc, score, pts, w)
		}
		t.Logf("game %d: player %d wins %d (%v, cube %v): %d-%d", game, w, pts, sc["detail"], bg["cubeValue"], score[0], score[1])
		if match["over"] == true {
			if score[w] < 5 || num(match["winner"]) != w {
				t.Fatalf("match over at %v, winner %v", score, match["winner"])
			}
			if code, out := call("applyMove", map[string]any{"state": state(text), "move": map[string]any{"notation": "next game"}}); code != 400 || !strings.Contains(fmt.Sprint(out), "GAME_OVER") {
				t.Fatalf("next game after the match: %d %v", code, out)
			}
			break
		}
		if score[0] >= 5 || score[1] >= 5 {
			t.Fatalf("score %v but the match is not over", score)
		}
		if match["postCrawford"] == true {
			seen["post-Crawford games"]++
		}
		if !has(moves(text), "next game") {
			t.Fatalf("game %d: no next game in %s", game, text)
		}
		text = apply(text, "next game", 0)["state"].(map[string]any)["text"].(string)
	}
	t.Logf("seen %v", seen)
	for _, k := range []string{"double", "take", "drop", "crawford turns"} {
		if seen[k] == 0 {
			t.Errorf("the match had no %s (%v): change the seeds", k, seen)
		}
	}
}
