// Package loadgen is the load generator of gtmgate's benchmarks: a bounded
// closed loop of keep-alive HTTP/1.1 requests against one loopback URL, with
// latency percentiles, error and status counts, and for streaming (SSE)
// responses the time to the first event as well as the total.
//
// Runs are bounded in time and count and may only target loopback hosts:
// these benchmarks measure gtmgate against floors on the same machine.
package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits every run obeys whatever its configuration says.
const (
	MaxDuration    = 10 * time.Minute
	MaxConcurrency = 1024
)

// Placeholder is replaced in the URL and body by a number unique to each
// request of the process (warm-up included), e.g. PUT /admin/tenants/bench-{n}.
const Placeholder = "{n}"

// Config describes one run.
type Config struct {
	URL    string
	Method string
	Header http.Header
	Body   []byte
	// Concurrency is the number of workers, each with at most one request
	// in flight (a closed loop).
	Concurrency int
	// Duration bounds the measured phase; Requests, when positive, stops it
	// earlier after that many requests. At least one must be set.
	Duration time.Duration
	Requests int
	// ServerPIDs, when set, are the processes serving the target: their CPU
	// time during the measured phase per request, and their resident size
	// as it ends, are reported (Linux).
	ServerPIDs []int
	// UpstreamPIDs, when set, are the processes behind the target (the
	// upstream a gateway calls): their CPU time per request is reported
	// apart from the servers'.
	UpstreamPIDs []int
	// Warmup runs the same loop first, unmeasured, and leaves its
	// connections idle for the measured phase.
	Warmup time.Duration
	// Stream reads the response as server-sent events and records the time
	// to the first "data:" line besides the total.
	Stream bool
	// Timeout bounds one request (default 30s).
	Timeout time.Duration
	// Check, when set, inspects each complete 2xx body; an error counts the
	// request as failed (e.g. an MCP result with isError).
	Check func(body []byte) error
	// Session, when set, is called once by each worker before its first
	// request (warm-up included); the headers it returns go on that
	// worker's every request (e.g. an MCP session id). A worker whose
	// session fails counts one error and stops.
	Session func(ctx context.Context, client *http.Client) (http.Header, error)
}

// sample is one completed request.
type sample struct {
	total, ttfb time.Duration
	status      int
}

// worker state collected after the run.
type tally struct {
	samples  []sample
	errors   int
	firstErr string
}

// Run executes cfg and summarises it. ctx cancels the run early.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := validate(&cfg); err != nil {
		return nil, err
	}
	client := newClient(cfg)
	defer client.CloseIdleConnections()
	var counter atomic.Int64
	// Each worker keeps its session (if any) from the warm-up on.
	sessions := make([]http.Header, cfg.Concurrency)
	if cfg.Warmup > 0 {
		wctx, cancel := context.WithTimeout(ctx, cfg.Warmup)
		loop(wctx, client, cfg, &counter, 0, sessions)
		cancel()
	}
	mctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	serverBefore, err := processCPUIf(cfg.ServerPIDs)
	if err != nil {
		return nil, err
	}
	upstreamBefore, err := processCPUIf(cfg.UpstreamPIDs)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	tallies := loop(mctx, client, cfg, &counter, cfg.Requests, sessions)
	elapsed := time.Since(start)
	res := summarise(cfg, tallies, elapsed)
	serverAfter, err := processCPUIf(cfg.ServerPIDs)
	if err != nil {
		return nil, err
	}
	upstreamAfter, err := processCPUIf(cfg.UpstreamPIDs)
	if err != nil {
		return nil, err
	}
	if res.Requests > 0 {
		perRequest := func(ticks int64) float64 { return round(float64(ticks) * 1e6 / clockTicks / float64(res.Requests)) }
		if len(cfg.ServerPIDs) > 0 {
			res.ServerCPUPerRequest = perRequest(serverAfter - serverBefore)
		}
		if len(cfg.UpstreamPIDs) > 0 {
			res.UpstreamCPUPerRequest = perRequest(upstreamAfter - upstreamBefore)
		}
	}
	if len(cfg.ServerPIDs) > 0 {
		if res.ServerRSSKB, err = processRSS(cfg.ServerPIDs); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// processCPUIf is processCPU, or 0 for no processes.
func processCPUIf(pids []int) (int64, error) {
	if len(pids) == 0 {
		return 0, nil
	}
	return processCPU(pids)
}

func validate(cfg *Config) error {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return fmt.Errorf("loadgen: url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("loadgen: url %q: scheme must be http or https", cfg.URL)
	}
	if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("loadgen: url %q: only loopback hosts may be loaded", cfg.URL)
	}
	if cfg.Method == "" {
		cfg.Method = http.MethodGet
		if cfg.Body != nil {
			cfg.Method = http.MethodPost
		}
	}
	if cfg.Concurrency < 1 || cfg.Concurrency > MaxConcurrency {
		return fmt.Errorf("loadgen: concurrency %d: must be 1..%d", cfg.Concurrency, MaxConcurrency)
	}
	if cfg.Duration <= 0 && cfg.Requests <= 0 {
		return errors.New("loadgen: set a duration or a request count")
	}
	if cfg.Duration <= 0 || cfg.Duration > MaxDuration {
		cfg.Duration = MaxDuration
	}
	if cfg.Warmup > MaxDuration {
		cfg.Warmup = MaxDuration
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	return nil
}

// newClient returns a keep-alive HTTP/1.1 client with an idle connection
// for every worker, no proxy from the environment and no compression.
func newClient(cfg Config) *http.Client {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        2 * cfg.Concurrency,
		MaxIdleConnsPerHost: 2 * cfg.Concurrency,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
	}
	return &http.Client{Transport: tr, Timeout: cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// loop runs cfg.Concurrency workers until ctx ends or limit requests
// (0: no limit) have started.
func loop(ctx context.Context, client *http.Client, cfg Config, counter *atomic.Int64, limit int, sessions []http.Header) []tally {
	tallies := make([]tally, cfg.Concurrency)
	var started atomic.Int64
	var wg sync.WaitGroup
	for i := range tallies {
		wg.Go(func() {
			t := &tallies[i]
			if cfg.Session != nil && sessions[i] == nil {
				h, err := cfg.Session(ctx, client)
				if err != nil {
					t.errors, t.firstErr = 1, "session: "+err.Error()
					return
				}
				sessions[i] = h
			}
			var buf bytes.Buffer
			for ctx.Err() == nil {
				if limit > 0 && started.Add(1) > int64(limit) {
					return
				}
				n := counter.Add(1)
				s, err := do(client, cfg, n, &buf, sessions[i])
				if err != nil {
					t.errors++
					if t.firstErr == "" {
						t.firstErr = err.Error()
					}
					if s.status == 0 {
						continue
					}
				}
				t.samples = append(t.samples, s)
			}
		})
	}
	wg.Wait()
	return tallies
}

// do sends request number n and reads the whole response.
func do(client *http.Client, cfg Config, n int64, buf *bytes.Buffer, session http.Header) (sample, error) {
	target, body := cfg.URL, cfg.Body
	num := strconv.FormatInt(n, 10)
	if strings.Contains(target, Placeholder) {
		target = strings.ReplaceAll(target, Placeholder, num)
	}
	if bytes.Contains(body, []byte(Placeholder)) {
		body = bytes.ReplaceAll(body, []byte(Placeholder), []byte(num))
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(cfg.Method, target, rd)
	if err != nil {
		return sample{}, fmt.Errorf("new request: %w", err)
	}
	for k, vs := range cfg.Header {
		req.Header[k] = vs
	}
	for k, vs := range session {
		req.Header[k] = vs
	}
	if h := cfg.Header.Get("Host"); h != "" {
		req.Host = h
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return sample{}, err
	}
	defer resp.Body.Close()
	s := sample{status: resp.StatusCode}
	buf.Reset()
	if cfg.Stream {
		s.ttfb, err = readEvents(resp.Body, buf, start)
	} else {
		_, err = buf.ReadFrom(resp.Body)
	}
	s.total = time.Since(start)
	if s.ttfb == 0 {
		s.ttfb = s.total
	}
	if err != nil {
		return s, fmt.Errorf("read body (status %d): %w", resp.StatusCode, err)
	}
	if resp.StatusCode/100 == 2 {
		if cfg.Stream && s.ttfb == s.total && !bytes.Contains(buf.Bytes(), []byte("data:")) {
			return s, fmt.Errorf("stream without data events (status %d)", resp.StatusCode)
		}
		if cfg.Check != nil {
			if err := cfg.Check(buf.Bytes()); err != nil {
				return s, err
			}
		}
	}
	return s, nil
}

// readEvents reads an SSE body to its end and returns the time from start
// to the end of the first "data:" line (0 if there was none).
func readEvents(body io.Reader, buf *bytes.Buffer, start time.Time) (time.Duration, error) {
	br := bufio.NewReaderSize(body, 16<<10)
	var first time.Duration
	for {
		line, err := br.ReadSlice('\n')
		buf.Write(line)
		if first == 0 && bytes.HasPrefix(line, []byte("data:")) {
			first = time.Since(start)
		}
		switch {
		case err == io.EOF:
			return first, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil:
			return first, err
		}
	}
}
