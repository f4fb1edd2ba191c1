package limit

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
)

// TestErrorStatusReasons: every HTTP error this package or a caller writes
// with WriteError carries an ErrorInfo (domain gamerules) whose reason says
// its kind, and the JSON a client reads has non-empty details.
func TestErrorStatusReasons(t *testing.T) {
	for _, c := range []struct {
		http   int
		code   codes.Code
		reason string
	}{
		{http.StatusBadRequest, codes.InvalidArgument, "INVALID_REQUEST"},
		{http.StatusBadRequest, codes.FailedPrecondition, "FAILED_PRECONDITION"},
		{http.StatusNotFound, codes.NotFound, "NOT_FOUND"},
		{http.StatusMethodNotAllowed, codes.Unimplemented, "METHOD_NOT_ALLOWED"},
		{http.StatusRequestTimeout, codes.DeadlineExceeded, "REQUEST_TIMEOUT"},
		{http.StatusRequestEntityTooLarge, codes.ResourceExhausted, "REQUEST_TOO_LARGE"},
		{http.StatusUnsupportedMediaType, codes.InvalidArgument, "UNSUPPORTED_MEDIA_TYPE"},
		{http.StatusTooManyRequests, codes.ResourceExhausted, "OVERLOADED"},
		{http.StatusServiceUnavailable, codes.Unavailable, "UNAVAILABLE"},
		{http.StatusInternalServerError, codes.Internal, "INTERNAL"},
		{499, codes.Canceled, "CANCELLED"},
		{http.StatusGatewayTimeout, codes.DeadlineExceeded, "DEADLINE_EXCEEDED"},
	} {
		st := ErrorStatus(c.http, c.code, "why", map[string]string{"k": "v"})
		info, ok := st.Details()[0].(*errdetails.ErrorInfo)
		if st.Code() != c.code || !ok || info.Reason != c.reason || info.Domain != Domain || info.Metadata["k"] != "v" {
			t.Errorf("ErrorStatus(%d, %v) = %v %v; want reason %s", c.http, c.code, st.Code(), st.Details(), c.reason)
		}
		rec := httptest.NewRecorder()
		WriteError(rec, c.http, c.code, "why")
		var body struct {
			Details []map[string]any `json:"details"`
		}
		if json.Unmarshal(rec.Body.Bytes(), &body) != nil || rec.Code != c.http || len(body.Details) != 1 || body.Details[0]["reason"] != c.reason {
			t.Errorf("WriteError(%d) wrote %d %s", c.http, rec.Code, rec.Body)
		}
	}
}
