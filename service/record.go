package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/abalone/apgn"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/backgammon/mat"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/record"
)

// recordFormat checks a record format name for a game: "json" (or empty,
// for it), and "mat" (gnubg's match text) for backgammon. It returns the
// format's name.
func recordFormat(id, f string) (string, error) {
	switch {
	case f == "" || f == "json":
		return "json", nil
	case f == "mat" && id == "backgammon":
		return "mat", nil
	case f == "apgn" && id == "abalone":
		return "apgn", nil
	}
	return "", toStatus("format", fmt.Errorf("%w: record format %s for %s: the formats are json, mat for backgammon and apgn for abalone", errInvalidRequest, game.Quote(f), id))
}

// recordError is the status of a record that cannot be read: INVALID_REQUEST
// on the field text, with the line and column when known.
func recordError(err error) error {
	var re *record.Error
	meta := map[string]string{}
	if errors.As(err, &re) {
		meta["line"], meta["column"] = strconv.Itoa(re.Line), strconv.Itoa(re.Column)
	}
	return toStatusMeta("text", fmt.Errorf("%w: %v", errInvalidRequest, err), meta)
}

// importMat reads a gnubg .mat match or money session into a replay: the
// match's options and first game's score, its moves (what the format
// leaves out restored, see mat.Match.Replay), and the players' names as
// the tags "white" and "black". The Jacoby rule: on, as gnubg's import
// assumes, unless the record's tag or points say off (the request has no
// option for it). The moves are those of the game the engine plays as one
// (mat.Match.LastGame: a whole match; a money session's last game, from
// the running score its header gives, tagged session_games); every game
// was checked by the record's replay, whose states answer the replay
// (the moveApplier: see matReplayed).
func importMat(text string, includeStates bool) (*gamerulesv1.ReplayGameRequest, map[string]string, moveApplier, error) {
	m, err := mat.Read([]byte(text))
	if err != nil {
		return nil, nil, nil, recordError(err)
	}
	moves, err := m.Replay()
	var me *mat.MoveError
	if errors.As(err, &me) {
		return nil, nil, nil, toStatusMeta("moves["+strconv.Itoa(me.Index)+"]", me.Err, map[string]string{"moveIndex": strconv.Itoa(me.Index),
			"stateBefore": me.Before, "line": strconv.Itoa(me.Line), "column": strconv.Itoa(me.Column)})
	}
	if err != nil {
		return nil, nil, nil, recordError(err)
	}
	start, moves, err := m.LastGame(moves)
	if err != nil {
		return nil, nil, nil, recordError(err)
	}
	// The options after Replay, which settles what the format leaves out
	// (the Jacoby rule from the points, beavers, a match-point start's
	// Crawford game).
	o := m.Options()
	tags := map[string]string{"white": m.Players[0], "black": m.Players[1]}
	if m.Length == 0 && len(m.Games) > 1 {
		// A money session: a money game is one game for the API (spec: a
		// finished game has no legal moves outside a match).
		o.Score = m.Games[len(m.Games)-1].Score
		tags["session_games"] = strconv.Itoa(len(m.Games))
	}
	bo := &gamerulesv1.BackgammonOptions{Cube: o.MatchLength == 0, MatchLength: uint32(o.MatchLength),
		WhiteScore: uint32(o.Score[0]), BlackScore: uint32(o.Score[1]), Crawford: o.Crawford, Beavers: o.Beavers}
	if o.MatchLength == 0 && o.NoJacoby {
		bo.Jacoby = proto.Bool(false)
	}
	replay := &gamerulesv1.ReplayGameRequest{Game: "backgammon", IncludeStates: includeStates,
		Options: &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: bo}, Moves: make([]string, 0, len(moves))}
	for _, mv := range moves {
		replay.Moves = append(replay.Moves, mv.Notation)
	}
	return replay, tags, matReplayed(start, moves, applyNotation), nil
}

// matReplayed is the moveApplier of a .mat import: move i of its replay
// request is answered from the record's replay (start, then moves) instead
// of being applied again, so that an import plays its moves once. The
// record's replay applied the same notation to the same state with the
// same function (backgammon.State.ApplyText, which ReplayGame's
// applyNotation ends in), so the answer (the state after, the canonical
// notation, no dice drawn) is the one applying it again gives; and
// refuseNotation, which applyNotation asks first, passes (the notation is
// not empty, and ApplyText applies nothing to a finished game but a
// match's "next game", which refuseNotation lets through too). Where pos
// is not the state the record's replay was at (not met: ReplayGame starts
// from the options importMat gives, which New makes into the same state),
// the move is applied by otherwise.
func matReplayed(start backgammon.State, moves []mat.Move, otherwise moveApplier) moveApplier {
	return func(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error) {
		if p, ok := pos.(backgammonPos); ok && i < len(moves) && moves[i].Notation == notation {
			before := start
			if i > 0 {
				before = moves[i-1].After
			}
			if p.s == before {
				return backgammonPos{moves[i].After}, moves[i].Played.String(), false, nil
			}
		}
		return otherwise(pos, i, notation, rng)
	}
}

// matRecorder keeps the typed moves and states of an export's replay, for
// mat.WriteReplay to write without applying them again.
type matRecorder struct{ moves []mat.Move }

// apply is applyNotation for a backgammon position, keeping the move.
func (r *matRecorder) apply(pos Position, i int, notation string, rng *rand.Rand) (Position, string, bool, error) {
	p, ok := pos.(backgammonPos)
	if !ok {
		return applyNotation(pos, i, notation, rng) // not met: mat is a backgammon format
	}
	if err := refuseNotation(pos, notation); err != nil {
		return nil, "", false, err
	}
	next, m, drew, err := p.applyText(notation, rng)
	if err != nil {
		return nil, "", false, err
	}
	r.moves = append(r.moves, mat.Move{Played: m, After: next})
	return backgammonPos{next}, m.String(), drew, nil
}

// ImportRecord reads a record and replays it with ReplayGame.
func (s *Server) ImportRecord(ctx context.Context, req *gamerulesv1.ImportRecordRequest) (*gamerulesv1.ImportRecordResponse, error) {
	if _, err := s.engine(req.GetGame()); err != nil {
		return nil, err
	}
	format, err := recordFormat(req.GetGame(), req.GetFormat())
	if err != nil {
		return nil, err
	}
	if importer, ok := map[string]func(string, bool) (*gamerulesv1.ReplayGameRequest, map[string]string, moveApplier, error){
		"mat": importMat, "apgn": importAPGN,
	}[format]; ok {
		replay, tags, apply, err := importer(req.GetText(), req.GetIncludeStates())
		if err != nil {
			return nil, err
		}
		result, err := s.replayGame(ctx, replay, apply)
		if err != nil {
			return nil, err
		}
		return &gamerulesv1.ImportRecordResponse{Replay: replay, Result: result, Tags: tags}, nil
	}
	rec, err := record.Parse([]byte(req.GetText()))
	if err != nil {
		return nil, recordError(err)
	}
	if rec.Game != req.GetGame() {
		return nil, toStatus("text", fmt.Errorf("%w: the record is of game %s, not %q", errInvalidRequest, game.Quote(rec.Game), req.GetGame()))
	}
	replay := &gamerulesv1.ReplayGameRequest{Game: rec.Game, Moves: rec.Moves, IncludeStates: req.GetIncludeStates()}
	if rec.Start != "" {
		replay.State = &gamerulesv1.GameState{Text: rec.Start}
	}
	if rec.Seed != "" {
		seed, _ := strconv.ParseUint(rec.Seed, 10, 64) // record.Parse checked it
		replay.Seed = &seed
	}
	if len(rec.Options) > 0 {
		if err := setReplayOptions(replay, rec.Options); err != nil {
			return nil, toStatus("text", fmt.Errorf("%w: record options: %v", game.ErrInvalidOptions, err))
		}
	}
	result, err := s.ReplayGame(ctx, replay)
	if err != nil {
		return nil, err
	}
	return &gamerulesv1.ImportRecordResponse{Replay: replay, Result: result, Tags: rec.Tags}, nil
}

// setReplayOptions reads a record's options (the API's JSON of the game's
// options message) into the replay.
func setReplayOptions(r *gamerulesv1.ReplayGameRequest, raw json.RawMessage) error {
	var m proto.Message
	switch r.GetGame() {
	case "backgammon":
		o := &gamerulesv1.BackgammonOptions{}
		r.Options, m = &gamerulesv1.ReplayGameRequest_Backgammon{Backgammon: o}, o
	case "abalone":
		o := &gamerulesv1.AbaloneOptions{}
		r.Options, m = &gamerulesv1.ReplayGameRequest_Abalone{Abalone: o}, o
	case "labyrinth":
		o := &gamerulesv1.LabyrinthOptions{}
		r.Options, m = &gamerulesv1.ReplayGameRequest_Labyrinth{Labyrinth: o}, o
	case "gravity_trap":
		o := &gamerulesv1.GravityTrapOptions{}
		r.Options, m = &gamerulesv1.ReplayGameRequest_GravityTrap{GravityTrap: o}, o
	default:
		return fmt.Errorf("game %q has no options", r.GetGame())
	}
	return protojson.Unmarshal(raw, m)
}

// replayOptions is the JSON of a replay's options, nil when it has none.
func replayOptions(r *gamerulesv1.ReplayGameRequest) (json.RawMessage, error) {
	var m proto.Message
	switch o := r.GetOptions().(type) {
	case *gamerulesv1.ReplayGameRequest_Backgammon:
		m = o.Backgammon
	case *gamerulesv1.ReplayGameRequest_Abalone:
		m = o.Abalone
	case *gamerulesv1.ReplayGameRequest_Labyrinth:
		m = o.Labyrinth
	case *gamerulesv1.ReplayGameRequest_GravityTrap:
		m = o.GravityTrap
	default:
		return nil, nil
	}
	return protojson.Marshal(m)
}

// ExportRecord replays the request's game and writes it as a record.
func (s *Server) ExportRecord(ctx context.Context, req *gamerulesv1.ExportRecordRequest) (*gamerulesv1.ExportRecordResponse, error) {
	if _, err := s.engine(req.GetGame()); err != nil {
		return nil, err
	}
	format, err := recordFormat(req.GetGame(), req.GetFormat())
	if err != nil {
		return nil, err
	}
	if req.GetReplay() == nil {
		return nil, toStatus("replay", fmt.Errorf("%w: replay is required", errInvalidRequest))
	}
	replay := proto.Clone(req.GetReplay()).(*gamerulesv1.ReplayGameRequest)
	if g := replay.GetGame(); g != "" && g != req.GetGame() {
		return nil, toStatus("replay.game", fmt.Errorf("%w: replay is of game %s, not %q", errInvalidRequest, game.Quote(g), req.GetGame()))
	}
	replay.Game, replay.IncludeStates = req.GetGame(), false
	apply := moveApplier(applyNotation)
	var kept matRecorder
	if format == "mat" {
		// One pass: the replay keeps its typed moves and states, which
		// the .mat is written from.
		kept.moves = make([]mat.Move, 0, min(len(replay.GetMoves()), MaxReplayMoves))
		apply = kept.apply
	}
	resp, err := s.replayGame(ctx, replay, apply)
	if err != nil {
		return nil, err
	}
	if format == "mat" {
		start, err := backgammon.ParseState(resp.GetStart().GetText())
		if err != nil {
			return nil, toStatus("replay", err)
		}
		text, err := mat.WriteReplay(start, kept.moves, [2]string{req.GetTags()["white"], req.GetTags()["black"]})
		if err != nil {
			return nil, toStatus("replay", fmt.Errorf("%w: %v", errInvalidRequest, err))
		}
		return &gamerulesv1.ExportRecordResponse{Text: string(text), Format: "mat"}, nil
	}
	if format == "apgn" {
		return &gamerulesv1.ExportRecordResponse{Text: string(exportAPGN(replay, resp, req.GetTags())), Format: "apgn"}, nil
	}
	rec := record.Record{Game: req.GetGame(), Start: resp.GetStart().GetText(), Moves: resp.GetMoves(), Tags: req.GetTags()}
	if len(resp.GetStart().GetGravityTrap().GetBoard().GetStations()) > 0 {
		// A custom board: the text form does not carry it, the options do.
		if replay.GetState() != nil {
			return nil, toStatus("replay.state", fmt.Errorf("%w: a game on a custom board is written with its options; start the replay from them, not from a state", errInvalidRequest))
		}
		if rec.Options, err = replayOptions(replay); err != nil {
			return nil, toStatus("replay", err)
		}
		rec.Start = ""
		if resp.Seed != nil {
			rec.Seed = strconv.FormatUint(resp.GetSeed(), 10)
		}
	}
	res := &record.Result{Finished: resp.GetFinished(), Detail: resp.GetDetail(), Points: make([]int, 0, len(resp.GetPoints()))}
	for _, p := range resp.GetPoints() {
		res.Points = append(res.Points, int(p))
	}
	if resp.Winner != nil {
		w := int(resp.GetWinner())
		res.Winner = &w
	}
	rec.Result = res
	text, err := record.Format(rec)
	if err != nil {
		return nil, toStatus("replay", err)
	}
	return &gamerulesv1.ExportRecordResponse{Text: string(text), Format: format}, nil
}

// apgnLayouts maps an APGN Variant tag to the Abalone layout option and
// back (the archives write "german" for the German daisy).
var apgnLayouts = map[string]string{"german": "german_daisy", "belgian": "belgian_daisy"}

// importAPGN reads one APGN game into a replay: the Position tag's state,
// or the Variant tag's layout (absent: the default), and the moves; the
// tags come back as tags; the moves are applied as ReplayGame applies them.
func importAPGN(text string, includeStates bool) (*gamerulesv1.ReplayGameRequest, map[string]string, moveApplier, error) {
	games, err := apgn.Read([]byte(text))
	if err != nil {
		return nil, nil, nil, recordError(err)
	}
	if len(games) != 1 {
		return nil, nil, nil, toStatus("text", fmt.Errorf("%w: %d games in the record; import one at a time", errInvalidRequest, len(games)))
	}
	g := games[0]
	replay := &gamerulesv1.ReplayGameRequest{Game: "abalone", Moves: g.Moves, IncludeStates: includeStates}
	if pos := g.Tag("Position"); pos != "" {
		replay.State = &gamerulesv1.GameState{Text: pos}
	} else if v := g.Tag("Variant"); v != "" {
		layout := v
		if l, ok := apgnLayouts[v]; ok {
			layout = l
		}
		replay.Options = &gamerulesv1.ReplayGameRequest_Abalone{Abalone: &gamerulesv1.AbaloneOptions{Layout: layout}}
	}
	tags := map[string]string{}
	for _, t := range g.Tags {
		tags[t.Name] = t.Value
	}
	return replay, tags, applyNotation, nil
}

// exportAPGN writes a replayed Abalone game as APGN: the request's tags
// (sorted), then Variant (the layout, when the game started from options)
// or Position (the start state's text), Result and Notation, then the moves.
func exportAPGN(replay *gamerulesv1.ReplayGameRequest, resp *gamerulesv1.ReplayGameResponse, tags map[string]string) []byte {
	var g apgn.Game
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		switch k {
		case "Variant", "Position", "Result", "Notation":
			continue // written from the game
		}
		g.Tags = append(g.Tags, apgn.Tag{Name: k, Value: tags[k]})
	}
	if replay.GetState() == nil {
		layout := replay.GetAbalone().GetLayout()
		for k, v := range apgnLayouts {
			if v == layout {
				layout = k
			}
		}
		if layout == "" {
			layout = "classic"
		}
		g.Tags = append(g.Tags, apgn.Tag{Name: "Variant", Value: layout})
	} else {
		g.Tags = append(g.Tags, apgn.Tag{Name: "Position", Value: resp.GetStart().GetText()})
	}
	g.Result = "*"
	if resp.GetFinished() && resp.Winner != nil {
		g.Result = []string{"1-0", "0-1"}[resp.GetWinner()]
	}
	g.Tags = append(g.Tags, apgn.Tag{Name: "Result", Value: g.Result}, apgn.Tag{Name: "Notation", Value: "Aba-Pro"})
	g.Moves = resp.GetMoves()
	return apgn.Write(g)
}
