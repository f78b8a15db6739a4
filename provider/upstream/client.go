// Package upstream is the HTTP client every provider adapter uses: it sets the
// tenant's provider credential, bounds each call with a time-out, retries reads
// on 429/5xx honouring Retry-After, refreshes a rejected token once, and turns
// provider failures into gtmgate errors with a redacted body excerpt. A
// provider whose failures the HTTP status does not tell apart (a rate limit
// sent as 403, an expired token as 400) reads them with Options.Classify.
package upstream

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

	fastjson "github.com/go-json-experiment/json/v1"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/telemetry"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/bufpool"
)

// Options configures a Client. Provider and BaseURL are required.
type Options struct {
	// Provider is the provider key, used in errors ("hubspot").
	Provider string
	// BaseURL is the API root, for example https://api.hubapi.com.
	BaseURL string
	// Timeout bounds one attempt (default 15s).
	Timeout time.Duration
	// HTTPClient defaults to a client on a shared keep-alive transport.
	HTTPClient *http.Client
	// Authorize sets the credential on a request; default Authorization: Bearer.
	Authorize func(r *http.Request, token string)
	// Header is sent on every request (API versions, developer tokens).
	Header http.Header
	// APIVersion is the provider API version the adapter puts in paths or
	// headers ("v25", "v25.0", "202611"); the catalogue's default when empty.
	APIVersion string
	// MaxRetryAfter is the longest Retry-After the client waits out before
	// retrying a read (default 2s); longer waits are returned as RATE_LIMITED.
	MaxRetryAfter time.Duration
	// Backoff is the wait before a retry when the provider gives no Retry-After (default 100ms).
	Backoff time.Duration
	// MaxResponseBytes caps a response body (default 8 MiB).
	MaxResponseBytes int64
	// Classify, when set, corrects the reading of a provider answer that is
	// not a 2xx: it gets the answer and what its status alone says
	// (StatusFailure) and returns the failure the provider meant (its
	// error code, retry signal, credential refusal, hint).
	Classify func(resp *Response, status Failure) Failure
}

// Client calls one provider's HTTP API.
type Client struct {
	opts Options
	base *url.URL
}

var sharedTransport = &http.Transport{
	Proxy:               http.ProxyFromEnvironment,
	DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	MaxIdleConns:        256,
	MaxIdleConnsPerHost: 64,
	IdleConnTimeout:     90 * time.Second,
	TLSHandshakeTimeout: 5 * time.Second,
	ForceAttemptHTTP2:   true,
}

// New returns a Client; it fails when BaseURL is not an absolute http(s) URL.
func New(opts Options) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(opts.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %s: base URL %q is not an absolute http(s) URL", opts.Provider, opts.BaseURL)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 15 * time.Second
	}
	if opts.APIVersion == "" {
		if p, ok := apiversion.Of(opts.Provider); ok {
			opts.APIVersion = p.Default
		}
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Transport: telemetry.Transport(sharedTransport, opts.Provider), CheckRedirect: noRedirects}
	}
	if opts.Authorize == nil {
		opts.Authorize = BearerAuth
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = 2 * time.Second
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 100 * time.Millisecond
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = 8 << 20
	}
	return &Client{opts: opts, base: u}, nil
}

// MustNew is New for static configuration known to be valid.
func MustNew(opts Options) *Client {
	c, err := New(opts)
	if err != nil {
		panic(err)
	}
	return c
}

// Provider returns the provider key.
func (c *Client) Provider() string { return c.opts.Provider }

// BaseURL returns the API root.
func (c *Client) BaseURL() string { return c.base.String() }

// APIVersion returns the provider API version the client was configured with.
func (c *Client) APIVersion() string { return c.opts.APIVersion }

// BearerAuth sets Authorization: Bearer <token>.
func BearerAuth(r *http.Request, token string) { r.Header.Set("Authorization", "Bearer "+token) }

// HeaderAuth returns an Authorize func that puts the token in the named header.
func HeaderAuth(name string) func(*http.Request, string) {
	return func(r *http.Request, token string) { r.Header.Set(name, token) }
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Request is one provider call.
type Request struct {
	Method string
	// Path is appended to the base URL ("/crm/v3/objects/contacts/search").
	Path  string
	Query url.Values
	// JSON, when not nil, is encoded as the request body.
	JSON any
	// Body and ContentType send a raw body instead of JSON.
	Body        []byte
	ContentType string
	Header      http.Header
	// Mutating requests are never retried on 429/5xx.
	Mutating bool
	// Token is the tenant's credential; nil sends none.
	Token gtmgate.TokenSource
	// Secrets are credentials the request carries in Path or Query rather
	// than through Authorize (a token sent for introspection); errors
	// redact them as they redact Token's.
	Secrets []string
}

// Response is a provider response: a 2xx from DoRaw, any status in Classify.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req and, on a 2xx, decodes the JSON body into out (when out is not nil).
func (c *Client) Do(ctx context.Context, req *Request, out any) error {
	// The body is only decoded here, so it is read into a pooled buffer;
	// the decoder copies what it keeps.
	buf := bufpool.Get()
	defer bufpool.Put(buf)
	resp, err := c.do(ctx, req, buf)
	if err != nil {
		return err
	}
	if out == nil || len(resp.Body) == 0 {
		return nil
	}
	if err := fastjson.Unmarshal(resp.Body, out); err != nil {
		return &gtmgate.Error{Code: gtmgate.EUpstream, Message: c.opts.Provider + " returned a response that is not the expected JSON",
			Detail: gtmgate.UpstreamDetail{Provider: c.opts.Provider, Status: resp.Status, Body: Excerpt(Redact(resp.Body, req.Secrets...))}, Err: err}
	}
	return nil
}

// DoRaw sends req and returns the 2xx response; every other outcome is a *gtmgate.Error.
func (c *Client) DoRaw(ctx context.Context, req *Request) (*Response, error) {
	return c.do(ctx, req, nil)
}

// do is DoRaw; with into, each attempt reads the body into it, and the
// response's Body aliases it.
func (c *Client) do(ctx context.Context, req *Request, into *bytes.Buffer) (*Response, error) {
	body := req.Body
	contentType := req.ContentType
	if req.JSON != nil {
		b, err := json.Marshal(req.JSON)
		if err != nil {
			return nil, fmt.Errorf("upstream %s: encode request: %w", c.opts.Provider, err)
		}
		body, contentType = b, "application/json"
	}
	token := ""
	if req.Token != nil {
		t, err := req.Token.Token(ctx)
		if err != nil {
			return nil, err
		}
		token = t
	}
	refreshed := false
	for attempt := 0; ; attempt++ {
		resp, err := c.attempt(ctx, req, body, contentType, token, into)
		if err != nil {
			return nil, err
		}
		if resp.Status >= 200 && resp.Status < 300 {
			return resp, nil
		}
		f := c.failure(resp)
		switch {
		case f.Refresh && req.Token != nil && !refreshed:
			// The provider did not act on a request it refused to authenticate,
			// so retrying after a refresh is safe even for mutations.
			refreshed = true
			fresh, err := req.Token.Refresh(ctx, token)
			if err != nil {
				return nil, refreshError(err, f, c.statusError(resp, f, req.secrets(token)))
			}
			token = fresh
			continue
		case f.Retry && !req.Mutating && attempt == 0:
			wait, ok := c.retryWait(f)
			if ok {
				if err := sleep(ctx, wait); err != nil {
					return nil, c.timeoutError(err)
				}
				continue
			}
		}
		return nil, c.statusError(resp, f, req.secrets(token))
	}
}

// secrets are the credentials a request carries: its token and Secrets.
func (req *Request) secrets(token string) []string {
	return append([]string{token}, req.Secrets...)
}

func (c *Client) attempt(ctx context.Context, req *Request, body []byte, contentType, token string, into *bytes.Buffer) (*Response, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	u := c.base.String() + req.Path
	if len(req.Query) > 0 {
		sep := "?"
		if strings.Contains(req.Path, "?") {
			sep = "&"
		}
		u += sep + req.Query.Encode()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, u, rd)
	if err != nil {
		return nil, fmt.Errorf("upstream %s: build request: %w", c.opts.Provider, err)
	}
	for k, vs := range c.opts.Header {
		hr.Header[k] = vs
	}
	for k, vs := range req.Header {
		hr.Header[k] = vs
	}
	if contentType != "" {
		hr.Header.Set("Content-Type", contentType)
	}
	hr.Header.Set("Accept", "application/json")
	if hr.Header.Get("User-Agent") == "" {
		hr.Header.Set("User-Agent", "gtmgate")
	}
	if token != "" {
		c.opts.Authorize(hr, token)
	}
	start := time.Now()
	resp, err := c.opts.HTTPClient.Do(hr)
	if err != nil {
		addTiming(ctx, time.Since(start))
		err = redactURL(err, req.secrets(token))
		if isTimeout(err) {
			return nil, c.timeoutError(err)
		}
		return nil, &gtmgate.Error{Code: gtmgate.EUpstream, Message: c.opts.Provider + " could not be reached",
			Detail: gtmgate.UpstreamDetail{Provider: c.opts.Provider}, Err: err}
	}
	defer resp.Body.Close()
	data, err := readBody(resp.Body, c.opts.MaxResponseBytes+1, into)
	addTiming(ctx, time.Since(start))
	if err != nil {
		if isTimeout(err) {
			return nil, c.timeoutError(err)
		}
		return nil, &gtmgate.Error{Code: gtmgate.EUpstream, Message: c.opts.Provider + " response could not be read",
			Detail: gtmgate.UpstreamDetail{Provider: c.opts.Provider, Status: resp.StatusCode}, Err: err}
	}
	if int64(len(data)) > c.opts.MaxResponseBytes {
		return nil, &gtmgate.Error{Code: gtmgate.EUpstream, Message: fmt.Sprintf("%s response exceeds %d bytes", c.opts.Provider, c.opts.MaxResponseBytes),
			Detail: gtmgate.UpstreamDetail{Provider: c.opts.Provider, Status: resp.StatusCode}}
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// ParseRetryAfter reads a Retry-After value (delay-seconds or HTTP date).
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var secs int
	if _, err := fmt.Sscanf(v, "%d", &secs); err == nil && fmt.Sprint(secs) == v {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// statusError is the error of a provider answer read as f: its code and
// hint, the provider's message, and a redacted excerpt of the body.
func (c *Client) statusError(resp *Response, f Failure, secrets []string) error {
	detail := gtmgate.UpstreamDetail{Provider: c.opts.Provider, Status: resp.Status, Body: Excerpt(Redact(resp.Body, secrets...))}
	e := &gtmgate.Error{Code: f.Code, Hint: f.Hint, Detail: detail}
	if f.Code == gtmgate.ERateLimited {
		e.RetryAfter = seconds(f.RetryAfter)
		e.Message = c.opts.Provider + " rate-limited the request"
		if resp.Status != http.StatusTooManyRequests {
			// A limit sent with another status: say which, and what the provider said.
			e.Message += fmt.Sprintf(" (HTTP %d)", resp.Status)
			if msg := ProviderMessage(resp.Body); msg != "" {
				e.Message += ": " + Redact([]byte(msg), secrets...).String()
			}
		}
		return e
	}
	e.Message = fmt.Sprintf("%s rejected the request (HTTP %d)", c.opts.Provider, resp.Status)
	if msg := ProviderMessage(resp.Body); msg != "" {
		e.Message += ": " + Redact([]byte(msg), secrets...).String()
	}
	return e
}

func (c *Client) timeoutError(err error) error {
	return &gtmgate.Error{Code: gtmgate.EUpstreamTimeout, Message: fmt.Sprintf("%s did not answer within %s", c.opts.Provider, c.opts.Timeout),
		Detail: gtmgate.UpstreamDetail{Provider: c.opts.Provider}, Err: err}
}

// redactURL removes credentials from the URL a transport error quotes (its
// query may carry keys or a token), since the error's text is logged.
func redactURL(err error, secrets []string) error {
	ue, ok := err.(*url.Error)
	if !ok {
		return err
	}
	copy := *ue
	copy.URL = Redact([]byte(ue.URL), secrets...).String()
	return &copy
}

func isTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// refreshError is the error of a refused credential that could not be
// renewed: the renewal's own coded error, given the provider's detail (from
// cause) when it has none, so the caller still sees what the provider said,
// and, when the provider's failure f is REAUTH_REQUIRED, f's hint (how that
// provider's accounts are re-authorised) before the renewal's.
func refreshError(err error, f Failure, cause error) error {
	var e *gtmgate.Error
	var c *gtmgate.Error
	if !errors.As(err, &e) {
		return err
	}
	addDetail := e.Detail == nil && errors.As(cause, &c)
	addHint := f.Code == gtmgate.EReauthRequired && e.Code == gtmgate.EReauthRequired && f.Hint != ""
	if !addDetail && !addHint {
		return err
	}
	copy := *e
	if addDetail {
		copy.Detail = c.Detail
	}
	if addHint {
		copy.Hint = strings.TrimSuffix(f.Hint+"; or "+e.Hint, "; or ")
	}
	return &copy
}

// readBody reads at most limit bytes of r: into into, when given (the
// bytes returned are its own), else into a pooled buffer, copied out at
// their size. io.ReadAll starts at 512 bytes and grows, copying: it was a
// fifth of the REST path's allocated bytes. A declared Content-Length is
// not trusted for sizing: an upstream could declare the limit and send
// nothing.
func readBody(r io.Reader, limit int64, into *bytes.Buffer) ([]byte, error) {
	r = io.LimitReader(r, limit)
	if into != nil {
		into.Reset()
		_, err := into.ReadFrom(r)
		return into.Bytes(), err
	}
	buf := bufpool.Get()
	defer bufpool.Put(buf)
	_, err := buf.ReadFrom(r)
	return bytes.Clone(buf.Bytes()), err
}
