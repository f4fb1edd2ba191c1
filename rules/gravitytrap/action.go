package gravitytrap

// ActionSpace is the number of action ids of every board (spec "Action
// ids"): a placement on station i is action i, a flight to station i is
// MaxStations + i.
const ActionSpace = 2 * MaxStations

// Action returns m's action id (see ActionSpace).
func (m Move) Action() int {
	if m.Place {
		return m.Station
	}
	return MaxStations + m.Station
}
