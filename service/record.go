package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/record"
)

// recordFormat checks a record format name for a game: "json" (or empty,
// for it), or one of the game's own formats (its Engine is a
// recordFormatter: "mat", gnubg's match text, for backgammon; "apgn" for
// Abalone). It returns the format's name and, for a game's own format, its
// codec (nil for json). An unknown name is INVALID_REQUEST on format,
// listing every game's formats.
func (s *Server) recordFormat(eng Engine, id, f string) (string, *recordCodec, error) {
	if f == "" || f == "json" {
		return "json", nil, nil
	}
	if rf, ok := eng.(recordFormatter); ok {
		codecs := rf.RecordFormats()
		for i := range codecs {
			if codecs[i].Name == f {
				return f, &codecs[i], nil
			}
		}
	}
	return "", nil, toStatus("format", fmt.Errorf("%w: record format %s for %s: the formats are %s", errInvalidRequest, game.Quote(f), id, s.recordFormatList()))
}

// recordFormatList names every record format for recordFormat's error:
// "json, mat for backgammon and apgn for abalone". The games' own formats
// come by game id in reverse order, the order this message has always had.
func (s *Server) recordFormatList() string {
	list := []string{"json"}
	for _, id := range slices.Backward(slices.Sorted(maps.Keys(s.engines))) {
		if rf, ok := s.engines[id].(recordFormatter); ok {
			for _, c := range rf.RecordFormats() {
				list = append(list, c.Name+" for "+id)
			}
		}
	}
	if len(list) == 1 {
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
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

// ImportRecord reads a record and replays it with ReplayGame. A game's own
// format (recordCodec) replays the record while reading it, and the
// replay's answer comes from that one replay (a .mat's: matReplayed), no
// move applied twice.
func (s *Server) ImportRecord(ctx context.Context, req *gamerulesv1.ImportRecordRequest) (*gamerulesv1.ImportRecordResponse, error) {
	eng, err := s.engine(req.GetGame())
	if err != nil {
		return nil, err
	}
	_, codec, err := s.recordFormat(eng, req.GetGame(), req.GetFormat())
	if err != nil {
		return nil, err
	}
	if codec != nil {
		replay, tags, apply, err := codec.Import(ctx, req.GetText(), req.GetIncludeStates())
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
// options message) into the replay: into the case of its options oneof
// named by its game id.
func setReplayOptions(r *gamerulesv1.ReplayGameRequest, raw json.RawMessage) error {
	m := r.ProtoReflect()
	fd := m.Descriptor().Oneofs().ByName("options").Fields().ByName(protoreflect.Name(r.GetGame()))
	if fd == nil || fd.Message() == nil {
		return fmt.Errorf("game %q has no options", r.GetGame())
	}
	return protojson.Unmarshal(raw, m.Mutable(fd).Message().Interface())
}

// replayOptions is the JSON of a replay's options, nil when it has none.
func replayOptions(r *gamerulesv1.ReplayGameRequest) (json.RawMessage, error) {
	m := r.ProtoReflect()
	fd := m.WhichOneof(m.Descriptor().Oneofs().ByName("options"))
	if fd == nil {
		return nil, nil
	}
	return protojson.Marshal(m.Get(fd).Message().Interface())
}

// MaxExportBytes is the largest record ExportRecord answers, 16 MiB. A
// record's size is not the request's: a .mat repeats the players' names in
// every game's header, so a 119 KB request of a long match asks for some
// 70 MB. A .mat is written within the budget and refused at its first byte
// past it (the rest is counted, not kept, to give the size needed); a JSON
// or APGN record, linear in the request (at most about six bytes per byte of
// the request's strings, escaped), is refused before it is built when the
// text it must hold (exportAtLeast) already passes the budget, and its size
// is checked once built.
const MaxExportBytes = 16 << 20

// exportSizeError is the status of a record over MaxExportBytes:
// INVALID_REQUEST on replay, giving the size it would need (at least that
// size, when atLeast).
func exportSizeError(need int, atLeast bool) error {
	would := "would be"
	if atLeast {
		would = "would be at least"
	}
	return toStatusMeta("replay", fmt.Errorf("%w: the record %s %d bytes; an export answers at most %d (16 MiB): export fewer moves or shorter tags (a .mat repeats the players' names in every game's header)", errInvalidRequest, would, need, MaxExportBytes),
		map[string]string{"size": strconv.Itoa(need), "limit": strconv.Itoa(MaxExportBytes)})
}

// exportAtLeast is the fewest bytes a JSON or APGN record of a replay
// holds: its moves and its tags (names and values), each written whole at
// least once.
func exportAtLeast(resp *gamerulesv1.ReplayGameResponse, tags map[string]string) int {
	n := 0
	for _, m := range resp.GetMoves() {
		n += len(m)
	}
	for k, v := range tags {
		n += len(k) + len(v)
	}
	return n
}

// ExportRecord replays the request's game and writes it as a record.
// The record is at most MaxExportBytes (INVALID_REQUEST on replay past
// it, giving the size it would need), and is one that ImportRecord reads
// back to the same moves: one that would not is refused (INVALID_REQUEST:
// more tags than an import reads, a .mat stopping after a roll with no
// play before its pass, a JSON record over record.MaxElements).
func (s *Server) ExportRecord(ctx context.Context, req *gamerulesv1.ExportRecordRequest) (*gamerulesv1.ExportRecordResponse, error) {
	eng, err := s.engine(req.GetGame())
	if err != nil {
		return nil, err
	}
	format, codec, err := s.recordFormat(eng, req.GetGame(), req.GetFormat())
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
	if codec != nil && codec.Tags != nil {
		// Before the replay: an export that would not read back as
		// written is refused, not written.
		if err := codec.Tags(req.GetTags()); err != nil {
			return nil, toStatus("tags", err)
		}
	}
	apply := moveApplier(applyNotation)
	var write recordWriter
	if codec != nil {
		// One pass: the format's applier may keep what the replay plays
		// (a .mat is written from the typed moves and states), and its
		// writer writes from that.
		var a moveApplier
		if a, write = codec.Export(replay); a != nil {
			apply = a
		}
	}
	resp, err := s.replayGame(ctx, replay, apply)
	if err == nil {
		// The writing is linear in the moves and within MaxExportBytes.
		err = toStatus("replay", ctx.Err())
	}
	if err != nil {
		return nil, err
	}
	if codec != nil {
		text, err := write(resp, req.GetTags())
		if err != nil {
			return nil, err
		}
		if len(text) > MaxExportBytes {
			// (A .mat stops at the budget itself; an APGN record is
			// linear in the request.)
			return nil, exportSizeError(len(text), false)
		}
		return &gamerulesv1.ExportRecordResponse{Text: string(text), Format: format}, nil
	}
	if n := exportAtLeast(resp, req.GetTags()); n > MaxExportBytes {
		return nil, exportSizeError(n, true)
	}
	rec := record.Record{Game: req.GetGame(), Start: resp.GetStart().GetText(), Moves: resp.GetMoves(), Tags: req.GetTags()}
	if o, ok := eng.(optionsRecorder); ok && o.RecordsOptions(resp.GetStart()) {
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
	if errors.Is(err, record.ErrUnreadable) {
		return nil, toStatus("tags", fmt.Errorf("%w: %v", errInvalidRequest, err))
	}
	if err != nil {
		return nil, toStatus("replay", err)
	}
	if len(text) > MaxExportBytes {
		return nil, exportSizeError(len(text), false)
	}
	return &gamerulesv1.ExportRecordResponse{Text: string(text), Format: format}, nil
}
