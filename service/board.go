package service

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// GetBoard returns a built-in board as data, for the games with named
// boards (their Engine is a boardProvider: Gravity Trap, whose board is its
// name, its stations with their coordinates, lines and opposite map, the
// board file the rules ship). Other games have no named boards:
// INVALID_REQUEST on game; a missing or unknown name is INVALID_REQUEST on
// name.
func (s *Server) GetBoard(_ context.Context, req *gamerulesv1.GetBoardRequest) (*gamerulesv1.GetBoardResponse, error) {
	eng, err := s.engine(req.GetGame())
	if err != nil {
		return nil, err
	}
	bp, ok := eng.(boardProvider)
	if !ok {
		return nil, toStatus("game", fmt.Errorf("%w: %s has no named boards%s", errInvalidRequest, game.Quote(req.GetGame()), s.gamesWithBoards()))
	}
	resp, err := bp.Board(req.GetName())
	if err != nil {
		return nil, toStatus("name", err)
	}
	return resp, nil
}

// gamesWithBoards says which games have named boards, for GetBoard's
// error: "; only gravity_trap has (default, rings)", by game id ("" when no
// game has any).
func (s *Server) gamesWithBoards() string {
	var parts []string
	for _, id := range slices.Sorted(maps.Keys(s.engines)) {
		if bp, ok := s.engines[id].(boardProvider); ok {
			parts = append(parts, id+" has ("+strings.Join(bp.BoardNames(), ", ")+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; only " + strings.Join(parts, " and ")
}
