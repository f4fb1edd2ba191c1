package rest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TestGatewayErrorAddsDetails: an error of any code reaching the gateway's
// error handler without details (a context error of the service, a
// middleware's status, a plain Go error) leaves it with an ErrorInfo of its
// kind, the gateway's "shutting down" UNAVAILABLE included.
func TestGatewayErrorAddsDetails(t *testing.T) {
	mux := NewMux(nil)
	errs := []error{errors.New("a plain error")}
	for c := codes.Canceled; c <= codes.Unauthenticated; c++ {
		errs = append(errs, status.Error(c, "bare "+c.String()))
	}
	for _, err := range errs {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/v1/games/backgammon:score", strings.NewReader(`{}`))
		_, out := runtime.MarshalerForRequest(mux, req)
		gatewayError(context.Background(), mux, out, rec, req, err)
		var b struct {
			Details []struct{ Reason, Domain string }
		}
		if json.Unmarshal(rec.Body.Bytes(), &b) != nil || len(b.Details) == 0 || b.Details[0].Reason == "" || b.Details[0].Domain != "gamerules" {
			t.Errorf("%v: answered %d %s", err, rec.Code, rec.Body)
		}
	}
}
