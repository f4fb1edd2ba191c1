package main

import (
	"math"
	"testing"

	"github.com/gamerules/gamerules/bench/report"
)

// TestParseGhz: ghz's JSON report (-O json) as v0.120.0 writes it
// (durations in ns), with a non-OK status counted as errors.
func TestParseGhz(t *testing.T) {
	out := []byte(`{"count":1000,"total":250000000,"average":5000000,"rps":4000.5,
	 "latencyDistribution":[{"percentage":10,"latency":1000000},{"percentage":50,"latency":4500000},{"percentage":99,"latency":12000000}],
	 "statusCodeDistribution":{"OK":990,"Unavailable":10}}`)
	var s report.Sample
	if err := parseGhz(out, &s); err != nil {
		t.Fatal(err)
	}
	if s.Requests != 1000 || s.Errors != 10 || s.ErrorKinds["Unavailable"] != 10 || s.RPS != 4000.5 || s.P50Ms != 4.5 || s.P99Ms != 12 || s.Seconds != 0.25 {
		t.Errorf("parseGhz = %+v", s)
	}
}

// TestParseHey: hey's per-request CSV (-o csv): percentiles, rate over
// the span of the answers, non-200 as errors.
func TestParseHey(t *testing.T) {
	out := []byte("response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n" +
		"0.0010,0,0,0,0.001,0,200,0.0000\n" +
		"0.0030,0,0,0,0.003,0,200,0.1000\n" +
		"0.0020,0,0,0,0.002,0,429,0.2000\n" +
		"0.0040,0,0,0,0.004,0,200,0.3960\n")
	var s report.Sample
	if err := parseHey(out, &s); err != nil {
		t.Fatal(err)
	}
	if s.Requests != 4 || s.Errors != 1 || s.ErrorKinds["HTTP 429"] != 1 || math.Abs(s.RPS-10) > 1e-9 || math.Abs(s.P50Ms-2) > 1e-9 || math.Abs(s.P99Ms-4) > 1e-9 {
		t.Errorf("parseHey = %+v", s)
	}
}
