package deploy

import (
	"slices"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// MergePlayouts sums the answers of Playout calls over adjacent ranges of one
// seeded sequence of games (the same request but for games and
// game_offset): every count and total_plies sum, longest_plies is the
// most, mean_plies is total_plies / game_count, the points histogram and
// the first moves (one entry per legal move, in the same order in every
// answer) sum entry by entry. The result is the answer one call over all
// the games would give (without include_moves' games). A client fanning
// a Playout out over a fleet (examples/fleet-playout) merges with it.
func MergePlayouts(parts []*gamerulesv1.PlayoutResponse) *gamerulesv1.PlayoutResponse {
	m := &gamerulesv1.PlayoutResponse{}
	hist := map[[2]int32]int32{}
	for i, p := range parts {
		if i == 0 {
			m.Seed, m.Turn = p.GetSeed(), p.Turn
			m.WinCounts = make([]int32, len(p.GetWinCounts()))
			for _, fm := range p.GetFirstMoves() {
				m.FirstMoves = append(m.FirstMoves, &gamerulesv1.PlayoutFirstMove{Notation: fm.GetNotation(),
					WinCounts: make([]int32, len(fm.GetWinCounts())), Points: make([]int32, len(fm.GetPoints()))})
			}
		}
		m.TotalPlies += p.GetTotalPlies()
		m.GameCount += p.GetGameCount()
		m.DrawCount += p.GetDrawCount()
		m.UnfinishedCount += p.GetUnfinishedCount()
		m.LongestPlies = max(m.LongestPlies, p.GetLongestPlies())
		for j, w := range p.GetWinCounts() {
			m.WinCounts[j] += w
		}
		for _, b := range p.GetPoints() {
			hist[[2]int32{b.GetPlayer(), b.GetPoints()}] += b.GetGameCount()
		}
		for j, fm := range p.GetFirstMoves() {
			mf := m.FirstMoves[j]
			mf.PlayCount += fm.GetPlayCount()
			mf.DrawCount += fm.GetDrawCount()
			for k, w := range fm.GetWinCounts() {
				mf.WinCounts[k] += w
			}
			for k, v := range fm.GetPoints() {
				mf.Points[k] += v
			}
		}
	}
	if m.GameCount > 0 {
		m.MeanPlies = float64(m.TotalPlies) / float64(m.GameCount)
	}
	for b, n := range hist {
		m.Points = append(m.Points, &gamerulesv1.PlayoutPoints{Player: b[0], Points: b[1], GameCount: n})
	}
	slices.SortFunc(m.Points, func(a, b *gamerulesv1.PlayoutPoints) int {
		if a.Player != b.Player {
			return int(a.Player - b.Player)
		}
		return int(a.Points - b.Points)
	})
	return m
}
