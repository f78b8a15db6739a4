// Package webfetch implements the web_fetch tool: it reads one public web
// page and returns it as clean markdown. It needs no provider account. Its
// point is to be safe to hand to an agent: it only speaks http(s), refuses
// every non-public address on the address actually dialled (so DNS
// rebinding and redirects cannot reach internal services or cloud
// metadata), follows few redirects, and bounds size and time.
package webfetch

import (
	"context"
	"net/http"
	"net/netip"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
)

// Defaults of Options.
const (
	DefaultTimeout      = 15 * time.Second
	DefaultMaxBytes     = 2 << 20
	DefaultMaxRedirects = 5
	DefaultUserAgent    = "gtmgate-web-fetch/1.0 (+https://github.com/gtmgate/gtmgate)"
)

// Options configures web_fetch. Zero values take the defaults.
type Options struct {
	// AllowLoopback permits 127.0.0.0/8 and ::1; for tests and the demo only.
	AllowLoopback bool
	// Timeout bounds the whole fetch, redirects and body included (default 15s).
	Timeout time.Duration
	// MaxBytes caps the body read; longer pages are cut and marked truncated (default 2 MiB).
	MaxBytes int64
	// MaxRedirects is the most redirects followed (default 5, at most 5).
	MaxRedirects int
	// UserAgent is sent with every request.
	UserAgent string
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxRedirects <= 0 || o.MaxRedirects > DefaultMaxRedirects {
		o.MaxRedirects = DefaultMaxRedirects
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	return o
}

// Tools returns the web_fetch tool.
func Tools(opts Options) []gtmgate.Tool {
	f := newFetcher(opts)
	return []gtmgate.Tool{tool(f)}
}

func tool(f *fetcher) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "web_fetch", Domain: "search", Title: "Fetch a web page as markdown", OpenWorld: true,
		Description: "Read one public web page as markdown, with its title and final URL; large pages come back truncated.",
		Actions: []gtmgate.Action{{Name: "fetch", Description: "Fetch the page at url.",
			Category: gtmgate.CategorySearchQuery, Required: []string{"url"}}},
		Properties: map[string]*jsonschema.Schema{
			"url": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(2048)},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			var in struct {
				URL string `json:"url"`
			}
			if err := call.Bind(&in); err != nil {
				return nil, err
			}
			return f.fetch(ctx, in.URL)
		},
	}
}

// fetcher holds one configured HTTP client for web_fetch.
type fetcher struct {
	opts   Options
	policy egress.Policy
	// check vets every address before it is dialled, and IP-literal hosts
	// before the request; tests replace it to stand in for a public host.
	check  egress.CheckFunc
	client *http.Client
}

func newFetcher(opts Options) *fetcher {
	f := &fetcher{opts: opts.withDefaults(), policy: egress.Policy{AllowLoopback: opts.AllowLoopback}}
	f.check = func(host string, ap netip.AddrPort) error { return f.policy.Check(host, ap.Addr()) }
	transport := newTransport(func(host string, ap netip.AddrPort) error { return f.check(host, ap) })
	f.client = &http.Client{Transport: transport, CheckRedirect: f.checkRedirect}
	return f
}
