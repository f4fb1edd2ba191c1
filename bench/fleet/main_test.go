package main

import (
	"strings"
	"testing"
)

// TestParseCounts: the API calls of a replica's /metrics, REST (POST
// routes) apart from gRPC, whose counter also counts the REST calls (the
// in-process gateway runs the interceptors); probes, metrics scrapes and
// the health service are left out.
func TestParseCounts(t *testing.T) {
	const text = `# HELP grpc_server_handled_total x
grpc_server_handled_total{grpc_code="OK",grpc_method="LegalMoves",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 30
grpc_server_handled_total{grpc_code="Unavailable",grpc_method="Playout",grpc_service="gamerules.v1.GameRules",grpc_type="unary"} 2
grpc_server_handled_total{grpc_code="OK",grpc_method="Watch",grpc_service="grpc.health.v1.Health",grpc_type="server_stream"} 7
gamerules_http_requests_total{code="200",method="post",route="/v1/games/{game}:legalMoves"} 10
gamerules_http_requests_total{code="200",method="get",route="/readyz"} 5
gamerules_http_requests_total{code="429",method="post",route="/v1/games:batch"} 1
`
	c, err := parseCounts(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if c.grpc != 21 || c.rest != 11 {
		t.Errorf("counts %+v; want gRPC 32-11 = 21, REST 11", c)
	}
	if _, err := parseCounts(strings.NewReader(`gamerules_http_requests_total{method="post"} x` + "\n")); err == nil {
		t.Error("a value that is not a number: no error")
	}
}

func TestMaxOverMean(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{{[]float64{10, 10, 10}, 1}, {[]float64{20, 10, 0}, 2}, {[]float64{0, 0}, 0}, {[]float64{13, 10, 7}, 1.3}} {
		if got := maxOverMean(c.v); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("maxOverMean(%v) = %v; want %v", c.v, got, c.want)
		}
	}
}
