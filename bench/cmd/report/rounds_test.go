package main

import (
	"testing"

	"github.com/gtmgate/gtmgate/bench/loadgen"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want float64
	}{
		{"one", []float64{7}, 7},
		{"odd, unsorted", []float64{3, 1, 2}, 2},
		{"even", []float64{4, 1, 3, 2}, 2.5},
		{"outlier", []float64{10, 11, 1000}, 11},
	}
	for _, tc := range tests {
		if got := median(tc.in); got != tc.want {
			t.Errorf("%s: median %v = %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestIndexRunsTakesMedianOfRounds(t *testing.T) {
	run := func(rps, p50 float64, errs int) loadgen.Result {
		return loadgen.Result{Scenario: "site", Variant: "about-nginx", Concurrency: 32, RPS: rps, P50: p50,
			Requests: 100, Errors: errs, Max: p50 * 10, Status: map[string]int{"200": 100}, ServerRSSKB: int64(rps)}
	}
	ix := indexRuns([]loadgen.Result{run(900, 1.0, 0), run(300, 9.0, 1), run(1000, 0.9, 0),
		{Scenario: "site", Variant: "about-nginx", Concurrency: 1, RPS: 5, Requests: 5}})
	got := ix[ref{"site", "about-nginx"}][32]
	if got.RPS != 900 || got.P50 != 1.0 {
		t.Errorf("median rps %v p50 %v, want 900 and 1.0", got.RPS, got.P50)
	}
	if got.Requests != 300 || got.Errors != 1 || got.Status["200"] != 300 || got.Max != 90 || got.ServerRSSKB != 1000 {
		t.Errorf("sums and maxima: requests %d errors %d status %v max %v rss %d", got.Requests, got.Errors, got.Status, got.Max, got.ServerRSSKB)
	}
	if one := ix[ref{"site", "about-nginx"}][1]; one.RPS != 5 {
		t.Errorf("single round changed: %+v", one)
	}
}
