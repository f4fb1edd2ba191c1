package restjson

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

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
