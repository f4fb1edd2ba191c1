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

// TextContentType is the content type of RenderState's answer with
// RENDER_FORMAT_TEXT.
const TextContentType = "text/plain; charset=utf-8"

// RenderState draws the request's state as an SVG image (package render),
// or with format RENDER_FORMAT_TEXT writes it as plain text (render's
// <Game>Text functions, through each game's textRenderer); format given
// as UNSPECIFIED or an unknown value is INVALID_REQUEST on "format".
// The state is decoded and validated as for the other RPCs (a Labyrinth
// per-player view is also accepted); a bad size, side or highlight is
// INVALID_REQUEST on its field. Marks (RenderStateRequest.Mark.Style
// numbers are render.MarkStyle's) are drawn by package render.
//
// A drawing's work and size are bounded by the game: the largest, a
// custom Gravity Trap board of MaxStations stations and MaxLines lines,
// draws in 30–45 ms on a quiet core into about 520 KB (docs/performance.md); ctx is
// looked at before and after it, so a call past its deadline answers
// DEADLINE_EXCEEDED rather than a picture nobody waits for.
func (s *Server) RenderState(ctx context.Context, req *gamerulesv1.RenderStateRequest) (*httpbody.HttpBody, error) {
	if err := ctx.Err(); err != nil {
		return nil, toStatus("state", err)
	}
	asText := false
	if req.Format != nil {
		switch req.GetFormat() {
		case gamerulesv1.RenderFormat_RENDER_FORMAT_SVG:
		case gamerulesv1.RenderFormat_RENDER_FORMAT_TEXT:
			asText = true
		default:
			what := fmt.Sprintf("%d is not a known format", req.GetFormat().Number())
			if req.GetFormat() == gamerulesv1.RenderFormat_RENDER_FORMAT_UNSPECIFIED {
				what = "RENDER_FORMAT_UNSPECIFIED is not a format"
			}
			return nil, toStatus("format", fmt.Errorf("%w: %s; want RENDER_FORMAT_SVG or RENDER_FORMAT_TEXT, or leave format out for SVG", errInvalidRequest, what))
		}
	}
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
	if asText {
		return renderText(ctx, req.GetGame(), pos, opts)
	}
	r, ok := pos.(renderer)
	if !ok {
		// A game registered without pictures: the API's answer for a
		// method a game does not have, not an internal error.
		return nil, Errorf(code.Code_UNIMPLEMENTED, "game %q has no pictures (RenderState)", req.GetGame())
	}
	if err := ctx.Err(); err != nil {
		return nil, toStatus("state", err)
	}
	svg, err := r.Render(opts)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, renderError(err)
	}
	return &httpbody.HttpBody{ContentType: SVGContentType, Data: svg}, nil
}

// renderText is RenderState for RENDER_FORMAT_TEXT: pos's textRenderer
// with opts.
func renderText(ctx context.Context, id string, pos Position, opts render.Options) (*httpbody.HttpBody, error) {
	r, ok := pos.(textRenderer)
	if !ok {
		return nil, Errorf(code.Code_UNIMPLEMENTED, "game %q has no text board (RenderState, RENDER_FORMAT_TEXT)", id)
	}
	text, err := r.RenderText(opts)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, renderError(err)
	}
	return &httpbody.HttpBody{ContentType: TextContentType, Data: []byte(text)}, nil
}

// renderError is the status of a drawing's error: a bad option
// (*render.OptionError) INVALID_REQUEST on its field, anything else on
// "state".
func renderError(err error) error {
	var oe *render.OptionError
	if errors.As(err, &oe) {
		return toStatus(oe.Field, fmt.Errorf("%w: %s", errInvalidRequest, oe.Reason))
	}
	return toStatus("state", err)
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
