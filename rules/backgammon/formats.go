package backgammon

import (
	"fmt"
	"strings"

	"github.com/gamerules/gamerules/rules/game"
)

// Format is one of the text forms of a state (spec "Interchange formats").
type Format uint8

const (
	// FormatGnubg is gnubg's "<PositionID>:<MatchID>" with our settings
	// words: the canonical text form (State.String, ParseState).
	FormatGnubg Format = iota
	// FormatXGID is eXtreme Gammon's "XGID=…" (State.XGID, ParseXGID).
	FormatXGID
	// FormatFIBS is the FIBS client protocol's "board:…" (State.FIBSBoard,
	// ParseFIBSBoard).
	FormatFIBS
)

// Formats lists every Format, the canonical one first.
var Formats = [...]Format{FormatGnubg, FormatXGID, FormatFIBS}

var formatNames = [...]string{"gnubg", "xgid", "fibs"}

// String returns the format's name: "gnubg", "xgid" or "fibs".
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat returns the Format named name ("gnubg", "xgid", "fibs", in
// any case). An unknown name is an error wrapping game.ErrInvalidOptions
// that lists the names.
func ParseFormat(name string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(name, n) {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("backgammon: %w: format %s: one of \"gnubg\", \"xgid\", \"fibs\"", game.ErrInvalidOptions, game.Quote(name))
}

// Text returns s written in format f: State.String for FormatGnubg,
// State.XGID for FormatXGID, State.FIBSBoard(s.Turn(), "", "") for
// FormatFIBS (the board as the player to act sees it, names "You" and
// "Opponent"). XGID and FIBS boards cannot hold every state: Lossless
// says whether f holds s, and the writers say what is lost. An unknown f
// writes the canonical form.
func (s State) Text(f Format) string {
	switch f {
	case FormatXGID:
		return s.XGID()
	case FormatFIBS:
		return s.FIBSBoard(s.Turn(), "", "")
	}
	return s.String()
}

// maxStateText bounds a state's text in any form (a FIBS board with long
// names is the longest), so that no text makes unbounded work.
const maxStateText = 512

// Lossless reports whether s.Text(f) holds s whole, so that
// ParseAnyState(s.Text(f)) == s: always for FormatGnubg; for FormatXGID
// unless s is in PhaseOpening, has a resignation offered or accepted, a
// third beaver in a row, ended other than borne off, or is a match with
// the Jacoby flag (Match ID bit 66 clear); for FormatFIBS unless s is in
// PhaseOpening, has a resignation, beavers allowed, the Jacoby flag, no
// cube, ended other than borne off, or is a finished game with the
// Crawford flag (spec "Interchange formats").
func (s State) Lossless(f Format) bool {
	switch f {
	case FormatXGID:
		switch {
		case s.phase == PhaseOpening, s.resign != 0, s.beavered == MaxBeavers:
			return false
		case s.phase == PhaseOver && (s.end != endBorneOff || s.doubled):
			return false
		}
		return s.matchLen == 0 || !s.jacoby
	case FormatFIBS:
		switch {
		case s.phase == PhaseOpening, s.resign != 0, s.beavers, s.jacoby, !s.cubeUse:
			return false
		case s.phase == PhaseOver:
			return s.end == endBorneOff && !s.doubled && !s.crawford
		}
	}
	return true
}

// ParseAnyState reads a state in any of its text forms, telling them apart
// by their shape (spec "Interchange formats"):
//
//   - "XGID=…" (the prefix in any case, or left out before the 26
//     characters of the position and nine ':' fields): ParseXGID;
//   - "board:…": ParseFIBSBoard;
//   - "<PositionID>:<MatchID>" with the settings words: ParseState, the
//     canonical form;
//   - a bare Position ID (14 characters, no Match ID) is refused: it does
//     not say who is on roll, and the Position ID is written from that
//     player's side, so a guess reads the other side's board when it is
//     wrong. The error says which Match ID to add for either player to
//     roll in a money game.
//
// Surrounding spaces are ignored; a text longer than 512 bytes is refused.
// Errors wrap game.ErrInvalidState, quote
// the text (game.Quote) and name the field at fault.
func ParseAnyState(text string) (State, error) {
	t := strings.TrimSpace(text)
	if len(t) > maxStateText {
		return State{}, &game.ParseError{Game: "backgammon", What: "state", Input: text, Offset: maxStateText, Kind: game.ErrInvalidState,
			Reason: fmt.Sprintf("%d bytes; no form of a state is longer than %d", len(t), maxStateText)}
	}
	switch {
	case len(t) >= 6 && strings.EqualFold(t[:6], "board:"):
		return ParseFIBSBoard(t)
	case len(t) >= len(xgidPrefix) && strings.EqualFold(t[:len(xgidPrefix)], xgidPrefix),
		len(t) > 26 && t[26] == ':' && strings.Count(t, ":") == 9:
		return ParseXGID(t)
	case len(t) == 14 && !strings.ContainsAny(t, ": "):
		if _, pe := decodePositionID(t); pe != nil {
			pe.Input = text
			return State{}, pe
		}
		w := State{turn: White, actor: White, phase: PhaseRoll, owner: ownerCentre}
		b := w
		b.turn, b.actor = Black, Black
		return State{}, &game.ParseError{Game: "backgammon", What: "state", Input: text, Offset: -1, Kind: game.ErrInvalidState,
			Reason: fmt.Sprintf("a Position ID alone does not say who is on roll (it is written from that player's side); add the Match ID: %s:%s for white (player 0) to roll, %s:%s for black, in a money game without the cube; or give an XGID", t, w.MatchID(), t, b.MatchID())}
	}
	return ParseState(t)
}
