package service

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/genproto/googleapis/api/httpbody"
	"google.golang.org/genproto/googleapis/rpc/code"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/render"
)

// SVGContentType is the content type of RenderState's answer.
const SVGContentType = "image/svg+xml"

// RenderState draws the request's state as an SVG image (package render).
// The state is decoded and validated as for the other RPCs (a Labyrinth
// per-player view is also accepted); a bad size, side or highlight is
// INVALID_REQUEST on its field. Marks (RenderStateRequest.Mark.Style
// numbers are render.MarkStyle's) are drawn by package render.
func (s *Server) RenderState(_ context.Context, req *gamerulesv1.RenderStateRequest) (*httpbody.HttpBody, error) {
	pos, err := s.decodeView(req.GetGame(), req.GetState())
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
		HasPartial:      req.PartialPlay != nil,
		Partial:         req.GetPartialPlay(),
	}
	for _, m := range req.GetMarks() {
		opts.Marks = append(opts.Marks, render.Mark{At: m.GetAt(), Style: render.MarkStyle(m.GetStyle())})
	}
	r, ok := pos.(renderer)
	if !ok {
		// A game registered without pictures: the API's answer for a
		// method a game does not have, not an internal error.
		return nil, Errorf(code.Code_UNIMPLEMENTED, "game %q has no pictures (RenderState)", req.GetGame())
	}
	svg, err := r.Render(opts)
	if err != nil {
		var oe *render.OptionError
		if errors.As(err, &oe) {
			return nil, toStatus(oe.Field, fmt.Errorf("%w: %s", errInvalidRequest, oe.Reason))
		}
		return nil, toStatus("state", err)
	}
	return &httpbody.HttpBody{ContentType: SVGContentType, Data: svg}, nil
}

// decodeView decodes a state as decode does, except that for a game whose
// Engine is a viewDecoder a per-player view (hidden cards), which Validate
// refuses, is accepted: it can be drawn, though not played.
func (s *Server) decodeView(id string, st *gamerulesv1.GameState) (Position, error) {
	pos, err := s.decode(id, st)
	if err == nil {
		return pos, nil
	}
	vd, ok := s.engines[id].(viewDecoder)
	if !ok {
		return nil, err
	}
	c := oneofCase(st, "state")
	if c != "" && c != id {
		return nil, err
	}
	v, ok := vd.DecodeView(st)
	if !ok {
		return nil, err // the first answer says what is wrong
	}
	return v, nil
}
