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
	got := ix[ref{"site", "about-nginx"}][32][""]
	if got.RPS != 900 || got.P50 != 1.0 {
		t.Errorf("median rps %v p50 %v, want 900 and 1.0", got.RPS, got.P50)
	}
	if got.Requests != 300 || got.Errors != 1 || got.Status["200"] != 300 || got.Max != 90 || got.ServerRSSKB != 1000 {
		t.Errorf("sums and maxima: requests %d errors %d status %v max %v rss %d", got.Requests, got.Errors, got.Status, got.Max, got.ServerRSSKB)
	}
	if one := ix[ref{"site", "about-nginx"}][1][""]; one.RPS != 5 {
		t.Errorf("single round changed: %+v", one)
	}
}

// run is one loadgen result of a round, for the tests below.
func roundRun(scen, variant, round string, c int, p50, rps float64) loadgen.Result {
	return loadgen.Result{Scenario: scen, Variant: variant, Round: round, Concurrency: c, P50: p50, P99: 2 * p50, RPS: rps,
		Requests: 100, Status: map[string]int{"200": 100}}
}

func TestComparisonRatiosStayWithinRounds(t *testing.T) {
	// Round 1 is slow for everyone, round 3 fast; round 4 measured only the
	// subject, so nothing may set it against another round's floor.
	runs := []loadgen.Result{
		roundRun("rest", "direct", "rest-1", 1, 2, 500), roundRun("rest", "floor", "rest-1", 1, 3, 400), roundRun("rest", "gateway", "rest-1", 1, 5, 200),
		roundRun("rest", "direct", "rest-2", 1, 1, 900), roundRun("rest", "floor", "rest-2", 1, 1.5, 800), roundRun("rest", "gateway", "rest-2", 1, 2.5, 400),
		roundRun("rest", "direct", "rest-3", 1, 0.5, 1000), roundRun("rest", "floor", "rest-3", 1, 0.7, 900), roundRun("rest", "gateway", "rest-3", 1, 0.9, 800),
		roundRun("rest", "gateway", "rest-4", 1, 0.1, 5000),
	}
	c := comparison{scenario: "rest", name: "t", subject: ref{"rest", "gateway"}, floor: ref{"rest", "floor"},
		subjectBase: &ref{"rest", "direct"}, floorBase: &ref{"rest", "direct"}}
	got := c.at(indexRuns(runs), 1)
	// Added p50 per round: gateway 3, 1.5, 0.4; floor 1, 0.5, 0.2; ratios 3, 3, 2.
	if got.Rounds != 3 {
		t.Fatalf("rounds %d, want 3", got.Rounds)
	}
	if got.SubjectP50 != 1.5 || got.FloorP50 != 0.5 {
		t.Errorf("added p50 medians %v / %v, want 1.5 / 0.5", got.SubjectP50, got.FloorP50)
	}
	if got.RatioP50 == nil || *got.RatioP50 != 3 || got.RatioP50Spread == nil || *got.RatioP50Spread != [2]float64{2, 3} {
		t.Errorf("×p50 %v spread %v, want 3 (2–3)", got.RatioP50, got.RatioP50Spread)
	}
	// rps ratios 0.5, 0.5, 0.889 (ratios are rounded to 3 places): median 0.5.
	if got.RPSRatio == nil || *got.RPSRatio != 0.5 || got.RPSSpread[1] != 0.889 {
		t.Errorf("×rps %v spread %v", got.RPSRatio, got.RPSSpread)
	}
}

func TestComparisonWithoutCommonRound(t *testing.T) {
	runs := []loadgen.Result{roundRun("mcp", "gateway", "mcp-1", 8, 2, 100), roundRun("mcp", "sdk", "mcp-2", 8, 1, 200)}
	c := comparison{scenario: "mcp", name: "t", subject: ref{"mcp", "gateway"}, floor: ref{"mcp", "sdk"}}
	got := c.at(indexRuns(runs), 8)
	if got.Rounds != 0 || got.Unavailable == "" || got.RatioP50 != nil {
		t.Errorf("want unavailable without a common round, got %+v", got)
	}
}

func TestFoldRounds(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	rows := []comparisonResult{
		{SubjectP50: 4, FloorP50: 2, RatioP50: f(2), SubjectRSS: 100, FloorRSS: 50, SubjectCPU: 30, FloorCPU: 10, CPURatio: f(3)},
		{SubjectP50: 9, FloorP50: 1, RatioP50: f(9), SubjectRSS: 120, FloorRSS: 40, Errors: true},
		{SubjectP50: 3, FloorP50: 0, RatioP50: nil, SubjectRSS: 90, FloorRSS: 60, SubjectCPU: 20, FloorCPU: 10, CPURatio: f(2)},
	}
	got := foldRounds(rows)
	if got.SubjectP50 != 4 || got.FloorP50 != 1 {
		t.Errorf("medians %v / %v, want 4 / 1", got.SubjectP50, got.FloorP50)
	}
	// A round without a ratio (its floor lost in noise) is left out of it.
	if *got.RatioP50 != 5.5 || *got.RatioP50Spread != [2]float64{2, 9} {
		t.Errorf("×p50 %v %v, want 5.5 (2–9)", *got.RatioP50, *got.RatioP50Spread)
	}
	if *got.CPURatio != 2.5 || got.SubjectRSS != 120 || got.FloorRSS != 60 || *got.RSSRatio != 2 || !got.Errors {
		t.Errorf("cpu %v rss %d/%d ×%v errors %v", *got.CPURatio, got.SubjectRSS, got.FloorRSS, *got.RSSRatio, got.Errors)
	}
}

func TestFederatedRows(t *testing.T) {
	gw := func(variant, round string, p50, cpu, up float64, rss int64) loadgen.Result {
		r := roundRun("federated", variant, round, 1, p50, 100)
		r.ServerCPUPerRequest, r.UpstreamCPUPerRequest, r.ServerRSSKB = cpu, up, rss
		return r
	}
	r := &run{IdleRSS: map[string]int64{"federated/mcpjungle": 2048}, IdleAnon: map[string]int64{"federated/mcpjungle": 1024}, Runs: []loadgen.Result{
		gw("direct", "mcp-1", 1, 50, 0, 0), gw("mcpjungle", "mcp-1", 3, 200, 90, 4096),
		gw("direct", "mcp-2", 2, 60, 0, 0), gw("mcpjungle", "mcp-2", 3, 100, 70, 3072),
		gw("direct", "mcp-3", 1, 40, 0, 0), gw("mcpjungle", "mcp-3", 4, 300, 80, 1024),
	}}
	rows := federatedRows(r)
	if len(rows) != 1 {
		t.Fatalf("rows %+v", rows)
	}
	got := rows[0]
	// Added p50 per round: 2, 1, 3; over direct: 2, 0.5, 3.
	if got.Gateway != "MCPJungle" || got.Rounds != 3 || got.AddedP50 != 2 || got.AddedP50Spread != [2]float64{1, 3} || *got.AddedRatio != 2 {
		t.Errorf("added %+v ratio %v", got, *got.AddedRatio)
	}
	if got.GatewayCPU != 200 || got.UpstreamCPU != 80 || got.DirectCPU != 50 || got.IdleRSSKB != 2048 || got.IdleAnonKB != 1024 || got.LoadRSSKB != 4096 {
		t.Errorf("cpu and rss %+v", got)
	}
}
