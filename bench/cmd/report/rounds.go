package main

import (
	"slices"

	"github.com/gtmgate/gtmgate/bench/loadgen"
)

// medianOfRounds folds several runs of one variant at one concurrency that
// carry no round (results written before runs were named by round) or the
// same one into one result: the median of each rate and percentile, the
// sums of requests and failures. Comparisons otherwise work round by round
// (comparison.at), since on a shared machine the load drifts over minutes.
func medianOfRounds(runs []*loadgen.Result) *loadgen.Result {
	if len(runs) == 1 {
		return runs[0]
	}
	out := *runs[0]
	out.Status = map[string]int{}
	out.Requests, out.Errors, out.Non2xx, out.Seconds = 0, 0, 0, 0
	for _, r := range runs {
		out.Requests += r.Requests
		out.Errors += r.Errors
		out.Non2xx += r.Non2xx
		out.Seconds += r.Seconds
		for k, v := range r.Status {
			out.Status[k] += v
		}
		if out.FirstError == "" {
			out.FirstError = r.FirstError
		}
	}
	for _, f := range []func(*loadgen.Result) *float64{
		func(r *loadgen.Result) *float64 { return &r.RPS },
		func(r *loadgen.Result) *float64 { return &r.P50 },
		func(r *loadgen.Result) *float64 { return &r.P90 },
		func(r *loadgen.Result) *float64 { return &r.P99 },
		func(r *loadgen.Result) *float64 { return &r.Mean },
		func(r *loadgen.Result) *float64 { return &r.TTFB50 },
		func(r *loadgen.Result) *float64 { return &r.TTFB90 },
		func(r *loadgen.Result) *float64 { return &r.TTFB99 },
		func(r *loadgen.Result) *float64 { return &r.ServerCPUPerRequest },
	} {
		vals := make([]float64, len(runs))
		for i, r := range runs {
			vals[i] = *f(r)
		}
		*f(&out) = median(vals)
	}
	// Maxima stay maxima; so does resident size, the most a server held.
	out.Max, out.TTFBMax, out.ServerRSSKB = 0, 0, 0
	for _, r := range runs {
		out.Max, out.TTFBMax = max(out.Max, r.Max), max(out.TTFBMax, r.TTFBMax)
		out.ServerRSSKB = max(out.ServerRSSKB, r.ServerRSSKB)
	}
	return &out
}

// median of vals (the mean of the middle two for an even count).
func median(vals []float64) float64 {
	s := slices.Clone(vals)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// commonRounds lists, sorted, the rounds in which every one of refs was
// measured at concurrency n.
func commonRounds(ix index, n int, refs []ref) []string {
	var out []string
	for round := range ix[refs[0]][n] {
		all := true
		for _, r := range refs[1:] {
			if ix[r][n][round] == nil {
				all = false
				break
			}
		}
		if all {
			out = append(out, round)
		}
	}
	slices.Sort(out)
	return out
}

// foldRounds folds one comparison's rounds into one row: the median of each
// latency, rate and CPU figure and of each ratio (the median of the rounds'
// ratios, not the ratio of medians), each ratio's spread (lowest and highest
// round), the largest resident sizes, and errors if any round had them.
func foldRounds(rows []comparisonResult) comparisonResult {
	out := rows[0]
	if len(rows) == 1 {
		return out
	}
	for _, f := range []func(*comparisonResult) *float64{
		func(c *comparisonResult) *float64 { return &c.SubjectP50 },
		func(c *comparisonResult) *float64 { return &c.FloorP50 },
		func(c *comparisonResult) *float64 { return &c.SubjectP99 },
		func(c *comparisonResult) *float64 { return &c.FloorP99 },
		func(c *comparisonResult) *float64 { return &c.SubjectRPS },
		func(c *comparisonResult) *float64 { return &c.FloorRPS },
		func(c *comparisonResult) *float64 { return &c.SubjectCPU },
		func(c *comparisonResult) *float64 { return &c.FloorCPU },
	} {
		vals := make([]float64, len(rows))
		for i := range rows {
			vals[i] = *f(&rows[i])
		}
		*f(&out) = round3(median(vals))
	}
	for _, f := range []struct {
		ratio  func(*comparisonResult) **float64
		spread func(*comparisonResult) **[2]float64
	}{
		{func(c *comparisonResult) **float64 { return &c.RatioP50 }, func(c *comparisonResult) **[2]float64 { return &c.RatioP50Spread }},
		{func(c *comparisonResult) **float64 { return &c.RatioP99 }, func(c *comparisonResult) **[2]float64 { return &c.RatioP99Spread }},
		{func(c *comparisonResult) **float64 { return &c.RPSRatio }, func(c *comparisonResult) **[2]float64 { return &c.RPSSpread }},
		{func(c *comparisonResult) **float64 { return &c.CPURatio }, func(c *comparisonResult) **[2]float64 { return &c.CPUSpread }},
	} {
		*f.ratio(&out), *f.spread(&out) = medianAndSpread(rows, f.ratio)
	}
	out.SubjectRSS, out.FloorRSS = 0, 0
	for _, r := range rows {
		out.Errors = out.Errors || r.Errors
		out.SubjectRSS, out.FloorRSS = max(out.SubjectRSS, r.SubjectRSS), max(out.FloorRSS, r.FloorRSS)
	}
	out.RSSRatio = nil
	if out.SubjectRSS > 0 && out.FloorRSS > 0 {
		out.RSSRatio = ratio(float64(out.SubjectRSS), float64(out.FloorRSS))
	}
	return out
}

// medianAndSpread is the median, lowest and highest of one ratio over the
// rounds that have it (a round whose floor was lost in noise has none).
func medianAndSpread(rows []comparisonResult, field func(*comparisonResult) **float64) (*float64, *[2]float64) {
	var vals []float64
	for i := range rows {
		if v := *field(&rows[i]); v != nil {
			vals = append(vals, *v)
		}
	}
	if len(vals) == 0 {
		return nil, nil
	}
	m := round3(median(vals))
	return &m, &[2]float64{slices.Min(vals), slices.Max(vals)}
}
