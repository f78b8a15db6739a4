package main

import (
	"slices"

	"github.com/gtmgate/gtmgate/bench/loadgen"
)

// medianOfRounds folds the runs of one variant at one concurrency, measured
// in several interleaved rounds, into one result: the median of each rate
// and percentile, the sums of requests and failures. On a shared machine
// the load drifts over minutes; interleaving the subject and its floor in
// rounds and taking medians keeps one slow stretch from deciding a ratio.
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
