package main

import (
	"fmt"
	"io"
	"slices"
)

// federatedGateways are the gateways of the federated scenario, each
// calling the same upstream tool, by variant.
var federatedGateways = []struct{ variant, name string }{
	{"gateway", "gtmgate"},
	{"docker-mcp-gateway", "docker/mcp-gateway"},
	{"mcpjungle", "MCPJungle"},
	{"gtmgate-alt", "gtmgate (GTMGATE_ALT_BIN)"},
}

// federatedRow is one gateway at one concurrency, over the rounds that
// measured it and the direct call: medians, and the spread of the added p50.
type federatedRow struct {
	Gateway        string     `json:"gateway"`
	Concurrency    int        `json:"concurrency"`
	Rounds         int        `json:"rounds"`
	DirectP50      float64    `json:"direct_p50_ms"`
	DirectP99      float64    `json:"direct_p99_ms"`
	AddedP50       float64    `json:"added_p50_ms"`
	AddedP50Spread [2]float64 `json:"added_p50_spread_ms"`
	AddedP99       float64    `json:"added_p99_ms"`
	// AddedRatio is the added p50 over the direct call's whole p50.
	AddedRatio  *float64 `json:"added_p50_ratio_to_direct"`
	RPS         float64  `json:"rps"`
	DirectRPS   float64  `json:"direct_rps"`
	GatewayCPU  float64  `json:"gateway_cpu_us_per_call"`
	UpstreamCPU float64  `json:"upstream_cpu_us_per_call"`
	DirectCPU   float64  `json:"direct_upstream_cpu_us_per_call"`
	IdleRSSKB   int64    `json:"idle_rss_kb,omitempty"`
	IdleAnonKB  int64    `json:"idle_anon_kb,omitempty"`
	LoadRSSKB   int64    `json:"load_rss_kb,omitempty"`
	Errors      bool     `json:"errors,omitempty"`
}

// federatedRows compares every federated gateway with the direct call of
// the same rounds.
func federatedRows(r *run) []federatedRow {
	ix := indexRuns(r.Runs)
	direct := ref{"federated", "direct"}
	var out []federatedRow
	for _, g := range federatedGateways {
		gw := ref{"federated", g.variant}
		for _, n := range concurrencies(ix, gw, direct) {
			rounds := commonRounds(ix, n, []ref{gw, direct})
			if len(rounds) == 0 {
				continue
			}
			row := federatedRow{Gateway: g.name, Concurrency: n, Rounds: len(rounds), IdleRSSKB: r.IdleRSS["federated/"+g.variant],
				IdleAnonKB: r.IdleAnon["federated/"+g.variant]}
			fig := map[string][]float64{}
			for _, round := range rounds {
				s, d := ix[gw][n][round], ix[direct][n][round]
				row.Errors = row.Errors || failed(s) || failed(d)
				row.LoadRSSKB = max(row.LoadRSSKB, s.ServerRSSKB)
				for k, v := range map[string]float64{
					"dp50": d.P50, "dp99": d.P99, "a50": s.P50 - d.P50, "a99": s.P99 - d.P99, "rps": s.RPS, "drps": d.RPS,
					"gcpu": s.ServerCPUPerRequest, "ucpu": s.UpstreamCPUPerRequest, "dcpu": d.ServerCPUPerRequest,
				} {
					fig[k] = append(fig[k], v)
				}
				if d.P50 > 0 {
					fig["ratio"] = append(fig["ratio"], (s.P50-d.P50)/d.P50)
				}
			}
			med := func(k string) float64 { return round3(median(fig[k])) }
			row.DirectP50, row.DirectP99, row.AddedP50, row.AddedP99 = med("dp50"), med("dp99"), med("a50"), med("a99")
			row.RPS, row.DirectRPS = med("rps"), med("drps")
			row.GatewayCPU, row.UpstreamCPU, row.DirectCPU = med("gcpu"), med("ucpu"), med("dcpu")
			row.AddedP50Spread = [2]float64{round3(slices.Min(fig["a50"])), round3(slices.Max(fig["a50"]))}
			if len(fig["ratio"]) > 0 {
				v := med("ratio")
				row.AddedRatio = &v
			}
			out = append(out, row)
		}
	}
	return out
}

// printFederated prints the federated gateways side by side.
func printFederated(w io.Writer, r *run) {
	if len(r.Federated) == 0 {
		return
	}
	fmt.Fprintf(w, "\nFederated gateways: the same upstream tool through each gateway (medians of rounds; latency in ms, CPU in µs per call, RSS in MiB)\n")
	fmt.Fprintf(w, "%-25s %4s %2s %9s %9s %-22s %9s %8s %8s %8s %9s %9s %9s %7s %7s %7s\n",
		"gateway", "c", "n", "direct50", "direct99", "added p50 (min–max)", "added p99", "×direct", "rps", "×rps", "gw cpu", "up cpu", "direct cpu", "idle", "anon", "load")
	for _, f := range r.Federated {
		note := ""
		if f.Errors {
			note = "  (errors: see runs)"
		}
		rpsRatio := ratio(f.RPS, f.DirectRPS)
		fmt.Fprintf(w, "%-25s %4d %2d %9.3f %9.3f %-22s %9.3f %8s %8.0f %8s %9.1f %9.1f %9.1f %7s %7s %7s%s\n",
			f.Gateway, f.Concurrency, f.Rounds, f.DirectP50, f.DirectP99,
			fmt.Sprintf("%.3f (%.3f–%.3f)", f.AddedP50, f.AddedP50Spread[0], f.AddedP50Spread[1]), f.AddedP99,
			show(f.AddedRatio), f.RPS, show(rpsRatio), f.GatewayCPU, f.UpstreamCPU, f.DirectCPU, mib(f.IdleRSSKB), mib(f.IdleAnonKB), mib(f.LoadRSSKB), note)
	}
	fmt.Fprintln(w, `×direct: added p50 / the direct call's p50; ×rps: throughput / the direct call's; gw cpu: the gateway's
processes; up cpu: the upstream's for the gateway's calls, direct cpu: the upstream's for direct calls;
idle: resident size before any load (VmRSS, code pages included), anon: its private part (RssAnon),
load: the largest resident size as a run ended.`)
}

func mib(kb int64) string {
	if kb == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(kb)/1024)
}
