package stacktest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	gamerulesv1grpc "github.com/gamerules/gamerules/gen/go/gamerules/v1/gamerulesv1grpc"
	"github.com/gamerules/gamerules/server"
)

// The random half of the deadline property test (issue 30, item 1): besides
// the generated worst cases, every RPC runs on random inputs, over gRPC and
// REST, each with randomDeadline: requests built from seeded random play of
// every game (states along a game, the moves played, records exported from
// it), random custom Gravity Trap boards (for NewGame and RenderState), and
// random mutations of those valid requests (fields garbled, counts raised as
// far as the limits let in, lists repeated, messages cleared).
// randomPerRPC of each (half of them mutated) in the default run (2 under
// the race detector); GAMERULES_LONG=1 runs randomPerRPCLong with a seed
// from the clock (logged; GAMERULES_DEADLINE_SEED=n replays a run).

// randomDeadline is a random call's deadline: shorter than callDeadline, so
// that the costly ones among them run past it without taking long.
const randomDeadline = 100 * time.Millisecond

// randomPerRPC inputs of each RPC in the default run, randomPerRPCLong
// under GAMERULES_LONG=1, randomPerRPCRace under the race detector.
const randomPerRPC, randomPerRPCLong, randomPerRPCRace = 6, 60, 2

// randomGame is one seeded random game: its start (NewGame with seed), the
// moves played and the state before each move and after the last.
type randomGame struct {
	game   string
	seed   uint64
	start  *gamerulesv1.GameState
	moves  []string
	states []*gamerulesv1.GameState
}

// randomGames plays a random game of each game by Playout from NewGame's
// start (random seeds, random lengths) and replays it for its states; and
// a game on a random custom Gravity Trap board.
func randomGames(t *testing.T, c gamerulesv1grpc.GameRulesClient, r *rand.Rand) []randomGame {
	t.Helper()
	ctx := context.Background()
	var out []randomGame
	news := []*gamerulesv1.NewGameRequest{{Game: "backgammon"}, {Game: "abalone"}, {Game: "labyrinth"}, {Game: "gravity_trap"}}
	for range 4 {
		news = append(news, &gamerulesv1.NewGameRequest{Game: "gravity_trap",
			Options: &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: randomBoard(r)}}})
	}
	for _, ng := range news {
		seed := r.Uint64()
		ng.Seed = &seed
		started, err := c.NewGame(ctx, ng)
		if err != nil {
			continue // a random board may be refused; the others play
		}
		g := randomGame{game: ng.GetGame(), seed: seed, start: started.GetState()}
		pseed := r.Uint64()
		po, err := c.Playout(ctx, &gamerulesv1.PlayoutRequest{Game: g.game, State: g.start, Games: 1, Seed: &pseed, MaxPlies: int32(1 + r.IntN(600)), IncludeMoves: true})
		if err != nil || len(po.GetPlayed().GetGames()) != 1 {
			t.Fatalf("%s: random playout: %v", g.game, err)
		}
		g.moves = po.GetPlayed().GetGames()[0].GetMoves()
		if len(g.moves) > 1000 {
			g.moves = g.moves[:1000]
		}
		rp, err := c.ReplayGame(ctx, &gamerulesv1.ReplayGameRequest{Game: g.game, State: g.start, Seed: &seed, Moves: g.moves, IncludeStates: true})
		if err != nil {
			t.Fatalf("%s: replay of a random playout: %v", g.game, err)
		}
		g.states = append([]*gamerulesv1.GameState{g.start}, rp.GetStates()...)
		out = append(out, g)
	}
	if len(out) < 4 {
		t.Fatalf("only %d random games played", len(out))
	}
	return out
}

// randomBoard is a random custom Gravity Trap board: 4 to 24 stations, an
// opposite map pairing them, and up to 60 lines of 2 to 5 stations (lines
// sharing stations: what made the render's colouring exponential). It may
// break the board's rules; NewGame then refuses it.
func randomBoard(r *rand.Rand) *gamerulesv1.GravityTrapBoard {
	n := 4 + 2*r.IntN(11)
	b := &gamerulesv1.GravityTrapBoard{Opposite: make([]uint32, n)}
	for i := range n {
		b.Stations = append(b.Stations, &gamerulesv1.GravityTrapStation{Id: uint32(i), X: r.Float64() * 10, Y: r.Float64() * 10})
	}
	perm := r.Perm(n)
	for i := 0; i+1 < n; i += 2 {
		b.Opposite[perm[i]], b.Opposite[perm[i+1]] = uint32(perm[i+1]), uint32(perm[i])
	}
	seen := map[string]bool{}
	for range 1 + r.IntN(60) {
		k := 2 + r.IntN(min(4, n-1))
		ids := r.Perm(n)[:k]
		var line []uint32
		for _, id := range ids {
			line = append(line, uint32(id))
		}
		key := fmt.Sprint(sortedCopy(line))
		if seen[key] {
			continue
		}
		seen[key] = true
		b.Lines = append(b.Lines, &gamerulesv1.GravityTrapLine{Stations: line})
	}
	return b
}

func sortedCopy(s []uint32) []uint32 {
	out := append([]uint32(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// randomValid is a random valid-looking request of RPC name, from the
// random games gs (and records exported from them).
func randomValid(r *rand.Rand, name string, gs []randomGame, records map[string][]string) proto.Message {
	g := gs[r.IntN(len(gs))]
	i := r.IntN(len(g.states))
	s := g.states[i]
	move := ""
	if i < len(g.moves) {
		move = g.moves[i]
	}
	seed := r.Uint64()
	switch name {
	case "ListGames":
		return &gamerulesv1.ListGamesRequest{}
	case "NewGame":
		ng := &gamerulesv1.NewGameRequest{Game: g.game, Seed: &seed}
		if r.IntN(2) == 0 {
			ng.Game, ng.Options = "gravity_trap", &gamerulesv1.NewGameRequest_GravityTrap{GravityTrap: &gamerulesv1.GravityTrapOptions{CustomBoard: randomBoard(r)}}
		}
		return ng
	case "LegalMoves":
		return &gamerulesv1.LegalMovesRequest{Game: g.game, State: s, IncludeResults: r.IntN(2) == 0}
	case "ApplyMove":
		return &gamerulesv1.ApplyMoveRequest{Game: g.game, State: s, Move: &gamerulesv1.Move{Notation: move}, IncludeLegalMoves: r.IntN(2) == 0, IncludeResults: r.IntN(2) == 0}
	case "Score":
		return &gamerulesv1.ScoreRequest{Game: g.game, State: s}
	case "ObserveState":
		p := int32(r.IntN(6) - 1)
		return &gamerulesv1.ObserveStateRequest{Game: g.game, State: s, Player: &p}
	case "RenderState":
		return &gamerulesv1.RenderStateRequest{Game: g.game, State: s, Size: int32(100 + r.IntN(3997)), HideCoordinates: r.IntN(2) == 0}
	case "ConvertState":
		return &gamerulesv1.ConvertStateRequest{Game: g.game, State: s}
	case "GetBoard":
		return &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: []string{"default", "rings", "", "hexagon"}[r.IntN(4)]}
	case "ReplayGame":
		return &gamerulesv1.ReplayGameRequest{Game: g.game, State: g.start, Seed: &g.seed, Moves: g.moves[:r.IntN(len(g.moves)+1)], IncludeStates: r.IntN(2) == 0}
	case "ImportRecord":
		games := []string{"backgammon", "abalone", "labyrinth", "gravity_trap"}
		game := games[r.IntN(len(games))]
		for _, k := range []string{game + " json", game + " mat", game + " apgn"} {
			if recs := records[k]; len(recs) > 0 && r.IntN(2) == 0 {
				return &gamerulesv1.ImportRecordRequest{Game: game, Format: strings.Fields(k)[1], Text: recs[r.IntN(len(recs))], IncludeStates: r.IntN(2) == 0}
			}
		}
		recs := records[game+" json"]
		if len(recs) == 0 {
			return &gamerulesv1.ImportRecordRequest{Game: game, Format: "json", Text: "{}"}
		}
		return &gamerulesv1.ImportRecordRequest{Game: game, Format: "json", Text: recs[r.IntN(len(recs))]}
	case "ExportRecord":
		tags := map[string]string{}
		for j := range r.IntN(40) {
			tags["Tag"+strconv.Itoa(j)] = strings.Repeat("v", r.IntN(2000))
		}
		return &gamerulesv1.ExportRecordRequest{Game: g.game, Format: exportFormat(r, g.game), Tags: tags,
			Replay: &gamerulesv1.ReplayGameRequest{Game: g.game, State: g.start, Seed: &g.seed, Moves: g.moves[:r.IntN(len(g.moves)+1)]}}
	case "Batch":
		var items []*gamerulesv1.BatchRequestItem
		for range 1 + r.IntN(1000) {
			h := gs[r.IntN(len(gs))]
			j := r.IntN(len(h.states))
			switch r.IntN(4) {
			case 0:
				items = append(items, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_LegalMoves{LegalMoves: &gamerulesv1.LegalMovesRequest{Game: h.game, State: h.states[j], IncludeResults: r.IntN(2) == 0}}})
			case 1:
				items = append(items, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_Score{Score: &gamerulesv1.ScoreRequest{Game: h.game, State: h.states[j]}}})
			case 2:
				if j < len(h.moves) { // (the last state has no move played from it)
					items = append(items, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_ApplyMove{ApplyMove: &gamerulesv1.ApplyMoveRequest{Game: h.game, State: h.states[j], Move: &gamerulesv1.Move{Notation: h.moves[j]}, IncludeLegalMoves: true}}})
				}
			default:
				p := int32(0)
				items = append(items, &gamerulesv1.BatchRequestItem{Request: &gamerulesv1.BatchRequestItem_ObserveState{ObserveState: &gamerulesv1.ObserveStateRequest{Game: h.game, State: h.states[j], Player: &p}}})
			}
		}
		return &gamerulesv1.BatchRequest{Requests: items}
	case "Expand":
		return &gamerulesv1.ExpandRequest{Game: g.game, State: s, Depth: int32(1 + r.IntN(10)), MaxNodes: int32(r.IntN(20_001)), IncludeTyped: r.IntN(2) == 0}
	case "Playout":
		return &gamerulesv1.PlayoutRequest{Game: g.game, State: s, Games: int32(1 + r.IntN(10_000)), Seed: &seed, MaxPlies: int32(r.IntN(10_001)), IncludeMoves: r.IntN(2) == 0}
	}
	return nil
}

// exportFormat is a random record format of game: JSON, or the game's own.
func exportFormat(r *rand.Rand, game string) string {
	own := map[string]string{"backgammon": "mat", "abalone": "apgn"}[game]
	if own != "" && r.IntN(2) == 0 {
		return own
	}
	return "json"
}

// randomRecords exports the random games as records, by game and format
// ("backgammon mat"), and adds each one garbled a few ways.
func randomRecords(t *testing.T, c gamerulesv1grpc.GameRulesClient, r *rand.Rand, gs []randomGame) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, g := range gs {
		for _, f := range []string{"json", map[string]string{"backgammon": "mat", "abalone": "apgn"}[g.game]} {
			if f == "" {
				continue
			}
			ex, err := c.ExportRecord(context.Background(), &gamerulesv1.ExportRecordRequest{Game: g.game, Format: f,
				Replay: &gamerulesv1.ReplayGameRequest{Game: g.game, State: g.start, Seed: &g.seed, Moves: g.moves}})
			if err != nil {
				continue // a random board's record may not be exportable
			}
			k := g.game + " " + f
			out[k] = append(out[k], ex.GetText())
			for range 3 {
				out[k] = append(out[k], garble(r, ex.GetText(), 400<<10))
			}
		}
	}
	return out
}

// garble changes s at random, keeping it valid UTF-8 and at most limit
// bytes: a span cut out, a span repeated many times, lines swapped,
// random characters put in, or the whole cut short.
func garble(r *rand.Rand, s string, limit int) string {
	if s == "" {
		return randomText(r, 1+r.IntN(100))
	}
	cut := func() (int, int) {
		a, b := r.IntN(len(s)+1), r.IntN(len(s)+1)
		if a > b {
			a, b = b, a
		}
		for a > 0 && !utf8.RuneStart(s[a]) {
			a--
		}
		for b < len(s) && !utf8.RuneStart(s[b]) {
			b++
		}
		return a, b
	}
	a, b := cut()
	switch r.IntN(5) {
	case 0:
		s = s[:a] + s[b:]
	case 1:
		if span := s[a:b]; span != "" {
			n := min(1+r.IntN(10_000), (limit-len(s))/len(span))
			s = s[:a] + strings.Repeat(span, max(n, 0)) + s[a:]
		}
	case 2:
		lines := strings.Split(s, "\n")
		r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
		s = strings.Join(lines, "\n")
	case 3:
		s = s[:a] + randomText(r, 1+r.IntN(200)) + s[a:]
	default:
		s = s[:a]
	}
	if len(s) > limit {
		s = s[:limit]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// randomText is n random characters: digits, letters, the notations'
// punctuation, spaces, newlines, quotes, and now and then any rune.
func randomText(r *rand.Rand, n int) string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ /:-*()[]{}\",.\n\t?!#"
	var b strings.Builder
	for range n {
		if r.IntN(20) == 0 {
			b.WriteRune(rune(0x80 + r.IntN(0xD000)))
			continue
		}
		b.WriteByte(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// mutate changes 1 to 3 random fields of a copy of m (at any depth): a
// string garbled, a number set to an extreme or a large count, a bool
// flipped, an enum set to an unknown value, a list repeated or cut, a
// message cleared. The copy stays under half of limit bytes and can be
// written as JSON (or m is returned unchanged after a few tries).
func mutate(r *rand.Rand, m proto.Message, limit int) proto.Message {
	for range 8 {
		c := proto.Clone(m)
		for range 1 + r.IntN(3) {
			mutateOne(r, c.ProtoReflect(), limit/2, 0)
		}
		if _, err := protojson.Marshal(c); err == nil && proto.Size(c) <= limit/2 {
			return c // (one REST cannot send, such as a field mask of a bad path, is tried again)
		}
	}
	return m
}

// mutateOne changes one field of m, or of a message under it; a list is
// repeated to about budget bytes at most.
func mutateOne(r *rand.Rand, m protoreflect.Message, budget, depth int) {
	fields := m.Descriptor().Fields()
	if fields.Len() == 0 {
		return
	}
	fd := fields.Get(r.IntN(fields.Len()))
	if fd.Name() == "game" && fields.Len() > 1 && r.IntN(4) != 0 {
		fd = fields.Get(r.IntN(fields.Len())) // a garbled game id stops a call at once: mostly garble the rest
	}
	switch {
	case fd.IsMap():
		mp := m.Mutable(fd).Map()
		if fd.MapKey().Kind() == protoreflect.StringKind && fd.MapValue().Kind() == protoreflect.StringKind {
			for j := range r.IntN(300) {
				mp.Set(protoreflect.ValueOfString("k"+strconv.Itoa(j)+randomText(r, r.IntN(20))).MapKey(), protoreflect.ValueOfString(randomText(r, r.IntN(500))))
			}
		} else {
			m.Clear(fd)
		}
	case fd.IsList():
		l := m.Mutable(fd).List()
		n := l.Len()
		switch {
		case n > 0 && r.IntN(2) == 0: // repeat the list (doubling it) while m stays within budget
			for l.Len() < 100_000 {
				k := l.Len()
				for j := range k {
					l.Append(l.Get(j))
				}
				if proto.Size(m.Interface()) > budget {
					l.Truncate(k)
					break
				}
			}
		case n > 0 && r.IntN(2) == 0:
			if fd.Message() != nil && depth < 4 {
				mutateOne(r, l.Get(r.IntN(n)).Message(), budget, depth+1)
			} else {
				l.Truncate(r.IntN(n))
			}
		default:
			if fd.Message() == nil {
				for range 1 + r.IntN(50) {
					l.Append(randomScalar(r, fd))
				}
			} else {
				l.AppendMutable()
			}
		}
	case fd.Message() != nil:
		if r.IntN(4) == 0 || depth >= 4 {
			m.Clear(fd)
		} else {
			mutateOne(r, m.Mutable(fd).Message(), budget, depth+1)
		}
	default:
		m.Set(fd, randomScalar(r, fd))
	}
}

// randomScalar is a random value of the scalar field fd: extremes and
// large counts for numbers, garbled text for strings.
func randomScalar(r *rand.Rand, fd protoreflect.FieldDescriptor) protoreflect.Value {
	ints := []int64{0, -1, 1, 2, 7, 100, 1000, 10_000, 20_000, 100_000, 1 << 20, math.MaxInt32, math.MinInt32}
	n := ints[r.IntN(len(ints))]
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(r.IntN(2) == 0)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(protoreflect.EnumNumber(r.IntN(6) - 1 + 90*r.IntN(2)))
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(int32(n))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(n)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(uint32(n))
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(uint64(n))
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32([]float32{0, -1, 1e30, float32(math.Inf(1))}[r.IntN(4)])
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64([]float64{0, -1, 1e300, math.Inf(-1), 0.5}[r.IntN(5)])
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte(randomText(r, r.IntN(100))))
	}
	return protoreflect.ValueOfString(randomText(r, []int{0, 1, 5, 50, 5000}[r.IntN(5)]))
}

// randomCases are perRPC random inputs of every RPC of methods: half
// valid requests from random play, half mutations of them.
func randomCases(t *testing.T, c gamerulesv1grpc.GameRulesClient, r *rand.Rand, methods []string, perRPC int) map[string][]deadlineCase {
	t.Helper()
	gs := randomGames(t, c, r)
	records := randomRecords(t, c, r, gs)
	limit := server.DefaultOptions().MaxRecvBytes
	out := map[string][]deadlineCase{}
	for _, name := range methods {
		for i := range perRPC {
			req := randomValid(r, name, gs, records)
			if req == nil {
				break // no generator for this RPC: the test says so
			}
			what := "random"
			if i%2 == 1 {
				req, what = mutate(r, req, limit), "mutated"
			}
			out[name] = append(out[name], deadlineCase{fmt.Sprintf("%s #%d (%d bytes)", what, i, proto.Size(req)), req})
		}
	}
	return out
}

// deadlineSeed is the random inputs' seed: GAMERULES_DEADLINE_SEED when
// set, else fixed in the default run and the clock's under GAMERULES_LONG.
func deadlineSeed() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("GAMERULES_DEADLINE_SEED"), 10, 64); err == nil {
		return s
	}
	if long() {
		return uint64(time.Now().UnixNano())
	}
	return 30
}
