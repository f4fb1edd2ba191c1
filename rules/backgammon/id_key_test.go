package backgammon

import (
	"math/rand/v2"
	"testing"
)

// matchKeyFields is matchKey written field by field with matchKey.put,
// the reference the two-word matchKey is tested against.
func (s State) matchKeyFields() (k matchKey) {
	k.put(midCube, 4, uint32(s.cubeLog))
	k.put(midCubeOwner, 2, uint32(s.owner))
	k.put(midDiceOwner, 1, uint32(s.turn))
	if s.crawford {
		k.put(midCrawford, 1, 1)
	}
	var gs uint32
	switch s.phase {
	case PhaseRoll, PhaseMove:
		gs = 1
	case PhaseOver:
		gs = uint32(s.end)
	}
	k.put(midGameState, 3, gs)
	k.put(midTurn, 1, uint32(s.actor))
	if s.doubled {
		k.put(midDouble, 1, 1)
	}
	k.put(midResign, 2, uint32(s.resign))
	k.put(midDie1, 3, uint32(s.dice[0]))
	k.put(midDie2, 3, uint32(s.dice[1]))
	k.put(midMatchLen, 15, uint32(s.matchLen))
	k.put(midScore0, 15, uint32(s.score[0]))
	k.put(midScore1, 15, uint32(s.score[1]))
	if !s.jacoby {
		k.put(midNoJacoby, 1, 1)
	}
	return k
}

// TestKeysMatchBitByBit: the word-at-a-time Position and Match ID keys
// equal the bit-by-bit references on the states of seeded random games
// (the cube, a match and resignations included) and on boards no valid
// State has (more than 15 checkers on a point, more than 80 bits).
func TestKeysMatchBitByBit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	opts := []Options{{}, {Cube: true}, {Cube: true, Beavers: true}, {MatchLength: 5}}
	checked := 0
	check := func(s State) {
		t.Helper()
		if got, want := s.positionKey(), s.positionKeyBits(); got != want {
			t.Fatalf("%v: positionKey %x; bit by bit %x", s.board, got, want)
		}
		if got, want := s.matchKey(), s.matchKeyFields(); got != want {
			t.Fatalf("%+v: matchKey %x; field by field %x", s, got, want)
		}
		checked++
	}
	for g := 0; g < 100; g++ {
		s, err := New(opts[g%len(opts)])
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 600; ply++ {
			check(s)
			moves := s.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if s, err = s.Apply(moves[r.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Every field at its widest: the 15-bit score fields cross bit 64.
	s, _ := New(Options{MatchLength: 5})
	s.score = [2]uint16{0x7fff, 0x7fff}
	s.matchLen, s.cubeLog, s.owner, s.resign, s.dice = 0x7fff, 12, 3, 3, [2]uint8{6, 6}
	s.crawford, s.doubled, s.jacoby, s.actor, s.turn = true, true, false, 1, 1
	check(s)
	s.jacoby = true
	check(s)
	// Boards no valid State has: the reference cuts at 80 bits.
	var b State
	b.board[0][3], b.board[1][20] = 40, 17
	check(b)
	b.board[0][3] = 15
	check(b)
	for i := range b.board[1] {
		b.board[1][i] = 2
	}
	check(b)
	if checked < 5000 {
		t.Errorf("only %d states checked", checked)
	}
}

// TestAppendTexts: AppendTexts writes each state's String, whether the
// state shares its Match ID part with the one before (the plays of one
// roll, the rolls of one state) or not (the cube's and a match's states,
// a finished game, mixed in one list).
func TestAppendTexts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var states []State
	for g := 0; g < 9; g++ {
		o := []Options{{}, {Cube: true, Beavers: true}, {MatchLength: 7}}[g%3]
		s, err := New(o)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 300; ply++ {
			_, next := s.LegalMovesWithResults()
			if len(next) == 0 {
				break
			}
			states = append(states, next...)
			s = next[r.IntN(len(next))]
		}
	}
	buf, ends := AppendTexts([]byte("kept"), []int{4}, states)
	if len(ends) != len(states)+1 || string(buf[:4]) != "kept" {
		t.Fatalf("AppendTexts kept %q and %d ends; want the 4 bytes before and %d ends", buf[:4], len(ends), len(states)+1)
	}
	finished := 0
	for i, s := range states {
		if got := string(buf[ends[i]:ends[i+1]]); got != s.String() {
			t.Fatalf("state %d: AppendTexts wrote %q; String is %q", i, got, s.String())
		}
		if got := string(buf[ends[i] : ends[i]+14]); got != s.PositionID() {
			t.Fatalf("state %d: AppendTexts wrote Position ID %q; PositionID (encoding/base64) is %q", i, got, s.PositionID())
		}
		if s.Phase() == PhaseOver {
			finished++
		}
	}
	if len(states) < 5000 || finished == 0 {
		t.Errorf("%d states, %d finished: want more, and some finished", len(states), finished)
	}
}

// TestAppendKey64: the 14 characters appendKey64 writes for a key are
// encoding/base64's (appendEncode64), for keys of every bit.
func TestAppendKey64(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	keys := [][10]byte{{}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}
	for bit := range 80 {
		var k [10]byte
		k[bit>>3] = 1 << (bit & 7)
		keys = append(keys, k)
	}
	for range 10000 {
		var k [10]byte
		for i := range k {
			k[i] = byte(r.Uint32())
		}
		keys = append(keys, k)
	}
	for _, k := range keys {
		got := string(appendKey64([]byte("x"), &k))
		if want := "x" + string(appendEncode64(nil, k[:])); got != want {
			t.Fatalf("key %x: appendKey64 wrote %q; encoding/base64 %q", k, got, want)
		}
	}
}
