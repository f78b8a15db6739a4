package main

import (
	"fmt"
	"io"
	"strings"
)

func printRuns(w io.Writer, r *run) {
	fmt.Fprintf(w, "\nRuns (latency in ms; ! marks errors or non-2xx)\n")
	fmt.Fprintf(w, "%-9s %-20s %4s %9s %8s %8s %8s %8s %8s %8s %7s %6s %6s\n",
		"scen", "variant", "c", "req/s", "p50", "p90", "p99", "max", "ttfb50", "ttfb99", "n", "err", "!2xx")
	for _, x := range r.Runs {
		mark := " "
		if failed(&x) {
			mark = "!"
		}
		ttfb50, ttfb99 := "-", "-"
		if x.Stream {
			ttfb50, ttfb99 = fmt.Sprintf("%.3f", x.TTFB50), fmt.Sprintf("%.3f", x.TTFB99)
		}
		fmt.Fprintf(w, "%-9s %-20s %4d %9.0f %8.3f %8.3f %8.3f %8.3f %8s %8s %7d %6d %5d%s\n",
			x.Scenario, x.Variant, x.Concurrency, x.RPS, x.P50, x.P90, x.P99, x.Max, ttfb50, ttfb99,
			x.Requests, x.Errors, x.Non2xx, mark)
		if x.FirstError != "" {
			fmt.Fprintf(w, "        first error: %s\n", clip(x.FirstError, 160))
		}
	}
}

func printComparisons(w io.Writer, r *run) {
	fmt.Fprintf(w, "\nComparisons (ratio = subject / floor; latency ratio > 1: slower than the floor; rps ratio < 1: less throughput)\n")
	fmt.Fprintf(w, "%-9s %-62s %4s %9s %9s %7s %9s %9s %7s %9s %9s %7s\n",
		"scen", "comparison", "c", "subj p50", "floor p50", "×p50", "subj p99", "floor p99", "×p99", "subj rps", "floor rps", "×rps")
	for _, c := range r.Comparisons {
		if c.Unavailable != "" && c.Concurrency == 0 {
			fmt.Fprintf(w, "%-9s %-62s    -  not available: %s\n", c.Scenario, clip(c.Name, 62), c.Unavailable)
			continue
		}
		note := ""
		if c.Errors {
			note = "  (errors: see runs)"
		}
		if c.Unavailable != "" {
			note = "  (" + c.Unavailable + ")"
		}
		fmt.Fprintf(w, "%-9s %-62s %4d %9.3f %9.3f %7s %9.3f %9.3f %7s %9.0f %9.0f %7s%s\n",
			c.Scenario, clip(c.Name, 62), c.Concurrency, c.SubjectP50, c.FloorP50, show(c.RatioP50),
			c.SubjectP99, c.FloorP99, show(c.RatioP99), c.SubjectRPS, c.FloorRPS, show(c.RPSRatio), note)
	}
	fmt.Fprintln(w, strings.TrimSpace(`
"added" rows: latencies are the variant's percentile minus the same upstream called directly.
MCP: the floor is the bare SDK echo server's whole latency (it has no upstream).
Federated: the upstream is that bare SDK server; its CPU and resident size are gtmgate's and the
upstream's processes together against the upstream's alone.`))
}

// printCPU lists the comparisons whose servers' CPU was measured: CPU time
// per request, the figure that drifts least with the machine's other load.
func printCPU(w io.Writer, r *run) {
	printServerFigure(w, r, "Server CPU per request (µs, user + system, all of the server's processes)", "×cpu",
		func(c comparisonResult) (float64, float64, *float64) { return c.SubjectCPU, c.FloorCPU, c.CPURatio })
}

// printRSS lists the comparisons whose servers' resident size was read as
// their runs ended: memory under that load.
func printRSS(w io.Writer, r *run) {
	printServerFigure(w, r, "Server resident size under load (MiB, VmRSS as the run ended, all of the server's processes)", "×rss",
		func(c comparisonResult) (float64, float64, *float64) {
			return float64(c.SubjectRSS) / 1024, float64(c.FloorRSS) / 1024, c.RSSRatio
		})
}

// printServerFigure prints one table of a figure the servers reported,
// for the comparisons that have it on both sides.
func printServerFigure(w io.Writer, r *run, title, ratioHeader string, figure func(comparisonResult) (subject, floor float64, ratio *float64)) {
	header := false
	for _, c := range r.Comparisons {
		subject, floor, ratio := figure(c)
		if ratio == nil {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\n%s\n", title)
			fmt.Fprintf(w, "%-9s %-62s %4s %9s %9s %7s\n", "scen", "comparison", "c", "subject", "floor", ratioHeader)
			header = true
		}
		fmt.Fprintf(w, "%-9s %-62s %4d %9.1f %9.1f %7s\n", c.Scenario, clip(c.Name, 62), c.Concurrency, subject, floor, show(ratio))
	}
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
