package service

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/genproto/googleapis/api/httpbody"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// SVGContentType is the content type of RenderState's answer.
const SVGContentType = "image/svg+xml"

// RenderState draws the request's state as an SVG image (package render).
// The state is decoded and validated as for the other RPCs (a Labyrinth
// per-player view is also accepted); a bad size, side or highlight is
// INVALID_REQUEST on its field.
func (s *Server) RenderState(_ context.Context, req *gamerulesv1.RenderStateRequest) (*httpbody.HttpBody, error) {
	var pos Position
	var err error
	if req.GetGame() == "labyrinth" {
		pos, err = s.decodeLabyrinthView(req.GetState())
	} else {
		pos, err = s.decode(req.GetGame(), req.GetState())
	}
	if err != nil {
		return nil, err
	}
	opts := render.Options{
		Size:            int(req.GetSize()),
		HideCoordinates: req.GetHideCoordinates(),
		HasSide:         req.Side != nil,
		Side:            int(req.GetSide()),
		From:            req.GetHighlightFrom(),
		To:              req.GetHighlightTo(),
	}
	var svg []byte
	switch p := pos.(type) {
	case backgammonPos:
		svg, err = render.Backgammon(p.s, opts)
	case abalonePos:
		svg, err = render.Abalone(p.s, opts)
	case labyrinthPos:
		svg, err = render.Labyrinth(p.s, opts)
	case gravityTrapPos:
		svg, err = render.GravityTrap(p.s, opts)
	default:
		err = fmt.Errorf("render: no renderer for game %q", req.GetGame())
	}
	if err != nil {
		var oe *render.OptionError
		if errors.As(err, &oe) {
			return nil, toStatus(oe.Field, fmt.Errorf("%w: %s", errInvalidRequest, oe.Reason))
		}
		return nil, toStatus("state", err)
	}
	return &httpbody.HttpBody{ContentType: SVGContentType, Data: svg}, nil
}

// decodeLabyrinthView decodes a Labyrinth state as decode does, except that
// a per-player view (hidden cards), which Validate refuses, is accepted: it
// can be drawn, though not played.
func (s *Server) decodeLabyrinthView(st *gamerulesv1.GameState) (Position, error) {
	pos, err := s.decode("labyrinth", st)
	if err == nil {
		return pos, nil
	}
	c := oneofCase(st, "state")
	if c != "" && c != "labyrinth" {
		return nil, err
	}
	typed := st.GetLabyrinth()
	v, verr := decodeState(st, typed != nil, labyrinth.ParseState,
		func() (labyrinth.State, error) { return labyrinthStateFromProto(typed) })
	if verr != nil || !v.IsView() {
		return nil, err // the first answer says what is wrong
	}
	return labyrinthPos{v}, nil
}
