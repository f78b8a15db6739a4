package loadgen

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Result is the summary of one run, written as one JSON line. Latencies are
// in milliseconds; the ttfb fields are set for streaming runs only.
type Result struct {
	Scenario string `json:"scenario,omitempty"`
	Variant  string `json:"variant,omitempty"`
	// Round names the interleaved round the run belongs to (set by the
	// caller, e.g. "rest-2"): the report sets a subject only against floors
	// of the same round.
	Round       string         `json:"round,omitempty"`
	Method      string         `json:"method"`
	Path        string         `json:"path"`
	Concurrency int            `json:"concurrency"`
	Stream      bool           `json:"stream,omitempty"`
	Seconds     float64        `json:"seconds"`
	Requests    int            `json:"requests"`
	RPS         float64        `json:"rps"`
	P50         float64        `json:"p50_ms"`
	P90         float64        `json:"p90_ms"`
	P99         float64        `json:"p99_ms"`
	Max         float64        `json:"max_ms"`
	Mean        float64        `json:"mean_ms"`
	TTFB50      float64        `json:"ttfb_p50_ms,omitempty"`
	TTFB90      float64        `json:"ttfb_p90_ms,omitempty"`
	TTFB99      float64        `json:"ttfb_p99_ms,omitempty"`
	TTFBMax     float64        `json:"ttfb_max_ms,omitempty"`
	Errors      int            `json:"errors"`
	Non2xx      int            `json:"non_2xx"`
	Status      map[string]int `json:"status,omitempty"`
	FirstError  string         `json:"first_error,omitempty"`
	// ServerCPUPerRequest is the serving processes' CPU time (user plus
	// system) in the measured phase divided by its requests, in µs; set
	// when the run was given their pids.
	ServerCPUPerRequest float64 `json:"server_cpu_us_per_request,omitempty"`
	// UpstreamCPUPerRequest is the same for the processes behind the
	// target (Config.UpstreamPIDs), in µs.
	UpstreamCPUPerRequest float64 `json:"upstream_cpu_us_per_request,omitempty"`
	// ServerRSSKB is the serving processes' resident size (KiB) as the
	// measured phase ended; set with their pids.
	ServerRSSKB int64     `json:"server_rss_kb,omitempty"`
	Time        time.Time `json:"time"`
}

func summarise(cfg Config, tallies []tally, elapsed time.Duration) *Result {
	r := &Result{Method: cfg.Method, Path: pathOf(cfg.URL), Concurrency: cfg.Concurrency, Stream: cfg.Stream,
		Seconds: round(elapsed.Seconds()), Status: map[string]int{}, Time: time.Now().UTC()}
	var totals, ttfbs []time.Duration
	var sum time.Duration
	for _, t := range tallies {
		r.Errors += t.errors
		if r.FirstError == "" {
			r.FirstError = t.firstErr
		}
		for _, s := range t.samples {
			totals = append(totals, s.total)
			ttfbs = append(ttfbs, s.ttfb)
			sum += s.total
			r.Status[strconv.Itoa(s.status)]++
			if s.status/100 != 2 {
				r.Non2xx++
			}
		}
	}
	r.Requests = len(totals)
	if elapsed > 0 {
		r.RPS = round(float64(r.Requests) / elapsed.Seconds())
	}
	if r.Requests == 0 {
		return r
	}
	r.Mean = ms(sum / time.Duration(r.Requests))
	slices.Sort(totals)
	r.P50, r.P90, r.P99, r.Max = ms(pct(totals, 50)), ms(pct(totals, 90)), ms(pct(totals, 99)), ms(totals[len(totals)-1])
	if cfg.Stream {
		slices.Sort(ttfbs)
		r.TTFB50, r.TTFB90, r.TTFB99, r.TTFBMax = ms(pct(ttfbs, 50)), ms(pct(ttfbs, 90)), ms(pct(ttfbs, 99)), ms(ttfbs[len(ttfbs)-1])
	}
	return r
}

// pct is the nearest-rank percentile of sorted durations.
func pct(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return round(float64(d) / float64(time.Millisecond)) }

func round(f float64) float64 { return math.Round(f*1000) / 1000 }

// pathOf is the path and query of a URL as written (placeholders intact).
func pathOf(raw string) string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return "/"
}

// WriteTable prints r as a small human-readable table.
func (r *Result) WriteTable(w io.Writer) {
	name := r.Scenario
	if r.Variant != "" {
		name += "/" + r.Variant
	}
	fmt.Fprintf(w, "%-28s %-6s %-34s c=%-3d %8s %8s %8s %8s %8s %7s %6s %6s\n", "run", "method", "path", r.Concurrency,
		"req/s", "p50", "p90", "p99", "max", "n", "err", "!2xx")
	fmt.Fprintf(w, "%-28s %-6s %-34s c=%-3d %8.0f %8.3f %8.3f %8.3f %8.3f %7d %6d %6d\n", name, r.Method, clip(r.Path, 34),
		r.Concurrency, r.RPS, r.P50, r.P90, r.P99, r.Max, r.Requests, r.Errors, r.Non2xx)
	if r.Stream {
		fmt.Fprintf(w, "%-28s %-6s %-34s      %8s %8.3f %8.3f %8.3f %8.3f   (time to first event, ms)\n", "", "", "", "ttfb",
			r.TTFB50, r.TTFB90, r.TTFB99, r.TTFBMax)
	}
	if r.FirstError != "" {
		fmt.Fprintf(w, "  first error: %s\n", clip(r.FirstError, 300))
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
