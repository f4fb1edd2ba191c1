package restjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

func TestDecodeRequest(t *testing.T) {
	for _, tc := range []struct {
		body, want string // want: "" for no error, else a part of the message
	}{
		{"", ""},
		{" \n\t", ""},
		{`{"game":"abalone","state":{"text":"x"}}`, ""},
		{`{"game":"abalone"} {}`, "more data after its JSON value; send exactly one JSON object (line 1:20)"},
		{`{"game":`, "not valid JSON"},
		{`{"game":"\ud800"}`, "half of a UTF-16 surrogate pair"},
		{`{"gme":"abalone"}`, `unknown field "gme"`},
		{`{"game":"abalone"}` + " \n ", ""},
		{`[` + strings.Repeat(`{},`, MaxElements) + `{}]`, "more than 10000 JSON objects and strings (10001)"},
	} {
		var req gamerulesv1.LegalMovesRequest
		err := DecodeRequest([]byte(tc.body), &req)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("DecodeRequest(%.40q) = %v; want nil", tc.body, err)
		case tc.want != "" && (status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("DecodeRequest(%.40q) = %v; want INVALID_ARGUMENT with %q", tc.body, err, tc.want)
		}
	}
}

func TestErrorBody(t *testing.T) {
	got := strings.ReplaceAll(string(ErrorBody(errors.New("boom"))), " ", "")
	if got != `{"code":2,"message":"boom","details":[]}` {
		t.Errorf("ErrorBody(plain error) = %s; want UNKNOWN with its text", got)
	}
	got = strings.ReplaceAll(string(ErrorBody(ErrPanic)), " ", "")
	if got != `{"code":13,"message":"internalerror","details":[]}` {
		t.Errorf("ErrorBody(ErrPanic) = %s", got)
	}
}

func TestMarshalIsProtojson(t *testing.T) {
	m := &gamerulesv1.ScoreResponse{Finished: true, Points: []int32{0, 2}}
	fast, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := MarshalOptions.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ReplaceAll(string(slow), " ", "") != string(fast) {
		t.Errorf("Marshal = %s; protojson %s", fast, slow)
	}
}

// TestMarshalAnswersAreTheirOwn: Marshal writes into a reused scratch
// buffer; each answer it returns is a copy that later calls (of smaller,
// larger and refused messages) leave as it was, and equals protojson's.
func TestMarshalAnswersAreTheirOwn(t *testing.T) {
	big := &gamerulesv1.LegalMovesResponse{}
	for i := range 400 {
		big.Moves = append(big.Moves, &gamerulesv1.Move{Notation: strings.Repeat("m", i%30)})
	}
	msgs := []proto.Message{
		&gamerulesv1.Move{Notation: "24/18 13/11"},
		big,
		&gamerulesv1.Move{Notation: "bad \xff"}, // refused by fastjson and protojson
		&gamerulesv1.GameState{Text: "x"},
		big,
	}
	var outs [][]byte
	for round := 0; round < 3; round++ {
		for _, m := range msgs {
			b, err := Marshal(m)
			if err != nil {
				b = nil
			}
			outs = append(outs, b)
		}
	}
	for i, b := range outs {
		m := msgs[i%len(msgs)]
		want, err := MarshalOptions.Marshal(m)
		if err != nil {
			want = nil
		} else {
			var c bytes.Buffer
			if err := json.Compact(&c, want); err != nil {
				t.Fatal(err)
			}
			want = c.Bytes()
		}
		if !bytes.Equal(b, want) {
			t.Errorf("answer %d (%T): %.60q, want %.60q", i, m, b, want)
		}
	}
}
