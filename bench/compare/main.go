// Command compare prints, side by side, what two builds of gamerulesd cost
// per request in runs of bench/runner that alternated between them (bench/ab.sh):
// for every call and transport, the server CPU per request (median and
// min–max over the runs of each build), the ratio of the medians (after /
// before) and the allocations per request, then the geometric mean of the
// ratios.
//
// Usage:
//
//	go run ./bench/compare -before 'bench/results/ab/before-*.json' -after 'bench/results/ab/after-*.json'
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/gamerules/gamerules/bench/report"
)

func main() {
	before := flag.String("before", "", "glob of the results files (bench/runner -out) of the build before")
	after := flag.String("after", "", "glob of the results files of the build after")
	flag.Parse()
	b, err := load(*before)
	if err == nil {
		var a map[key][]report.Sample
		if a, err = load(*after); err == nil {
			err = write(os.Stdout, b, a)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// key is one call on one transport.
type key struct{ call, transport string }

// load reads every results file the glob names and groups their samples.
func load(glob string) (map[key][]report.Sample, error) {
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no results file matches %q", glob)
	}
	out := map[key][]report.Sample{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var r report.Results
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		for _, s := range r.Samples {
			if s.Requests > 0 {
				k := key{s.Case, s.Transport}
				if s.Case == "noop" {
					k.call = "noop (" + s.Group + ")"
				}
				out[k] = append(out[k], s)
			}
		}
	}
	return out, nil
}

// write prints the Markdown table of before b against after a.
func write(w io.Writer, b, a map[key][]report.Sample) error {
	keys := make([]key, 0, len(b))
	for k := range b {
		if len(a[k]) > 0 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].call != keys[j].call {
			return keys[i].call < keys[j].call
		}
		return keys[i].transport < keys[j].transport
	})
	fmt.Fprintln(w, "| call | transport | CPU µs/req before: median (min–max) | after | after / before | allocs/req before → after |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	logSum, n := 0.0, 0
	for _, k := range keys {
		cb, ca := report.Summarize(figure(b[k], report.Sample.CPUPerReq)), report.Summarize(figure(a[k], report.Sample.CPUPerReq))
		ab, aa := report.Summarize(figure(b[k], report.Sample.AllocsPerReq)), report.Summarize(figure(a[k], report.Sample.AllocsPerReq))
		ratio := ca.Median / cb.Median
		if cb.Median > 0 && ca.Median > 0 {
			logSum, n = logSum+math.Log(ratio), n+1
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.2f | %.0f → %.0f |\n", k.call, k.transport, cell(cb), cell(ca), ratio, ab.Median, aa.Median)
	}
	if n == 0 {
		return fmt.Errorf("no call measured in both builds")
	}
	fmt.Fprintf(w, "\nGeometric mean of after / before over %d rows: %.3f\n", n, math.Exp(logSum/float64(n)))
	return nil
}

// figure is f of every sample.
func figure(ss []report.Sample, f func(report.Sample) float64) []float64 {
	out := make([]float64, 0, len(ss))
	for _, s := range ss {
		out = append(out, f(s))
	}
	return out
}

// cell is "median (min–max)".
func cell(s report.Stat) string {
	return fmt.Sprintf("%.0f (%.0f–%.0f)", s.Median, s.Min, s.Max)
}
