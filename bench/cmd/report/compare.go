package main

import (
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
	// The echo makes no upstream call and a built-in tool must: the same bare
	// SDK server whose tool GETs the same upstream is the like-for-like floor.
	{scenario: "mcp", name: "gateway /mcp vs bare SDK server calling the same upstream (added)",
		subject: ref{"mcp", "gateway"}, floor: ref{"mcp", "sdk-upstream"},
		subjectBase: &ref{"rest", "direct"}, floorBase: &ref{"rest", "direct"}},
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
	// The peer MCP gateways (bench/run.sh's MCP_GATEWAY_* and MCPJUNGLE_*)
	// federating the same upstream tool, in the same rounds.
	{scenario: "federated", name: "docker/mcp-gateway call (added over direct) vs upstream direct",
		subject: ref{"federated", "docker-mcp-gateway"}, floor: ref{"federated", "direct"}, subjectBase: &ref{"federated", "direct"}},
	{scenario: "federated", name: "MCPJungle call (added over direct) vs upstream direct",
		subject: ref{"federated", "mcpjungle"}, floor: ref{"federated", "direct"}, subjectBase: &ref{"federated", "direct"}},
	{scenario: "federated", name: "gtmgate vs docker/mcp-gateway (each added over direct)",
		subject: ref{"federated", "gateway"}, floor: ref{"federated", "docker-mcp-gateway"},
		subjectBase: &ref{"federated", "direct"}, floorBase: &ref{"federated", "direct"}},
	{scenario: "federated", name: "gtmgate vs MCPJungle (each added over direct)",
		subject: ref{"federated", "gateway"}, floor: ref{"federated", "mcpjungle"},
		subjectBase: &ref{"federated", "direct"}, floorBase: &ref{"federated", "direct"}},
	// A second gtmgate build (bench/run.sh's GTMGATE_ALT_BIN, e.g. one
	// against a patched go-sdk) in the same rounds.
	{scenario: "federated", name: "gtmgate (GTMGATE_ALT_BIN) vs docker/mcp-gateway (each added over direct)",
		subject: ref{"federated", "gtmgate-alt"}, floor: ref{"federated", "docker-mcp-gateway"},
		subjectBase: &ref{"federated", "direct"}, floorBase: &ref{"federated", "direct"}},
	{scenario: "federated", name: "gtmgate (GTMGATE_ALT_BIN) vs gtmgate (each added over direct)",
		subject: ref{"federated", "gtmgate-alt"}, floor: ref{"federated", "gateway"},
		subjectBase: &ref{"federated", "direct"}, floorBase: &ref{"federated", "direct"}},
	// bench/hostile.sh's figure: the same federated call while another
	// tenant's upstream floods list_changed, against quiet rounds.
	{scenario: "hostile", name: "federated call, hostile neighbour vs quiet",
		subject: ref{"hostile", "hostile"}, floor: ref{"hostile", "quiet"}},
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
	// Rounds is how many interleaved rounds measured every variant of the
	// comparison; figures are their medians, the *Spread fields each
	// ratio's lowest and highest round.
	Rounds         int         `json:"rounds,omitempty"`
	RatioP50Spread *[2]float64 `json:"ratio_p50_spread,omitempty"`
	RatioP99Spread *[2]float64 `json:"ratio_p99_spread,omitempty"`
	RPSSpread      *[2]float64 `json:"rps_ratio_spread,omitempty"`
	CPUSpread      *[2]float64 `json:"cpu_ratio_spread,omitempty"`
	// Servers' resident size (KiB) as the runs ended, when both measured it.
	SubjectRSS  int64    `json:"subject_rss_kb,omitempty"`
	FloorRSS    int64    `json:"floor_rss_kb,omitempty"`
	RSSRatio    *float64 `json:"rss_ratio,omitempty"`
	Errors      bool     `json:"errors,omitempty"`
	Unavailable string   `json:"unavailable,omitempty"`
}

// index finds the runs of a variant at one concurrency by round. Runs
// without a round share the round "".
type index map[ref]map[int]map[string]*loadgen.Result

// indexRuns indexes runs; runs of one variant at one concurrency in the
// same round (or without one) are folded into the median of them.
func indexRuns(runs []loadgen.Result) index {
	all := map[ref]map[int]map[string][]*loadgen.Result{}
	for i := range runs {
		r := &runs[i]
		k := ref{r.Scenario, r.Variant}
		if all[k] == nil {
			all[k] = map[int]map[string][]*loadgen.Result{}
		}
		if all[k][r.Concurrency] == nil {
			all[k][r.Concurrency] = map[string][]*loadgen.Result{}
		}
		all[k][r.Concurrency][r.Round] = append(all[k][r.Concurrency][r.Round], r)
	}
	ix := index{}
	for k, byLevel := range all {
		ix[k] = map[int]map[string]*loadgen.Result{}
		for c, byRound := range byLevel {
			ix[k][c] = map[string]*loadgen.Result{}
			for round, rs := range byRound {
				ix[k][c][round] = medianOfRounds(rs)
			}
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
			out = append(out, comparisonResult{Scenario: c.scenario, Name: c.name, Unavailable: r.why(c)})
			continue
		}
		for _, n := range levels {
			out = append(out, c.at(ix, n))
		}
	}
	return out
}

// why a comparison has no figures: its subject's, its floor's or its
// scenario's "unavailable" marker, else "not measured".
func (r *run) why(c comparison) string {
	for _, key := range []string{c.subject.scenario + "/" + c.subject.variant, c.floor.scenario + "/" + c.floor.variant, c.scenario} {
		if reason, ok := r.Unavailable[key]; ok {
			return reason
		}
	}
	return "not measured"
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

// refs are the variants a comparison reads: subject, floor and bases.
func (c comparison) refs() []ref {
	out := []ref{c.subject, c.floor}
	for _, b := range []*ref{c.subjectBase, c.floorBase} {
		if b != nil {
			out = append(out, *b)
		}
	}
	return out
}

// at computes the comparison at concurrency n in every round that measured
// all of its variants, then folds the rounds: the median of each figure
// and the spread of each ratio. A subject is never set against a floor or
// base of another round.
func (c comparison) at(ix index, n int) comparisonResult {
	rounds := commonRounds(ix, n, c.refs())
	if len(rounds) == 0 {
		return comparisonResult{Scenario: c.scenario, Name: c.name, Concurrency: n,
			Unavailable: "its variants were never measured in the same round"}
	}
	rows := make([]comparisonResult, 0, len(rounds))
	for _, round := range rounds {
		rows = append(rows, c.inRound(ix, n, round))
	}
	res := foldRounds(rows)
	res.Rounds = len(rounds)
	return res
}

// inRound is the comparison within one round.
func (c comparison) inRound(ix index, n int, round string) comparisonResult {
	s, f := ix[c.subject][n][round], ix[c.floor][n][round]
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
		base := ix[*b.base][n][round]
		res.Errors = res.Errors || failed(base)
		p50, p99 := c.latency(base)
		*b.p50, *b.p99 = round3(*b.p50-p50), round3(*b.p99-p99)
	}
	res.RatioP50 = ratio(res.SubjectP50, res.FloorP50)
	res.RatioP99 = ratio(res.SubjectP99, res.FloorP99)
	res.RPSRatio = ratio(s.RPS, f.RPS)
	// CPU per request counts the server and, when measured apart, the
	// upstream behind it: a gateway's call against the upstream's own.
	if sc, fc := cpuPerRequest(s), cpuPerRequest(f); sc > 0 && fc > 0 {
		res.SubjectCPU, res.FloorCPU = sc, fc
		res.CPURatio = ratio(sc, fc)
	}
	if s.ServerRSSKB > 0 && f.ServerRSSKB > 0 {
		res.SubjectRSS, res.FloorRSS = s.ServerRSSKB, f.ServerRSSKB
		res.RSSRatio = ratio(float64(s.ServerRSSKB), float64(f.ServerRSSKB))
	}
	return res
}

func cpuPerRequest(r *loadgen.Result) float64 { return r.ServerCPUPerRequest + r.UpstreamCPUPerRequest }

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
	v := round3(a / b)
	return &v
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
