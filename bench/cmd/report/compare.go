package main

import (
	"fmt"
	"math"
	"slices"

	"github.com/gtmgate/gtmgate/bench/loadgen"
)

// ref names one measured variant.
type ref struct{ scenario, variant string }

// comparison sets a subject against its floor. With bases, latencies are
// added latencies: the variant's percentile minus its base's (the same
// upstream called directly). With ttfb, the time to the first streamed
// event is compared instead of the total.
type comparison struct {
	scenario, name         string
	subject, floor         ref
	subjectBase, floorBase *ref
	ttfb                   bool
}

// comparisons are the scenarios of bench/run.sh and their floors.
var comparisons = slices.Concat([]comparison{
	{scenario: "rest", name: "gateway vs bare ReverseProxy (added over direct)",
		subject: ref{"rest", "gateway"}, floor: ref{"rest", "floor"},
		subjectBase: &ref{"rest", "direct"}, floorBase: &ref{"rest", "direct"}},
	{scenario: "rest", name: "gateway on postgres vs bare ReverseProxy (added)",
		subject: ref{"rest", "gateway-postgres"}, floor: ref{"rest", "floor"},
		subjectBase: &ref{"rest", "direct"}, floorBase: &ref{"rest", "direct"}},
	{scenario: "rest", name: "gateway, limits off (demo tenant) vs bare ReverseProxy (added)",
		subject: ref{"rest", "gateway-off"}, floor: ref{"rest", "floor"},
		subjectBase: &ref{"rest", "direct"}, floorBase: &ref{"rest", "direct"}},
	{scenario: "rest", name: "gateway, billing+quota+rate limits on vs bare ReverseProxy (added)",
		subject: ref{"rest", "gateway-limits"}, floor: ref{"rest", "floor"},
		subjectBase: &ref{"rest", "direct"}, floorBase: &ref{"rest", "direct"}},
	// (on − off) / the floor's added latency: the checks' own cost as a
	// share of one bare proxy hop.
	{scenario: "rest", name: "limits on − off vs bare ReverseProxy's added",
		subject: ref{"rest", "gateway-limits"}, floor: ref{"rest", "floor"},
		subjectBase: &ref{"rest", "gateway-off"}, floorBase: &ref{"rest", "direct"}},
	{scenario: "mcp", name: "gateway /mcp overhead (added over direct) vs bare SDK echo",
		subject: ref{"mcp", "gateway"}, floor: ref{"mcp", "sdk"}, subjectBase: &ref{"rest", "direct"}},
	// A federated tool (an upstream MCP server's, served as server__tool):
	// gtmgate's added latency over calling the upstream directly, divided
	// by that direct call's whole latency (the bare SDK server's cost).
	{scenario: "federated", name: "federated /mcp call (added over direct) vs upstream direct",
		subject: ref{"federated", "gateway"}, floor: ref{"federated", "direct"}, subjectBase: &ref{"federated", "direct"}},
	// Its added latency against that of a built-in tool's /mcp call, each
	// over its own upstream called directly.
	{scenario: "federated", name: "federated vs built-in /mcp call (each added over its direct)",
		subject: ref{"federated", "gateway"}, floor: ref{"mcp", "gateway"},
		subjectBase: &ref{"federated", "direct"}, floorBase: &ref{"rest", "direct"}},
	{scenario: "admin", name: "GET /admin/audit?limit=100: postgres vs sqlite",
		subject: ref{"admin", "audit-postgres"}, floor: ref{"admin", "audit-sqlite"}},
	{scenario: "admin", name: "PUT /admin/tenants/bench-{n}: postgres vs sqlite",
		subject: ref{"admin", "write-postgres"}, floor: ref{"admin", "write-sqlite"}},
}, chatComparisons("gateway vs bare ReverseProxy", "floor"),
	// A peer gateway (BIFROST_BIN or BENCH_PEER_CMD) in the same rounds:
	// gtmgate's added latency over the peer's, both over the direct call.
	chatComparisons("gtmgate vs peer gateway", "peer"),
	siteComparisons("about", "GET /about.md"), siteComparisons("llms-full", "GET /llms-full.txt"))

// chatComparisons sets gtmgate's chat pass-through against another server
// (floor: its variant name, "stream-" prefixed for streamed answers) for
// JSON answers, the first streamed chunk and the whole stream, each as
// latency added over the fake upstream called directly.
func chatComparisons(versus, floor string) []comparison {
	json, stream := ref{"chat", "direct"}, ref{"chat", "stream-direct"}
	return []comparison{
		{scenario: "chat", name: "non-streaming: " + versus + " (added)",
			subject: ref{"chat", "gateway"}, floor: ref{"chat", floor}, subjectBase: &json, floorBase: &json},
		{scenario: "chat", name: "streaming, first chunk: " + versus + " (added)",
			subject: ref{"chat", "stream-gateway"}, floor: ref{"chat", "stream-" + floor}, subjectBase: &stream, floorBase: &stream, ttfb: true},
		{scenario: "chat", name: "streaming, whole stream: " + versus + " (added)",
			subject: ref{"chat", "stream-gateway"}, floor: ref{"chat", "stream-" + floor}, subjectBase: &stream, floorBase: &stream},
	}
}

// siteComparisons sets gtmgate's site against nginx and bare net/http, and
// net/http against nginx, for one file as is and gzip-encoded.
func siteComparisons(file, name string) []comparison {
	var out []comparison
	for _, enc := range []struct{ variant, label string }{{"", ""}, {"-gzip", ", gzip"}} {
		v := func(server string) ref { return ref{"site", file + enc.variant + "-" + server} }
		out = append(out,
			comparison{scenario: "site", name: name + enc.label + ": gtmgate vs nginx", subject: v("gtmgate"), floor: v("nginx")},
			comparison{scenario: "site", name: name + enc.label + ": gtmgate vs bare net/http", subject: v("gtmgate"), floor: v("nethttp")},
			comparison{scenario: "site", name: name + enc.label + ": bare net/http vs nginx", subject: v("nethttp"), floor: v("nginx")})
	}
	return out
}

// comparisonResult is one comparison at one concurrency. Ratios are
// subject/floor: for latency, above 1 means the subject is slower; for
// throughput (RPSRatio), below 1 means it serves fewer requests per second.
type comparisonResult struct {
	Scenario    string   `json:"scenario"`
	Name        string   `json:"name"`
	Concurrency int      `json:"concurrency"`
	Added       bool     `json:"added_latency,omitempty"`
	TTFB        bool     `json:"time_to_first_event,omitempty"`
	SubjectP50  float64  `json:"subject_p50_ms"`
	FloorP50    float64  `json:"floor_p50_ms"`
	RatioP50    *float64 `json:"ratio_p50"`
	SubjectP99  float64  `json:"subject_p99_ms"`
	FloorP99    float64  `json:"floor_p99_ms"`
	RatioP99    *float64 `json:"ratio_p99"`
	SubjectRPS  float64  `json:"subject_rps"`
	FloorRPS    float64  `json:"floor_rps"`
	RPSRatio    *float64 `json:"rps_ratio"`
	// Server CPU per request (µs), when both sides measured it.
	SubjectCPU float64  `json:"subject_cpu_us_per_request,omitempty"`
	FloorCPU   float64  `json:"floor_cpu_us_per_request,omitempty"`
	CPURatio   *float64 `json:"cpu_ratio,omitempty"`
	// Servers' resident size (KiB) as the runs ended, when both measured it.
	SubjectRSS  int64    `json:"subject_rss_kb,omitempty"`
	FloorRSS    int64    `json:"floor_rss_kb,omitempty"`
	RSSRatio    *float64 `json:"rss_ratio,omitempty"`
	Errors      bool     `json:"errors,omitempty"`
	Unavailable string   `json:"unavailable,omitempty"`
}

// index finds a run by variant and concurrency.
type index map[ref]map[int]*loadgen.Result

// indexRuns indexes runs; a variant measured in several rounds at one
// concurrency is indexed as the median of its rounds.
func indexRuns(runs []loadgen.Result) index {
	rounds := map[ref]map[int][]*loadgen.Result{}
	for i := range runs {
		r := &runs[i]
		k := ref{r.Scenario, r.Variant}
		if rounds[k] == nil {
			rounds[k] = map[int][]*loadgen.Result{}
		}
		rounds[k][r.Concurrency] = append(rounds[k][r.Concurrency], r)
	}
	ix := index{}
	for k, byLevel := range rounds {
		ix[k] = map[int]*loadgen.Result{}
		for c, rs := range byLevel {
			ix[k][c] = medianOfRounds(rs)
		}
	}
	return ix
}

func compareAll(r *run) []comparisonResult {
	ix := indexRuns(r.Runs)
	var out []comparisonResult
	for _, c := range comparisons {
		levels := concurrencies(ix, c.subject, c.floor)
		if len(levels) == 0 {
			reason, ok := r.Unavailable[c.subject.scenario+"/"+c.subject.variant]
			if !ok {
				reason, ok = r.Unavailable[c.scenario]
			}
			if !ok {
				reason = "not measured"
			}
			out = append(out, comparisonResult{Scenario: c.scenario, Name: c.name, Unavailable: reason})
			continue
		}
		for _, n := range levels {
			out = append(out, c.at(ix, n))
		}
	}
	return out
}

// concurrencies lists the levels at which both sides were measured.
func concurrencies(ix index, a, b ref) []int {
	var levels []int
	for n := range ix[a] {
		if ix[b][n] != nil {
			levels = append(levels, n)
		}
	}
	slices.Sort(levels)
	return levels
}

func (c comparison) at(ix index, n int) comparisonResult {
	s, f := ix[c.subject][n], ix[c.floor][n]
	res := comparisonResult{Scenario: c.scenario, Name: c.name, Concurrency: n, TTFB: c.ttfb,
		Added: c.subjectBase != nil || c.floorBase != nil, SubjectRPS: s.RPS, FloorRPS: f.RPS,
		Errors: failed(s) || failed(f)}
	res.SubjectP50, res.SubjectP99 = c.latency(s)
	res.FloorP50, res.FloorP99 = c.latency(f)
	for _, b := range []struct {
		base     *ref
		p50, p99 *float64
	}{{c.subjectBase, &res.SubjectP50, &res.SubjectP99}, {c.floorBase, &res.FloorP50, &res.FloorP99}} {
		if b.base == nil {
			continue
		}
		base := ix[*b.base][n]
		if base == nil {
			res.Unavailable = fmt.Sprintf("no %s/%s run at c=%d", b.base.scenario, b.base.variant, n)
			return res
		}
		res.Errors = res.Errors || failed(base)
		p50, p99 := c.latency(base)
		*b.p50, *b.p99 = round(*b.p50-p50), round(*b.p99-p99)
	}
	res.RatioP50 = ratio(res.SubjectP50, res.FloorP50)
	res.RatioP99 = ratio(res.SubjectP99, res.FloorP99)
	res.RPSRatio = ratio(s.RPS, f.RPS)
	if s.ServerCPUPerRequest > 0 && f.ServerCPUPerRequest > 0 {
		res.SubjectCPU, res.FloorCPU = s.ServerCPUPerRequest, f.ServerCPUPerRequest
		res.CPURatio = ratio(s.ServerCPUPerRequest, f.ServerCPUPerRequest)
	}
	if s.ServerRSSKB > 0 && f.ServerRSSKB > 0 {
		res.SubjectRSS, res.FloorRSS = s.ServerRSSKB, f.ServerRSSKB
		res.RSSRatio = ratio(float64(s.ServerRSSKB), float64(f.ServerRSSKB))
	}
	return res
}

func (c comparison) latency(r *loadgen.Result) (p50, p99 float64) {
	if c.ttfb {
		return r.TTFB50, r.TTFB99
	}
	return r.P50, r.P99
}

func failed(r *loadgen.Result) bool { return r.Errors > 0 || r.Non2xx > 0 || r.Requests == 0 }

// ratio is a/b, or nil when b is not positive (a floor lost in noise).
func ratio(a, b float64) *float64 {
	if b <= 0 {
		return nil
	}
	v := round(a / b)
	return &v
}

func round(f float64) float64 { return math.Round(f*1000) / 1000 }
