package mcp

import (
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gamerules/gamerules/docs"
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/service"
)

// rulesURI is the URI of a game's rules resource.
func rulesURI(game string) string { return "gamerules://rules/" + game }

// rulesFile is the file of docs.Rules holding a game's rules: the id
// without underscores.
func rulesFile(game string) string {
	return "rules/" + strings.ReplaceAll(game, "_", "") + ".md"
}

// addResources registers each served game's rules specification
// (docs/rules/<game>.md, embedded) as a text/markdown resource.
func addResources(srv *sdkmcp.Server, svc *service.Server) {
	games, _ := svc.ListGames(context.Background(), &gamerulesv1.ListGamesRequest{})
	for _, g := range games.GetGames() {
		id := g.GetId()
		body, err := fs.ReadFile(docs.Rules, rulesFile(id))
		if err != nil {
			continue // a game without a specification file: no resource
		}
		uri := rulesURI(id)
		srv.AddResource(&sdkmcp.Resource{
			URI: uri, Name: id + "-rules", Title: g.GetDisplayName() + " rules", MIMEType: "text/markdown", Size: int64(len(body)),
			Description: "The rules of " + g.GetDisplayName() + " as this server implements them: the board, the moves and their notation, the end and the scoring.",
		}, func(context.Context, *sdkmcp.ReadResourceRequest) (*sdkmcp.ReadResourceResult, error) {
			return &sdkmcp.ReadResourceResult{Contents: []*sdkmcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: string(body)}}}, nil
		})
	}
}

// addPrompts registers play_game, which sets a model up to play one side
// of a game through the tools.
func addPrompts(srv *sdkmcp.Server, svc *service.Server) {
	srv.AddPrompt(&sdkmcp.Prompt{
		Name:        "play_game",
		Title:       "Play a game as one side",
		Description: "Sets you up to play one side of a game through the gamerules tools: how to start, read the board, choose and play moves, recover from a refused move and end.",
		Arguments: []*sdkmcp.PromptArgument{
			{Name: "game", Description: "the game id: " + strings.Join(svc.Games(), ", "), Required: true},
			{Name: "player", Description: "the side you play: the 0-based player index (0 moves first in most games)", Required: true},
		},
	}, func(_ context.Context, req *sdkmcp.GetPromptRequest) (*sdkmcp.GetPromptResult, error) {
		game, player := req.Params.Arguments["game"], req.Params.Arguments["player"]
		if !isGame(svc, game) {
			return nil, fmt.Errorf("game: %q is not a game; one of %s", game, strings.Join(svc.Games(), ", "))
		}
		if _, err := strconv.Atoi(player); err != nil {
			return nil, fmt.Errorf("player: %q is not a player index; want 0, 1, …", player)
		}
		msgs := []*sdkmcp.PromptMessage{{Role: "user", Content: &sdkmcp.TextContent{Text: playPrompt(game, player)}}}
		if body, err := fs.ReadFile(docs.Rules, rulesFile(game)); err == nil {
			msgs = append(msgs, &sdkmcp.PromptMessage{Role: "user", Content: &sdkmcp.EmbeddedResource{Resource: &sdkmcp.ResourceContents{
				URI: rulesURI(game), MIMEType: "text/markdown", Text: string(body),
			}}})
		}
		return &sdkmcp.GetPromptResult{Description: "Play " + game + " as player " + player, Messages: msgs}, nil
	})
}

// playPrompt is play_game's instructions.
func playPrompt(game, player string) string {
	return fmt.Sprintf(`You are playing %[1]s as player %[2]s (0-based) against an opponent, through the gamerules tools. The rules are attached (resource %[3]s).

How to play:
1. Call new_game with game %[1]q (unless you were given a state). Keep the state string it answers: every call takes it as state, unchanged, and every apply_move answers the next one. The server remembers nothing else.
2. On your turn, read the board and the legal moves in the last answer (legal_moves lists more). Choose one of the listed moves: never invent one. Play it with apply_move (move: its notation exactly as listed, or action: its id). In backgammon, when the legal moves are dice rolls (chance), apply the move "roll" first.
3. When it is the opponent's turn, you will be told their move: play it with apply_move on the current state too, so that the state stays the game's.
4. If a call answers an error, read it: it says what was wrong and lists the legal moves nearest to what you wrote. Pick one of those and call again with the same state. If the error says the game is finished, call score.
5. The game ends when an answer has finished: true. Call score and report the winner and the points.

Play to win: think about each move before you play it; playout (games 100, policy greedy, from the state after a candidate move) estimates how good a position is.`, game, player, rulesURI(game))
}
