// Command loadgen loads one loopback URL for a bounded time or request count
// and prints one JSON line (stdout) and a small table (stderr) per run.
//
//	loadgen -url http://127.0.0.1:8081/api/v1/demo/crm -H 'Authorization: Bearer …' \
//	    -body '{"tool":"crm_pipelines","input":{"action":"list","rationale":"bench"}}' -c 32 -d 5s
//	loadgen -url http://127.0.0.1:8081/mcp -H 'Authorization: Bearer …' \
//	    -mcp-tool crm_pipelines -mcp-args '{"action":"list","rationale":"bench"}' -c 1 -d 5s
//	loadgen -url http://127.0.0.1:9000/v1/chat/completions -body @chat.json -stream -c 8 -n 1000
//
// "{n}" in the URL or body becomes a number unique to each request.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/bench/loadgen"
)

// headers is a repeatable -H "Name: value" flag.
type headers http.Header

func (h headers) String() string { return "" }

func (h headers) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("header %q: want Name: value", v)
	}
	http.Header(h).Add(strings.TrimSpace(name), strings.TrimSpace(value))
	return nil
}

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hdr := headers{}
	var cfg loadgen.Config
	var body, mcpTool, mcpArgs, scenario, variant, round string
	var quiet, mcpSession bool
	fs.StringVar(&cfg.URL, "url", "", "target URL (loopback only)")
	fs.StringVar(&cfg.Method, "X", "", "method (default GET, or POST with a body)")
	fs.Var(hdr, "H", "request header `Name: value` (repeatable)")
	fs.StringVar(&body, "body", "", "request body, or @file")
	fs.StringVar(&mcpTool, "mcp-tool", "", "send an MCP tools/call of this tool (sets the MCP headers, checks the result)")
	fs.StringVar(&mcpArgs, "mcp-args", "{}", "JSON arguments of -mcp-tool")
	fs.BoolVar(&mcpSession, "mcp-session", false, "open an MCP session per worker first (initialize; for stateful servers)")
	fs.StringVar(&round, "round", "", "interleaved round recorded in the JSON line")
	fs.IntVar(&cfg.Concurrency, "c", 1, "concurrent workers (closed loop)")
	fs.DurationVar(&cfg.Duration, "d", 5*time.Second, "measured duration (bounded by -n too)")
	fs.IntVar(&cfg.Requests, "n", 0, "stop after this many requests (0: duration only)")
	fs.DurationVar(&cfg.Warmup, "warmup", time.Second, "unmeasured warm-up duration")
	fs.BoolVar(&cfg.Stream, "stream", false, "read SSE responses and measure the time to the first event")
	fs.DurationVar(&cfg.Timeout, "timeout", 30*time.Second, "time-out of one request")
	fs.StringVar(&scenario, "scenario", "", "scenario name recorded in the JSON line")
	fs.StringVar(&variant, "variant", "", "variant name recorded in the JSON line")
	fs.BoolVar(&quiet, "q", false, "no table on stderr")
	fs.Func("server-pids", "comma-separated pids of the serving processes: report their CPU per request and resident size", pidList(&cfg.ServerPIDs))
	fs.Func("upstream-pids", "comma-separated pids of the processes behind the target: report their CPU per request apart", pidList(&cfg.UpstreamPIDs))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.URL == "" {
		return errors.New("-url is required")
	}
	cfg.Header = http.Header(hdr)
	if err := setBody(&cfg, body, mcpTool, mcpArgs); err != nil {
		return err
	}
	if mcpSession {
		url, h := cfg.URL, cfg.Header
		cfg.Session = func(ctx context.Context, c *http.Client) (http.Header, error) {
			return loadgen.MCPSession(ctx, c, url, h)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := loadgen.Run(ctx, cfg)
	if err != nil {
		return err
	}
	res.Scenario, res.Variant, res.Round = scenario, variant, round
	line, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	if _, err := fmt.Fprintf(stdout, "%s\n", line); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	if !quiet {
		res.WriteTable(stderr)
	}
	return nil
}

// pidList parses a comma-separated list of pids into *dst.
func pidList(dst *[]int) func(string) error {
	return func(v string) error {
		for _, f := range strings.Split(v, ",") {
			pid, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || pid <= 0 {
				return fmt.Errorf("%q is not a pid", f)
			}
			*dst = append(*dst, pid)
		}
		return nil
	}
}

// setBody fills the body from -body or builds an MCP tools/call.
func setBody(cfg *loadgen.Config, body, mcpTool, mcpArgs string) error {
	switch {
	case mcpTool != "":
		b, err := loadgen.MCPToolCall(mcpTool, json.RawMessage(mcpArgs))
		if err != nil {
			return err
		}
		cfg.Body = b
		loadgen.SetMCPHeaders(cfg.Header)
		cfg.Check = loadgen.CheckMCPResult
	case strings.HasPrefix(body, "@"):
		b, err := os.ReadFile(body[1:])
		if err != nil {
			return fmt.Errorf("-body: %w", err)
		}
		cfg.Body = b
	case body != "":
		cfg.Body = []byte(body)
	}
	if cfg.Body != nil && cfg.Header.Get("Content-Type") == "" {
		cfg.Header.Set("Content-Type", "application/json")
	}
	return nil
}
