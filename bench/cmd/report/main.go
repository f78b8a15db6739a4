// Command report reads the JSON lines of one benchmark run (loadgen results
// plus the script's "unavailable" and "meta" lines), prints every run and
// the comparisons with their floors as tables, and writes them as one JSON
// document.
//
//	report -in bench/out/results.jsonl -json bench/out/summary.json
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gtmgate/gtmgate/bench/loadgen"
)

// line is one input line: a loadgen result, or a marker from the script.
type line struct {
	loadgen.Result
	Unavailable string         `json:"unavailable,omitempty"`
	Meta        map[string]any `json:"meta,omitempty"`
	// IdleRSSKB marks a server's resident size before any load, and
	// IdleAnonKB its private (anonymous) part.
	IdleRSSKB  int64 `json:"idle_rss_kb,omitempty"`
	IdleAnonKB int64 `json:"idle_anon_kb,omitempty"`
}

// run is everything read from one results file. Unavailable is keyed by
// "scenario" or "scenario/variant".
type run struct {
	Meta        map[string]any    `json:"meta,omitempty"`
	Runs        []loadgen.Result  `json:"runs"`
	Unavailable map[string]string `json:"unavailable,omitempty"`
	// IdleRSS is each server's resident size (KiB) before load, keyed by
	// "scenario/variant".
	IdleRSS     map[string]int64   `json:"idle_rss_kb,omitempty"`
	IdleAnon    map[string]int64   `json:"idle_anon_kb,omitempty"`
	Comparisons []comparisonResult `json:"comparisons"`
	Federated   []federatedRow     `json:"federated_gateways,omitempty"`
}

func main() {
	if err := mainErr(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

func mainErr(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	in := fs.String("in", "", "results file (JSON lines)")
	jsonOut := fs.String("json", "", "write the summary JSON here")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" {
		return errors.New("-in is required")
	}
	r, err := read(*in)
	if err != nil {
		return err
	}
	r.Comparisons = compareAll(r)
	r.Federated = federatedRows(r)
	printRuns(out, r)
	printComparisons(out, r)
	printFederated(out, r)
	printCPU(out, r)
	printRSS(out, r)
	if *jsonOut != "" {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return fmt.Errorf("encode summary: %w", err)
		}
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("write summary: %w", err)
		}
	}
	return nil
}

func read(path string) (*run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open results: %w", err)
	}
	defer f.Close()
	r := &run{Meta: map[string]any{}, Unavailable: map[string]string{}, IdleRSS: map[string]int64{}, IdleAnon: map[string]int64{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		switch {
		case l.Meta != nil:
			for k, v := range l.Meta {
				r.Meta[k] = v
			}
		case l.IdleRSSKB > 0:
			r.IdleRSS[l.Scenario+"/"+l.Variant] = l.IdleRSSKB
			r.IdleAnon[l.Scenario+"/"+l.Variant] = l.IdleAnonKB
		case l.Unavailable != "":
			key := l.Scenario
			if l.Variant != "" {
				key += "/" + l.Variant
			}
			r.Unavailable[key] = l.Unavailable
		default:
			r.Runs = append(r.Runs, l.Result)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return r, nil
}
