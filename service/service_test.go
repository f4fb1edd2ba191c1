package service

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// fakeEngine serves the game id "abalone" with a counter as its state, so
// the service's generic paths can be tested without a real engine.
type fakeEngine struct{}

type fakePos struct{ n int }

func (fakeEngine) Info() *gamerulesv1.GameInfo {
	return &gamerulesv1.GameInfo{Id: "abalone", MinPlayers: 2, MaxPlayers: 2}
}

func (fakeEngine) NewGame(req *gamerulesv1.NewGameRequest, seed uint64) (Position, error) {
	return fakePos{int(seed % 3)}, nil
}

func (fakeEngine) Decode(st *gamerulesv1.GameState) (Position, error) {
	var n int
	if _, err := fmt.Sscanf(st.GetText(), "n=%d", &n); err != nil || n < 0 {
		return nil, fmt.Errorf("fake: %w: want n=<count>", game.ErrInvalidState)
	}
	return fakePos{n}, nil
}

func (p fakePos) Encode() *gamerulesv1.GameState {
	return &gamerulesv1.GameState{Text: fmt.Sprintf("n=%d", p.n)}
}

func (p fakePos) LegalMoves(moveParts) ([]*gamerulesv1.Move, bool, error) {
	if p.n >= 3 {
		return nil, false, nil
	}
	return []*gamerulesv1.Move{{Notation: "inc"}}, false, nil
}

func (p fakePos) Apply(mv *gamerulesv1.Move, r *rand.Rand) (Position, *gamerulesv1.Move, bool, error) {
	switch {
	case p.n >= 3:
		return nil, nil, false, fmt.Errorf("fake: %w", game.ErrGameOver)
	case mv.GetNotation() == "inc":
		return fakePos{p.n + 1}, mv, false, nil
	case mv.GetNotation() == "draw":
		return fakePos{p.n + 1}, mv, true, nil
	case mv.GetNotation() == "boom":
		return nil, nil, false, errors.New("engine invariant broken")
	}
	return nil, nil, false, fmt.Errorf("fake: %w: %q is not a move", game.ErrIllegalMove, mv.GetNotation())
}

func (p fakePos) Outcome() game.Outcome {
	if p.n >= 3 {
		return game.Outcome{Finished: true, Winner: 1, Points: []int{0, 3}, Detail: "done"}
	}
	return game.Outcome{Winner: game.NoWinner, Points: []int{p.n, 0}}
}

// reasonOf returns the ErrorInfo reason of a service error ("" when it has
// none); it fails the test unless err is an INVALID_ARGUMENT status.
func reasonOf(t *testing.T, err error) string {
	t.Helper()
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.InvalidArgument {
		t.Fatalf("error %v: want an InvalidArgument status", err)
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info.GetReason()
		}
	}
	return ""
}

// textState is a request state given as text only.
func textState(s string) *gamerulesv1.GameState { return &gamerulesv1.GameState{Text: s} }

// typedOnly returns a copy of st with the text removed.
func typedOnly(st *gamerulesv1.GameState) *gamerulesv1.GameState {
	c := proto.Clone(st).(*gamerulesv1.GameState)
	c.Text = ""
	return c
}

func fakeServer() *Server { return &Server{engines: map[string]Engine{"abalone": fakeEngine{}}} }

func TestErrorsCarryReasonAndField(t *testing.T) {
	s := fakeServer()
	ctx := context.Background()
	for _, tc := range []struct {
		name          string
		call          func() error
		reason, field string
		code          codes.Code
	}{
		{"unknown game", func() error {
			_, err := s.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: "chess", State: textState("n=0")})
			return err
		}, ReasonUnknownGame, "game", codes.InvalidArgument},
		{"missing game", func() error { _, err := s.NewGame(ctx, &gamerulesv1.NewGameRequest{}); return err }, ReasonUnknownGame, "game", codes.InvalidArgument},
		{"missing state", func() error {
			_, err := s.Score(ctx, &gamerulesv1.ScoreRequest{Game: "abalone"})
			return err
		}, ReasonInvalidState, "state", codes.InvalidArgument},
		{"bad text", func() error {
			_, err := s.Score(ctx, &gamerulesv1.ScoreRequest{Game: "abalone", State: textState("garbage")})
			return err
		}, ReasonInvalidState, "state.text", codes.InvalidArgument},
		{"typed state of another game", func() error {
			_, err := s.Score(ctx, &gamerulesv1.ScoreRequest{Game: "abalone", State: &gamerulesv1.GameState{State: &gamerulesv1.GameState_Backgammon{Backgammon: &gamerulesv1.BackgammonState{}}}})
			return err
		}, ReasonInvalidState, "state", codes.InvalidArgument},
		{"options of another game", func() error {
			_, err := s.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "abalone", Options: &gamerulesv1.NewGameRequest_Labyrinth{Labyrinth: &gamerulesv1.LabyrinthOptions{}}})
			return err
		}, ReasonInvalidOptions, "options", codes.InvalidArgument},
		{"missing move", func() error {
			_, err := s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: textState("n=0")})
			return err
		}, ReasonIllegalMove, "move", codes.InvalidArgument},
		{"illegal move", func() error {
			_, err := s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: textState("n=0"), Move: &gamerulesv1.Move{Notation: "dec"}})
			return err
		}, ReasonIllegalMove, "move.notation", codes.InvalidArgument},
		{"game over", func() error {
			_, err := s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: textState("n=3"), Move: &gamerulesv1.Move{Notation: "inc"}})
			return err
		}, ReasonGameOver, "move.notation", codes.InvalidArgument},
		{"game over beats a malformed move", func() error {
			_, err := s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: textState("n=3"), Move: &gamerulesv1.Move{Notation: "garbage"}})
			return err
		}, ReasonGameOver, "move.notation", codes.InvalidArgument},
		{"observe a player who is not in the game", func() error {
			_, err := s.ObserveState(ctx, &gamerulesv1.ObserveStateRequest{Game: "abalone", State: textState("n=0"), Player: proto.Int32(2)})
			return err
		}, ReasonInvalidRequest, "player", codes.InvalidArgument},
		{"engine bug", func() error {
			_, err := s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: textState("n=0"), Move: &gamerulesv1.Move{Notation: "boom"}})
			return err
		}, "", "", codes.Internal},
	} {
		err := tc.call()
		st, _ := status.FromError(err)
		if st.Code() != tc.code {
			t.Errorf("%s: code %v (%v); want %v", tc.name, st.Code(), err, tc.code)
			continue
		}
		var reason, field string
		for _, d := range st.Details() {
			switch d := d.(type) {
			case *errdetails.ErrorInfo:
				reason = d.GetReason()
				if d.GetDomain() != ErrorDomain {
					t.Errorf("%s: domain %q", tc.name, d.GetDomain())
				}
			case *errdetails.BadRequest:
				field = d.GetFieldViolations()[0].GetField()
			}
		}
		if reason != tc.reason || field != tc.field {
			t.Errorf("%s: reason %q field %q; want %q %q (%v)", tc.name, reason, field, tc.reason, tc.field, err)
		}
	}
}

func TestSeedsAndScore(t *testing.T) {
	s := fakeServer()
	ctx := context.Background()
	seed := uint64(5)
	ng, err := s.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: "abalone", Seed: &seed})
	if err != nil || ng.GetSeed() != 5 || ng.GetState().GetText() != "n=2" {
		t.Fatalf("NewGame(seed 5) = %v, %v; want n=2 with seed 5", ng, err)
	}
	am, err := s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: ng.GetState(), Move: &gamerulesv1.Move{Notation: "inc"}})
	if err != nil || am.Seed != nil || am.GetState().GetText() != "n=3" {
		t.Fatalf("ApplyMove(inc) = %v, %v; want n=3 and no seed", am, err)
	}
	am, err = s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: "abalone", State: ng.GetState(), Move: &gamerulesv1.Move{Notation: "draw"}, Seed: &seed})
	if err != nil || am.GetSeed() != 5 {
		t.Fatalf("ApplyMove(draw, seed 5) = %v, %v; want the seed echoed", am, err)
	}
	sc, err := s.Score(ctx, &gamerulesv1.ScoreRequest{Game: "abalone", State: am.GetState()})
	if err != nil || !sc.GetFinished() || sc.Winner == nil || sc.GetWinner() != 1 || fmt.Sprint(sc.GetPoints()) != "[0 3]" || sc.GetDetail() != "done" {
		t.Fatalf("Score = %v, %v; want finished, winner 1, points [0 3]", sc, err)
	}
	sc, err = s.Score(ctx, &gamerulesv1.ScoreRequest{Game: "abalone", State: ng.GetState()})
	if err != nil || sc.GetFinished() || sc.Winner != nil {
		t.Fatalf("Score(ongoing) = %v, %v; want unfinished with no winner", sc, err)
	}
}

func TestDecodeStateAgreement(t *testing.T) {
	parse := func(s string) (fakeText, error) { return fakeText(s), nil }
	typed := func(v string) func() (fakeText, error) { return func() (fakeText, error) { return fakeText(v), nil } }
	if got, err := decodeState(&gamerulesv1.GameState{Text: "a"}, true, parse, typed("a")); err != nil || got != "a" {
		t.Errorf("agreeing text and typed: %v, %v", got, err)
	}
	if _, err := decodeState(&gamerulesv1.GameState{Text: "a"}, true, parse, typed("b")); !errors.Is(err, game.ErrInvalidState) {
		t.Errorf("disagreeing text and typed: %v; want ErrInvalidState", err)
	}
	if got, err := decodeState(&gamerulesv1.GameState{}, true, parse, typed("b")); err != nil || got != "b" {
		t.Errorf("typed only: %v, %v", got, err)
	}
	if _, err := decodeMove(&gamerulesv1.Move{Notation: "x"}, true, parse, typed("y")); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("disagreeing move notation and typed: %v; want ErrIllegalMove", err)
	}
}

type fakeText string

func (f fakeText) String() string { return string(f) }

// TestErrorsStayShort: errors quote long inputs only in part, so a huge bad
// request does not make a huge answer (or log line).
func TestErrorsStayShort(t *testing.T) {
	s := New()
	ctx := context.Background()
	huge := strings.Repeat("x", 1<<20)
	calls := map[string]func() error{
		"game": func() error {
			_, err := s.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: huge})
			return err
		},
	}
	for _, id := range gameIDs() {
		calls[id+" state"] = func() error {
			_, err := s.LegalMoves(ctx, &gamerulesv1.LegalMovesRequest{Game: id, State: &gamerulesv1.GameState{Text: huge}})
			return err
		}
		calls[id+" move"] = func() error {
			ng, err := s.NewGame(ctx, &gamerulesv1.NewGameRequest{Game: id})
			if err != nil {
				return err
			}
			_, err = s.ApplyMove(ctx, &gamerulesv1.ApplyMoveRequest{Game: id, State: ng.GetState(), Move: &gamerulesv1.Move{Notation: huge}})
			return err
		}
	}
	for name, call := range calls {
		err := call()
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: %v; want INVALID_ARGUMENT", name, status.Code(err))
			continue
		}
		if n := len(status.Convert(err).Message()); n > 1000 {
			t.Errorf("%s: error message is %d bytes long", name, n)
		}
	}
}

// newSeededRand draws what rand.New(rand.NewPCG(…)) draws from the same seeds.
func TestNewSeededRand(t *testing.T) {
	for _, seed := range []uint64{0, 1, 0x5851f42d4c957f2d, 1<<64 - 1} {
		got, want := newSeededRand(seed, seed^7), rand.New(rand.NewPCG(seed, seed^7))
		for i := range 100 {
			if g, w := got.Uint64(), want.Uint64(); g != w {
				t.Fatalf("seed %d, draw %d: %d; rand.New(rand.NewPCG) gives %d", seed, i, g, w)
			}
			if g, w := got.IntN(6), want.IntN(6); g != w {
				t.Fatalf("seed %d, draw %d: IntN(6) %d; rand.New(rand.NewPCG) gives %d", seed, i, g, w)
			}
		}
	}
}
