package service

import (
	"context"
	"fmt"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/gravitytrap"
)

// GetBoard returns a built-in Gravity Trap board as data: its name, its
// stations with their coordinates, lines and opposite map (the board file
// the rules ship). Other games have no named boards: INVALID_REQUEST on
// game; an unknown name is INVALID_REQUEST on name.
func (s *Server) GetBoard(_ context.Context, req *gamerulesv1.GetBoardRequest) (*gamerulesv1.GetBoardResponse, error) {
	if _, err := s.engine(req.GetGame()); err != nil {
		return nil, err
	}
	if req.GetGame() != "gravity_trap" {
		return nil, toStatus("game", fmt.Errorf("%w: %s has no named boards; only gravity_trap has (default, rings)", errInvalidRequest, game.Quote(req.GetGame())))
	}
	if req.GetName() == "" {
		return nil, toStatus("name", fmt.Errorf("%w: name is required: default or rings", errInvalidRequest))
	}
	b, err := gravitytrap.BuiltinBoard(req.GetName())
	if err != nil {
		return nil, toStatus("name", fmt.Errorf("%w: board %s is not built in; the boards are default and rings", errInvalidRequest, game.Quote(req.GetName())))
	}
	def := b.Def()
	pb := &gamerulesv1.GravityTrapBoard{Name: b.Name(), Opposite: intsToUint32s(def.Opposite)}
	for _, st := range def.Stations {
		pb.Stations = append(pb.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(st.ID), X: st.X, Y: st.Y})
	}
	for _, l := range def.Lines {
		pb.Lines = append(pb.Lines, &gamerulesv1.GravityTrapLine{Stations: intsToUint32s(l)})
	}
	return &gamerulesv1.GetBoardResponse{Board: &gamerulesv1.GetBoardResponse_GravityTrap{GravityTrap: pb}, Note: b.Note()}, nil
}
