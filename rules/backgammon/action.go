package backgammon

// Fixed action ids (spec "Action ids"): every move of a state has an
// integer id in 0..ActionSpace-1, unique among the state's legal moves, so
// that a learning program can use a fixed output layer. A play is one
// action, whole (the API's move is a whole play):
//
//   - a roll (h, l), h >= l: (h-1)·6 + (l-1), 0..35; an opening roll (w, b):
//     36 + (w-1)·6 + (b-1), 36..71;
//   - pass 72; double 73, take 74, drop 75, beaver 76; resign at level 1..3
//     76+level (77..79); accept 80, decline 81; next game 82;
//   - a play with two different dice: 96 + s1·677 + s2, s = 1 + From·26 + To
//     of its first and second step (s2 = 0 for a one-step play), From and
//     To as Step's (1..25, 0..24) in the canonical order;
//   - a play of a double: 96 + 677² + c1·27³ + c2·27² + c3·27 + c4, c =
//     1 + From of each step in order (0 after the last step): the die fixes
//     every To.
const ActionSpace = 96 + 677*677 + 27*27*27*27

// Action returns m's action id in s (see ActionSpace). m must be one of
// s.LegalMoves(); for other values the id is unspecified.
func (s State) Action(m Move) int { return actionOf(&m, s.dice[0] == s.dice[1]) }

// AppendActions appends the action id in s of each of moves (Action's,
// in order) to ids and returns the extended slice: a list's ids without
// a copy of s per move.
func (s State) AppendActions(ids []int32, moves []Move) []int32 {
	double := s.dice[0] == s.dice[1]
	for i := range moves {
		ids = append(ids, int32(actionOf(&moves[i], double)))
	}
	return ids
}

// actionOf is Action's id of m in a state whose dice are a double, or not.
func actionOf(m *Move, double bool) int {
	switch m.kind {
	case KindRoll:
		return int(m.dice[0]-1)*6 + int(m.dice[1]-1)
	case KindOpeningRoll:
		return 36 + int(m.dice[0]-1)*6 + int(m.dice[1]-1)
	case KindPass:
		return 72
	case KindDouble, KindTake, KindDrop, KindBeaver:
		return 73 + int(m.kind-KindDouble)
	case KindResign:
		return 76 + m.Resignation()
	case KindAccept:
		return 80
	case KindDecline:
		return 81
	case KindNextGame:
		return 82
	case KindPlay:
		if double {
			a := 0
			for i := 0; i < 4; i++ {
				c := 0
				if i < int(m.n) {
					c = 1 + int(m.steps[i][0])
				}
				a = a*27 + c
			}
			return 96 + 677*677 + a
		}
		a := 0
		for i := 0; i < 2; i++ {
			c := 0
			if i < int(m.n) {
				c = 1 + int(m.steps[i][0])*26 + int(m.steps[i][1])
			}
			a = a*677 + c
		}
		return 96 + a
	}
	return -1
}
