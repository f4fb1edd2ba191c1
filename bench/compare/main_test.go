package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/bench/report"
)

// TestWrite: the table gives each build's median and spread of CPU per
// request, the ratio of the medians and the allocations, and the geometric
// mean of the ratios; a call measured in one build only is left out.
func TestWrite(t *testing.T) {
	s := func(cpu, mallocs float64) report.Sample {
		return report.Sample{Case: "abalone/Score", Transport: "grpc", Requests: 10, CPUMicros: cpu * 10, Mallocs: mallocs * 10}
	}
	b := map[key][]report.Sample{{"abalone/Score", "grpc"}: {s(100, 5), s(120, 5), s(110, 5)}, {"only/before", "rest"}: {s(1, 1)}}
	a := map[key][]report.Sample{{"abalone/Score", "grpc"}: {s(90, 4), s(99, 4), s(200, 4)}}
	var out bytes.Buffer
	if err := write(&out, b, a); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| abalone/Score | grpc | 110 (100–120) | 99 (90–200) | 0.90 | 5 → 4 |", "over 1 rows: 0.900"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "only/before") {
		t.Errorf("a call of one build only is listed:\n%s", out.String())
	}
	if err := write(&out, b, map[key][]report.Sample{}); err == nil {
		t.Error("no common call: want an error")
	}
}
