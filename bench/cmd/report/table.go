package main

import (
	"fmt"
	"io"
	"strings"
)

func printRuns(w io.Writer, r *run) {
	fmt.Fprintf(w, "\nRuns (latency in ms; ! marks errors or non-2xx)\n")
	fmt.Fprintf(w, "%-9s %-20s %-10s %4s %9s %8s %8s %8s %8s %8s %8s %7s %6s %6s\n",
		"scen", "variant", "round", "c", "req/s", "p50", "p90", "p99", "max", "ttfb50", "ttfb99", "n", "err", "!2xx")
	for _, x := range r.Runs {
		mark := " "
		if failed(&x) {
			mark = "!"
		}
		ttfb50, ttfb99 := "-", "-"
		if x.Stream {
			ttfb50, ttfb99 = fmt.Sprintf("%.3f", x.TTFB50), fmt.Sprintf("%.3f", x.TTFB99)
		}
		fmt.Fprintf(w, "%-9s %-20s %-10s %4d %9.0f %8.3f %8.3f %8.3f %8.3f %8s %8s %7d %6d %5d%s\n",
			x.Scenario, x.Variant, x.Round, x.Concurrency, x.RPS, x.P50, x.P90, x.P99, x.Max, ttfb50, ttfb99,
			x.Requests, x.Errors, x.Non2xx, mark)
		if x.FirstError != "" {
			fmt.Fprintf(w, "        first error: %s\n", clip(x.FirstError, 160))
		}
	}
}

func printComparisons(w io.Writer, r *run) {
	fmt.Fprintf(w, "\nComparisons (ratio = subject / floor; latency ratio > 1: slower than the floor; rps ratio < 1: less throughput;\n"+
		"figures are medians of the n interleaved rounds, each ratio computed within a round; (min–max) is its spread over the rounds)\n")
	fmt.Fprintf(w, "%-9s %-62s %4s %2s %9s %9s %-17s %9s %9s %-17s %9s %9s %-17s\n",
		"scen", "comparison", "c", "n", "subj p50", "floor p50", "×p50", "subj p99", "floor p99", "×p99", "subj rps", "floor rps", "×rps")
	for _, c := range r.Comparisons {
		if c.Unavailable != "" && c.Rounds == 0 {
			fmt.Fprintf(w, "%-9s %-62s %4s     not available: %s\n", c.Scenario, clip(c.Name, 62), level(c.Concurrency), c.Unavailable)
			continue
		}
		note := ""
		if c.Errors {
			note = "  (errors: see runs)"
		}
		if c.Unavailable != "" {
			note = "  (" + c.Unavailable + ")"
		}
		fmt.Fprintf(w, "%-9s %-62s %4d %2d %9.3f %9.3f %-17s %9.3f %9.3f %-17s %9.0f %9.0f %-17s%s\n",
			c.Scenario, clip(c.Name, 62), c.Concurrency, c.Rounds, c.SubjectP50, c.FloorP50, spread(c.RatioP50, c.RatioP50Spread),
			c.SubjectP99, c.FloorP99, spread(c.RatioP99, c.RatioP99Spread), c.SubjectRPS, c.FloorRPS, spread(c.RPSRatio, c.RPSSpread), note)
	}
	fmt.Fprintln(w, strings.TrimSpace(`
"added" rows: latencies are the variant's percentile minus the same upstream called directly.
MCP: the floor is the bare SDK echo server's whole latency (it has no upstream).
Federated: the upstream is that bare SDK server; a gateway's CPU per call is its own and the upstream's
together against the upstream's alone (the table below splits them); resident size is the gateway's.`))
}

// printCPU lists the comparisons whose servers' CPU was measured: CPU time
// per request, the figure that drifts least with the machine's other load.
func printCPU(w io.Writer, r *run) {
	printServerFigure(w, r, "Server CPU per request (µs, user + system, all of the server's processes; medians of rounds)", "×cpu (min–max)",
		func(c comparisonResult) (float64, float64, string) {
			return c.SubjectCPU, c.FloorCPU, spread(c.CPURatio, c.CPUSpread)
		})
}

// printRSS lists the comparisons whose servers' resident size was read as
// their runs ended: memory under that load.
func printRSS(w io.Writer, r *run) {
	printServerFigure(w, r, "Server resident size under load (MiB, VmRSS as the run ended, all of the server's processes)", "×rss",
		func(c comparisonResult) (float64, float64, string) {
			if c.RSSRatio == nil {
				return 0, 0, ""
			}
			return float64(c.SubjectRSS) / 1024, float64(c.FloorRSS) / 1024, show(c.RSSRatio)
		})
}

// printServerFigure prints one table of a figure the servers reported,
// for the comparisons that have it on both sides.
func printServerFigure(w io.Writer, r *run, title, ratioHeader string, figure func(comparisonResult) (subject, floor float64, ratio string)) {
	header := false
	for _, c := range r.Comparisons {
		subject, floor, ratio := figure(c)
		if ratio == "" || ratio == "n/a" {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\n%s\n", title)
			fmt.Fprintf(w, "%-9s %-62s %4s %9s %9s %7s\n", "scen", "comparison", "c", "subject", "floor", ratioHeader)
			header = true
		}
		fmt.Fprintf(w, "%-9s %-62s %4d %9.1f %9.1f %s\n", c.Scenario, clip(c.Name, 62), c.Concurrency, subject, floor, ratio)
	}
}

// spread shows a ratio's median and its spread over the rounds.
func spread(v *float64, sp *[2]float64) string {
	if v == nil || sp == nil || sp[0] == sp[1] {
		return show(v)
	}
	return fmt.Sprintf("%.2f (%.2f–%.2f)", *v, sp[0], sp[1])
}

// level shows a concurrency, or "-" for none.
func level(c int) string {
	if c == 0 {
		return "-"
	}
	return fmt.Sprint(c)
}

func show(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", *v)
}

func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
