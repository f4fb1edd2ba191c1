package labyrinth

// ActionSpace is the number of Labyrinth's action ids (spec "Action
// ids"): a shift at insertion point p (N2 = 1 .. W6 = 12) turned r quarter
// turns is (p-1)·4 + r, 0..47; a ship move to square q is 48 + q, 48..96;
// a Darth Vader move to q is 97 + q, 97..145.
const ActionSpace = 4*NumPoints + 2*49

// Action returns m's action id (see ActionSpace).
func (m Move) Action() int {
	switch {
	case m.IsShift():
		return int(m.Point-1)*4 + int(m.Rotation)
	case m.Vader:
		return 4*NumPoints + 49 + int(m.To)
	}
	return 4*NumPoints + int(m.To)
}
