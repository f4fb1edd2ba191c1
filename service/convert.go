package service

import (
	"context"
	"fmt"
	"slices"
	"strings"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// canonicalOnly is the forms of a game without a stateConverter.
var canonicalOnly = []gamerulesv1.StateFormat{gamerulesv1.StateFormat_STATE_FORMAT_CANONICAL}

// ConvertState writes the request's state in the text forms asked for
// (every form of the game when none is): the canonical text for every
// game, and the forms of a game's stateConverter (backgammon: XGID and
// the FIBS board). A form the game does not have, or UNSPECIFIED, is
// INVALID_REQUEST on formats[i]; a form asked twice is answered once.
// The state is decoded as for the other RPCs, so it may be given in any
// form the game reads.
func (s *Server) ConvertState(ctx context.Context, req *gamerulesv1.ConvertStateRequest) (*gamerulesv1.ConvertStateResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, toStatus("state", err)
	}
	pos, err := s.decode(req.GetGame(), req.GetState())
	if err != nil {
		return nil, err
	}
	conv, _ := s.engines[req.GetGame()].(stateConverter)
	have := canonicalOnly
	if conv != nil {
		have = conv.StateFormats()
	}
	want := req.GetFormats()
	if len(want) == 0 {
		want = have
	}
	resp := &gamerulesv1.ConvertStateResponse{Forms: make([]*gamerulesv1.ConvertStateResponse_Form, 0, len(want))}
	var canonical *gamerulesv1.GameState
	for i, f := range want {
		if !slices.Contains(have, f) {
			names := make([]string, len(have))
			for j, h := range have {
				names[j] = h.String()
			}
			what := fmt.Sprintf("%s is not a form of game %q", f, req.GetGame())
			if f == gamerulesv1.StateFormat_STATE_FORMAT_UNSPECIFIED {
				what = "STATE_FORMAT_UNSPECIFIED is not a form"
			} else if f.Descriptor().Values().ByNumber(f.Number()) == nil {
				what = fmt.Sprintf("%d is not a known form", f.Number())
			}
			return nil, toStatus(fmt.Sprintf("formats[%d]", i), fmt.Errorf("%w: %s; the game's forms are %s",
				errInvalidRequest, what, strings.Join(names, ", ")))
		}
		if slices.Contains(want[:i], f) {
			continue
		}
		form := &gamerulesv1.ConvertStateResponse_Form{Format: f}
		switch {
		case conv != nil:
			form.Text, form.Lossless = conv.ConvertState(pos, f)
		default:
			if canonical == nil {
				canonical = pos.Encode()
			}
			form.Text, form.Lossless = canonical.GetText(), true
			// A state whose text does not carry its whole game (a Gravity
			// Trap custom board) is recorded with its options instead.
			if or, ok := s.engines[req.GetGame()].(optionsRecorder); ok && or.RecordsOptions(canonical) {
				form.Lossless = false
			}
		}
		resp.Forms = append(resp.Forms, form)
	}
	return resp, nil
}
