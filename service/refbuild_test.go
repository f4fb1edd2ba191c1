package service

// The response builders as they were before issue 10 (one allocation per
// message), kept as the reference the optimised builders are checked
// against in TestBuildersMatchReference. Copied verbatim except for the
// names.

import (
	"fmt"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/game"
	"github.com/gamerules/gamerules/rules/gravitytrap"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

func refBackgammonEncode(p backgammonPos) *gamerulesv1.GameState {
	s := p.s
	b := s.Board()
	typed := &gamerulesv1.BackgammonState{
		White:      make([]uint32, 25),
		Black:      make([]uint32, 25),
		Turn:       gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_WHITE,
		Phase:      backgammonPhases[s.Phase()],
		PositionId: s.PositionID(),
		MatchId:    s.MatchID(),
		WhitePips:  uint32(s.Pips(backgammon.White)),
		BlackPips:  uint32(s.Pips(backgammon.Black)),
		WhiteOff:   uint32(s.Checkers(backgammon.White, backgammon.Off)),
		BlackOff:   uint32(s.Checkers(backgammon.Black, backgammon.Off)),
	}
	for i := 0; i < 25; i++ {
		typed.White[i], typed.Black[i] = uint32(b[backgammon.White][i]), uint32(b[backgammon.Black][i])
	}
	if s.Turn() == backgammon.Black {
		typed.Turn = gamerulesv1.BackgammonPlayer_BACKGAMMON_PLAYER_BLACK
	}
	if d1, d2 := s.Dice(); d1 != 0 {
		typed.Dice = []uint32{uint32(d1), uint32(d2)}
	}
	ws, bs := s.Score()
	typed.WhiteScore, typed.BlackScore = uint32(ws), uint32(bs)
	onRoll := backgammonPlayer(s.OnRoll())
	typed.OnRoll = &onRoll
	if s.Phase() == backgammon.PhaseOver {
		end := backgammonEnds[s.End()]
		typed.End = &end
	}
	if r := gamerulesv1.BackgammonResignation(s.Resignation()); r != 0 {
		typed.Resignation = &r
	}
	if s.CubeInUse() {
		owner := gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_CENTERED
		switch s.CubeOwner() {
		case backgammon.White:
			owner = gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_WHITE
		case backgammon.Black:
			owner = gamerulesv1.BackgammonCubeOwner_BACKGAMMON_CUBE_OWNER_BLACK
		}
		typed.Cube = &gamerulesv1.BackgammonCube{Value: uint32(s.CubeValue()), Owner: owner,
			DoubleOffered: s.DoubleOffered(), Jacoby: s.Jacoby(), Beavers: s.Beavers()}
		if s.MatchLength() > 0 {
			typed.Match = &gamerulesv1.BackgammonMatch{Length: uint32(s.MatchLength()), Crawford: s.Crawford(),
				PostCrawford: s.PostCrawford(), Over: s.MatchOver()}
			if w := s.MatchWinner(); w != game.NoWinner {
				w32 := int32(w)
				typed.Match.Winner = &w32
			}
		}
	}
	return &gamerulesv1.GameState{Text: s.String(), State: &gamerulesv1.GameState_Backgammon{Backgammon: typed}}
}

func refBackgammonMoveToProto(m backgammon.Move) *gamerulesv1.Move {
	typed := &gamerulesv1.BackgammonMove{}
	out := &gamerulesv1.Move{Notation: m.String(), Move: &gamerulesv1.Move_Backgammon{Backgammon: typed}}
	switch m.Kind() {
	case backgammon.KindPlay:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PLAY
		for i := 0; i < m.Len(); i++ {
			st := m.Step(i)
			typed.Steps = append(typed.Steps, &gamerulesv1.BackgammonStep{From: uint32(st.From), To: uint32(st.To), Hit: st.Hit})
		}
	case backgammon.KindPass:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_PASS
	case backgammon.KindRoll, backgammon.KindOpeningRoll:
		typed.Kind = gamerulesv1.BackgammonMoveKind_BACKGAMMON_MOVE_KIND_ROLL
		a, b := m.Dice()
		typed.Dice = []uint32{uint32(a), uint32(b)}
		prob := m.Probability()
		out.Probability = &prob
	default:
		if k, ok := backgammonDecisionKinds[m.Kind()]; ok {
			typed.Kind = k
			if r := gamerulesv1.BackgammonResignation(m.Resignation()); r != 0 {
				typed.Resignation = &r
			}
		}
	}
	return out
}

func refBackgammonLegalMoves(p backgammonPos, includeResults bool) ([]*gamerulesv1.Move, bool, error) {
	var moves []backgammon.Move
	var results []backgammon.State
	if includeResults {
		moves, results = p.s.LegalMovesWithResults()
	} else {
		moves = p.s.LegalMoves()
	}
	out := make([]*gamerulesv1.Move, len(moves))
	for i, m := range moves {
		out[i] = refBackgammonMoveToProto(m)
		if includeResults {
			out[i].Result = refBackgammonEncode(backgammonPos{results[i]})
		}
	}
	chance := p.s.Phase() == backgammon.PhaseOpening || p.s.Phase() == backgammon.PhaseRoll
	return out, chance, nil
}

func refAbaloneEncode(p abalonePos) *gamerulesv1.GameState {
	s := p.s
	pos := s.Position()
	typed := &gamerulesv1.AbaloneState{
		Black:     refAbaloneCellNames(pos.Black),
		White:     refAbaloneCellNames(pos.White),
		Turn:      gamerulesv1.AbalonePlayer_ABALONE_PLAYER_BLACK,
		Plies:     uint32(pos.Plies),
		BlackLost: uint32(s.Lost(abalone.Black)),
		WhiteLost: uint32(s.Lost(abalone.White)),
	}
	if pos.MaxPlies > 0 {
		mp := uint32(pos.MaxPlies)
		typed.MaxPlies = &mp
	}
	if pos.ToMove == abalone.White {
		typed.Turn = gamerulesv1.AbalonePlayer_ABALONE_PLAYER_WHITE
	}
	return &gamerulesv1.GameState{Text: s.String(), State: &gamerulesv1.GameState_Abalone{Abalone: typed}}
}

func refAbaloneCellNames(cells []abalone.Cell) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = c.String()
	}
	return out
}

func refAbaloneMoveToProto(m abalone.Move) *gamerulesv1.Move {
	typed := &gamerulesv1.AbaloneMove{From: m.From.String(), To: m.To.String()}
	if m.Broadside() {
		typed.End = m.End.String()
	}
	return &gamerulesv1.Move{Notation: m.String(), Move: &gamerulesv1.Move_Abalone{Abalone: typed}}
}

func refAbaloneLegalMoves(p abalonePos, includeResults bool) ([]*gamerulesv1.Move, bool, error) {
	return refListMoves("abalone", p.s.LegalMoves(), includeResults, refAbaloneMoveToProto, p.s.Apply,
		func(s abalone.State) *gamerulesv1.GameState { return refAbaloneEncode(abalonePos{s}) })
}

func refLabyrinthSquareToProto(q labyrinth.Square) *gamerulesv1.LabyrinthSquare {
	if !q.Valid() {
		return nil
	}
	return &gamerulesv1.LabyrinthSquare{Row: uint32(q.Row()), Col: uint32(q.Col())}
}

func refLabyrinthTileToProto(t labyrinth.Tile) *gamerulesv1.LabyrinthTile {
	pb := &gamerulesv1.LabyrinthTile{Sides: uint32(t.Sides), Vader: t.Vader}
	if t.Target != 0 {
		target := uint32(t.Target)
		pb.Target = &target
	}
	return pb
}

func refLabyrinthStateToProto(s labyrinth.State) *gamerulesv1.LabyrinthState {
	sn := s.Position()
	pb := &gamerulesv1.LabyrinthState{
		Board:        make([]*gamerulesv1.LabyrinthTile, len(sn.Board)),
		Spare:        refLabyrinthTileToProto(sn.Spare),
		Vader:        refLabyrinthSquareToProto(sn.Vader),
		Last:         refLabyrinthLast(sn.Last),
		Turn:         int32(sn.Turn),
		Phase:        gamerulesv1.LabyrinthPhase(sn.Phase),
		VaderVariant: sn.Variants.Vader,
		OpenCards:    sn.OpenCards,
		NoReturn:     sn.NoReturn,
	}
	for q, t := range sn.Board {
		pb.Board[q] = refLabyrinthTileToProto(t)
	}
	for p, c := range sn.Colors {
		pb.Players = append(pb.Players, &gamerulesv1.LabyrinthPlayer{
			Color: gamerulesv1.LabyrinthColor(c + 1),
			Ship:  refLabyrinthSquareToProto(sn.Ships[p]),
			Found: refLabyrinthUint32s(sn.Found[p]),
			Stack: refLabyrinthUint32s(sn.Stacks[p]),
		})
	}
	return pb
}

func refLabyrinthUint32s(cards []uint8) []uint32 {
	if len(cards) == 0 {
		return nil
	}
	out := make([]uint32, len(cards))
	for i, c := range cards {
		out[i] = uint32(c)
	}
	return out
}

func refLabyrinthMoveToProto(m labyrinth.Move) *gamerulesv1.Move {
	typed := &gamerulesv1.LabyrinthMove{}
	if m.IsShift() {
		typed.Kind = &gamerulesv1.LabyrinthMove_Shift{Shift: &gamerulesv1.LabyrinthShift{
			Point: gamerulesv1.LabyrinthInsertionPoint(m.Point), Rotation: uint32(m.Rotation),
		}}
	} else {
		typed.Kind = &gamerulesv1.LabyrinthMove_Figure{Figure: &gamerulesv1.LabyrinthFigureMove{
			To: refLabyrinthSquareToProto(m.To), Vader: m.Vader,
		}}
	}
	return &gamerulesv1.Move{Notation: m.String(), Move: &gamerulesv1.Move_Labyrinth{Labyrinth: typed}}
}

func refLabyrinthEncode(s labyrinth.State) *gamerulesv1.GameState {
	return &gamerulesv1.GameState{Text: s.String(), State: &gamerulesv1.GameState_Labyrinth{Labyrinth: refLabyrinthStateToProto(s)}}
}

func refLabyrinthLegalMoves(p labyrinthPos, includeResults bool) ([]*gamerulesv1.Move, bool, error) {
	return refListMoves("labyrinth", p.s.LegalMoves(), includeResults, refLabyrinthMoveToProto, p.s.Apply, refLabyrinthEncode)
}

func refGravityTrapBoardToProto(b *gravitytrap.Board) *gamerulesv1.GravityTrapBoard {
	if b.Builtin() {
		return &gamerulesv1.GravityTrapBoard{Name: b.Name()}
	}
	def := b.Def()
	pb := &gamerulesv1.GravityTrapBoard{Opposite: intsToUint32s(def.Opposite)}
	for _, st := range def.Stations {
		pb.Stations = append(pb.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(st.ID), X: st.X, Y: st.Y})
	}
	for _, l := range def.Lines {
		pb.Lines = append(pb.Lines, &gamerulesv1.GravityTrapLine{Stations: intsToUint32s(l)})
	}
	return pb
}

func refGravityTrapEncode(p gravityTrapPos) *gamerulesv1.GameState {
	s := p.s
	typed := &gamerulesv1.GravityTrapState{
		Board:                refGravityTrapBoardToProto(s.Board()),
		AllowMirrorPlacement: s.AllowMirrorPlacement(),
		Turn:                 gravityTrapPlayer(s.ToAct()),
	}
	pos := s.Position()
	typed.Marbles = intsToUint32s(pos.Marbles)
	if r := pos.Ships[gravitytrap.Red]; r != gravitytrap.NoStation {
		v := uint32(r)
		typed.RedShip = &v
	}
	if b := pos.Ships[gravitytrap.Blue]; b != gravitytrap.NoStation {
		v := uint32(b)
		typed.BlueShip = &v
	}
	return &gamerulesv1.GameState{Text: s.String(), State: &gamerulesv1.GameState_GravityTrap{GravityTrap: typed}}
}

func refGravityTrapMoveToProto(m gravitytrap.Move) *gamerulesv1.Move {
	return &gamerulesv1.Move{
		Notation: m.String(),
		Move:     &gamerulesv1.Move_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapMove{Place: m.Place, Station: uint32(m.Station)}},
	}
}

func refGravityTrapLegalMoves(p gravityTrapPos, includeResults bool) ([]*gamerulesv1.Move, bool, error) {
	return refListMoves("gravitytrap", p.s.LegalMoves(), includeResults, refGravityTrapMoveToProto, p.s.Apply,
		func(s gravitytrap.State) *gamerulesv1.GameState { return refGravityTrapEncode(gravityTrapPos{s}) })
}

// refListMoves implements Position.LegalMoves for a game without chance moves:
// moves in the engine's order, each converted by toProto and, with
// includeResults, given the state after it (apply, then encode). A listed
// move that does not apply is an engine bug, reported as an error that
// wraps no rules kind (so INTERNAL) and starts with name.
func refListMoves[M, S any](name string, moves []M, includeResults bool, toProto func(M) *gamerulesv1.Move, apply func(M) (S, error), encode func(S) *gamerulesv1.GameState) ([]*gamerulesv1.Move, bool, error) {
	out := make([]*gamerulesv1.Move, 0, len(moves))
	for _, m := range moves {
		pm := toProto(m)
		if includeResults {
			next, err := apply(m)
			if err != nil {
				return nil, false, fmt.Errorf("%s: listed move %v does not apply: %v", name, m, err)
			}
			pm.Result = encode(next)
		}
		out = append(out, pm)
	}
	return out, false, nil
}

// refLabyrinthLast is LabyrinthState.last: absent before the first shift.
func refLabyrinthLast(p labyrinth.Point) *gamerulesv1.LabyrinthInsertionPoint {
	if p == labyrinth.NoPoint {
		return nil
	}
	l := gamerulesv1.LabyrinthInsertionPoint(p)
	return &l
}
