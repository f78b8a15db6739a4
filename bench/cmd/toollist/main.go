// Command toollist measures what an agent pays in context for gtmgate's
// tools: the size of each agent's MCP tools/list answer in bytes and
// approximate tokens, and each tool's share of it.
//
//	toollist -url http://127.0.0.1:8081/mcp -agent all=TOKEN -agent meeting-prep=TOKEN2
//
// Tokens are approximated as bytes / 4, the usual ratio of JSON tool
// definitions in GPT and Claude tokenizers; the ratio between agents does
// not depend on it. One JSON line per agent goes to -out when set.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// bytesPerToken approximates tokens from bytes of JSON tool definitions.
const bytesPerToken = 4

type agents []string

func (a *agents) String() string     { return strings.Join(*a, ",") }
func (a *agents) Set(v string) error { *a = append(*a, v); return nil }

// listing is one agent's tools/list, measured.
type listing struct {
	Scenario string         `json:"scenario"`
	Agent    string         `json:"agent"`
	Tools    int            `json:"tools"`
	Bytes    int            `json:"bytes"`
	Tokens   int            `json:"approx_tokens"`
	PerTool  map[string]int `json:"per_tool_bytes"`
}

func main() {
	url := flag.String("url", "", "the gateway's MCP endpoint")
	out := flag.String("out", "", "append one JSON line per agent to this file")
	scenario := flag.String("scenario", "toollist", "the scenario name the JSON lines carry")
	var list agents
	flag.Var(&list, "agent", "NAME=TOKEN of an agent to measure (repeatable)")
	flag.Parse()
	if *url == "" || len(list) == 0 {
		fmt.Fprintln(os.Stderr, "usage: toollist -url URL -agent NAME=TOKEN [-agent …] [-out FILE]")
		os.Exit(2)
	}
	var results []listing
	for _, a := range list {
		name, token, ok := strings.Cut(a, "=")
		if !ok {
			fail(fmt.Errorf("-agent %q: want NAME=TOKEN", a))
		}
		l, err := measure(*url, token)
		if err != nil {
			fail(fmt.Errorf("agent %s: %w", name, err))
		}
		l.Agent, l.Scenario = name, *scenario
		results = append(results, l)
	}
	report(os.Stdout, results)
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		for _, l := range results {
			b, _ := json.Marshal(l)
			fmt.Fprintf(f, "%s\n", b)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "toollist:", err)
	os.Exit(1)
}

// measure lists the tools as the agent of token sees them.
func measure(url, token string) (listing, error) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return listing{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return listing{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return listing{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return listing{}, fmt.Errorf("tools/list answered %d: %.200s", resp.StatusCode, raw)
	}
	var answer struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return listing{}, fmt.Errorf("tools/list answer: %w", err)
	}
	l := listing{Tools: len(answer.Result.Tools), PerTool: map[string]int{}}
	for _, t := range answer.Result.Tools {
		var compact bytes.Buffer
		if err := json.Compact(&compact, t); err != nil {
			return listing{}, err
		}
		var named struct{ Name string }
		json.Unmarshal(t, &named)
		l.PerTool[named.Name] = compact.Len()
		l.Bytes += compact.Len()
	}
	l.Tokens = l.Bytes / bytesPerToken
	return l, nil
}

// report prints each agent's totals against the first agent's, then the
// first agent's tools, largest first.
func report(w io.Writer, results []listing) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "agent\ttools\tbytes\t~tokens\tof first\t")
	for _, l := range results {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f×\t\n", l.Agent, l.Tools, l.Bytes, l.Tokens, float64(l.Bytes)/float64(max(results[0].Bytes, 1)))
	}
	tw.Flush()
	first := results[0]
	names := make([]string, 0, len(first.PerTool))
	for n := range first.PerTool {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return first.PerTool[names[i]] > first.PerTool[names[j]] })
	fmt.Fprintf(w, "\n%s's tools, largest first:\n", first.Agent)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "tool\tbytes\t~tokens\tshare\t")
	for _, n := range names {
		b := first.PerTool[n]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t\n", n, b, b/bytesPerToken, 100*float64(b)/float64(max(first.Bytes, 1)))
	}
	tw.Flush()
}
