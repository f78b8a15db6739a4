// Package modelgw is a client for an OpenAI-compatible model gateway: typed
// chat completions, structured output through a forced tool call (CallTool),
// per-attempt time-outs and retries with backoff on 429, 5xx and network errors.
package modelgw

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/telemetry"
)

// Options tunes a Client. The zero value gives the documented defaults.
type Options struct {
	// HTTPClient defaults to a client on a shared keep-alive transport.
	HTTPClient *http.Client
	// Timeout bounds one attempt, response body included (default 60s).
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt (default 2;
	// a negative value disables retries).
	MaxRetries int
	// Backoff is the base of the exponential, jittered wait between attempts
	// (default 200ms). A Retry-After header from the gateway takes precedence.
	Backoff time.Duration
	// MaxRetryAfter is the longest Retry-After waited out (default 30s); a
	// longer one ends the call with the *APIError.
	MaxRetryAfter time.Duration
	// Header is added to every request (for example gateway routing headers).
	Header http.Header
}

// Client calls one model gateway. It is safe for concurrent use.
type Client struct {
	endpoint      string // base URL without trailing slash
	apiKey        string
	hc            *http.Client
	timeout       time.Duration
	maxRetries    int
	backoff       time.Duration
	maxRetryAfter time.Duration
	header        http.Header
	// sleep and now are replaced in tests.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time
}

// maxResponseBytes bounds a gateway response body.
const maxResponseBytes = 32 << 20

var sharedTransport = &http.Transport{
	Proxy:               http.ProxyFromEnvironment,
	DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	MaxIdleConns:        128,
	MaxIdleConnsPerHost: 32,
	IdleConnTimeout:     90 * time.Second,
	TLSHandshakeTimeout: 10 * time.Second,
	ForceAttemptHTTP2:   true,
}

// New returns a client for the gateway at baseURL (for example
// http://127.0.0.1:9000/v1). apiKey is sent as a bearer token when not empty.
func New(baseURL, apiKey string, opts *Options) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("modelgw: base URL %q must be an absolute http(s) URL", baseURL)
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	c := &Client{
		endpoint:      strings.TrimRight(u.String(), "/"),
		apiKey:        apiKey,
		hc:            o.HTTPClient,
		timeout:       o.Timeout,
		maxRetries:    o.MaxRetries,
		backoff:       o.Backoff,
		maxRetryAfter: o.MaxRetryAfter,
		header:        o.Header,
		sleep:         sleepContext,
		now:           time.Now,
	}
	if c.hc == nil {
		c.hc = &http.Client{Transport: telemetry.Transport(sharedTransport, "model_gateway")}
	}
	if c.timeout <= 0 {
		c.timeout = 60 * time.Second
	}
	switch {
	case c.maxRetries == 0:
		c.maxRetries = 2
	case c.maxRetries < 0:
		c.maxRetries = 0
	}
	if c.backoff <= 0 {
		c.backoff = 200 * time.Millisecond
	}
	if c.maxRetryAfter <= 0 {
		c.maxRetryAfter = 30 * time.Second
	}
	return c, nil
}

// Chat sends one chat completion request. Failures are an *APIError for a
// non-2xx answer, ErrTimeout (also context.DeadlineExceeded) when time ran
// out, or a wrapped network or decoding error.
func (c *Client) Chat(ctx context.Context, req *ChatRequest) (*ChatResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("modelgw: chat %s: encode request: %w", req.Model, err)
	}
	raw, err := c.post(ctx, "/chat/completions", body)
	if err != nil {
		return nil, fmt.Errorf("modelgw: chat %s: %w", req.Model, err)
	}
	var resp ChatResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, fmt.Errorf("modelgw: chat %s: decode response: %w", req.Model, err)
	}
	return &resp, nil
}

// post sends body to path, retrying on 429, 5xx, network errors and attempt
// time-outs, and returns the 2xx response body.
func (c *Client) post(ctx context.Context, path string, body []byte) ([]byte, error) {
	for n := 0; ; n++ {
		status, h, raw, err := c.attempt(ctx, path, body)
		if err == nil && status >= 200 && status < 300 {
			return raw, nil
		}
		var wait time.Duration
		if err != nil {
			if ctx.Err() != nil {
				return nil, callerDone(ctx, err)
			}
			err = fmt.Errorf("attempt %d: %w", n+1, err)
		} else {
			apiErr := parseAPIError(status, h, raw)
			if !retryableStatus(status) {
				return nil, apiErr
			}
			if ra, ok := retryAfter(h, c.now()); ok {
				if ra > c.maxRetryAfter {
					return nil, apiErr
				}
				wait = ra
			}
			err = apiErr
		}
		if n >= c.maxRetries {
			return nil, err
		}
		if wait == 0 {
			wait = backoff(c.backoff, n)
		}
		if serr := c.sleep(ctx, wait); serr != nil {
			return nil, callerDone(ctx, err)
		}
	}
}

// errAttemptTimeout is the cancellation cause of an attempt that ran out of time.
var errAttemptTimeout = errors.New("attempt timed out")

// attempt makes one HTTP round trip and reads the whole response body.
func (c *Client) attempt(ctx context.Context, path string, body []byte) (int, http.Header, []byte, error) {
	actx, cancel := context.WithTimeoutCause(ctx, c.timeout, errAttemptTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, nil, c.transportError(actx, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("read response: %w", c.transportError(actx, err))
	}
	return resp.StatusCode, resp.Header, raw, nil
}

// transportError marks attempt time-outs with ErrTimeout and context.DeadlineExceeded.
func (c *Client) transportError(actx context.Context, err error) error {
	var ne net.Error
	if errors.Is(context.Cause(actx), errAttemptTimeout) || (errors.As(err, &ne) && ne.Timeout()) {
		return fmt.Errorf("no answer within %s: %w (%w)", c.timeout, ErrTimeout, context.DeadlineExceeded)
	}
	return err
}

// callerDone reports the caller's context ending, keeping the last failure as context.
func callerDone(ctx context.Context, last error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w (%w); last failure: %v", ErrTimeout, ctx.Err(), last)
	}
	return fmt.Errorf("%w; last failure: %v", ctx.Err(), last)
}
