package abalone

// ActionSpace is the number of Abalone's action ids (spec "Action ids"),
// cells numbered 1..61 as Cell: an in-line move is (From-1)·61 + (To-1),
// 0..3720; a broadside is 3721 + ((From-1)·61 + (End-1))·61 + (To-1).
const ActionSpace = NumCells*NumCells + NumCells*NumCells*NumCells

// Action returns m's action id (see ActionSpace).
func (m Move) Action() int {
	if m.Broadside() {
		return NumCells*NumCells + ((int(m.From)-1)*NumCells+int(m.End)-1)*NumCells + int(m.To) - 1
	}
	return (int(m.From)-1)*NumCells + int(m.To) - 1
}
