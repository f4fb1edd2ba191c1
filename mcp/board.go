package mcp

import (
	"context"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// textBoard is the text board of a game's state seen from side (nil: the
// game's default), as the API's RenderState draws it with format
// RENDER_FORMAT_TEXT, or "" when there is none (a game without a text
// board, a state the service refuses). A side the board has not (observe's
// view of a non-player) falls back to the default side.
func (t *tools) textBoard(ctx context.Context, game, state string, side *int) string {
	format := gamerulesv1.RenderFormat_RENDER_FORMAT_TEXT
	req := &gamerulesv1.RenderStateRequest{Game: game, State: &gamerulesv1.GameState{Text: state}, Format: &format}
	if side != nil {
		s := int32(*side)
		req.Side = &s
	}
	body, err := t.api.RenderState(ctx, req)
	if err != nil && side != nil {
		req.Side = nil
		body, err = t.api.RenderState(ctx, req)
	}
	if err != nil {
		return ""
	}
	return string(body.GetData())
}
