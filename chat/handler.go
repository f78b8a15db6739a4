// Package chat is the gateway's OpenAI-compatible chat pass-through: POST
// /v1/chat/completions and GET /v1/models, forwarded to the upstream model
// gateway with the operator's key instead of the tenant's, limited to the
// tenant's allowed models, with every call audited and metered.
//
// The request body is read whole before anything is forwarded: the handler
// needs `model` and `stream` anyway, and a still-streaming inbound body fed to
// the upstream request was seen to cut SSE responses short (DESIGN.md).
package chat

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/telemetry"
)

// Options configures a Handler. UpstreamURL, Tenants and Recorder are required.
type Options struct {
	// UpstreamURL is the model gateway's base, for example http://127.0.0.1:9000/v1
	// (MODEL_GATEWAY_URL). Requests go to UpstreamURL+"/chat/completions" and +"/models".
	UpstreamURL string
	// APIKey is sent upstream as "Authorization: Bearer" (MODEL_GATEWAY_API_KEY).
	APIKey string
	// Tenants supplies each tenant's AllowedModels. It is read on every call;
	// caching belongs to the store (the app passes a storecache.Store).
	Tenants gtmgate.TenantStore
	// Recorder persists each call's audit entry and usage event.
	Recorder gtmgate.Recorder
	// Quota, when set, refuses completions past a hard quota of the
	// tenant's billing plan and warns past a soft one.
	Quota gtmgate.QuotaChecker
	// Timeout bounds a whole non-streaming request and a model listing (default 120s).
	Timeout time.Duration
	// StreamIdleTimeout bounds the wait for the upstream's response headers and
	// every gap between streamed chunks (default 60s).
	StreamIdleTimeout time.Duration
	// MaxBodyBytes bounds the request body (default 4 MiB).
	MaxBodyBytes int64
	// MaxStreams bounds concurrent streamed responses in total (default 256),
	// MaxStreamsPerTenant per tenant (default 32); past either, 429.
	MaxStreams          int64
	MaxStreamsPerTenant int64
	// HTTPClient defaults to a client on a shared keep-alive transport.
	HTTPClient *http.Client
	// Logger defaults to slog.Default().
	Logger *slog.Logger
}

// Handler serves the chat pass-through. Mount it with Routes, or call
// ServeChatCompletions and ServeModels from routes of your own; either way the
// request context must carry the caller's *gtmgate.Principal.
type Handler struct {
	completionsURL string
	modelsURL      string
	auth           string // "Bearer <APIKey>", or "" to send none
	tenants        gtmgate.TenantStore
	recorder       gtmgate.Recorder
	quota          gtmgate.QuotaChecker
	timeout        time.Duration
	idle           time.Duration
	maxBody        int64
	streams        *streamSlots
	hc             *http.Client
	log            *slog.Logger
}

// maxResponseBytes bounds a buffered (non-streaming) upstream response.
const maxResponseBytes = 64 << 20

// sharedTransport keeps many warm connections to the one upstream. Compression
// is off: responses are small, usage must be parsed, and SSE must not be held
// back by a compressor.
var sharedTransport = &http.Transport{
	Proxy:               http.ProxyFromEnvironment,
	DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	MaxIdleConns:        256,
	MaxIdleConnsPerHost: 64,
	IdleConnTimeout:     90 * time.Second,
	TLSHandshakeTimeout: 10 * time.Second,
	DisableCompression:  true,
	ForceAttemptHTTP2:   true,
}

// New returns a Handler for opts.
func New(opts Options) (*Handler, error) {
	u, err := url.Parse(opts.UpstreamURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("chat: upstream URL %q must be an absolute http(s) URL", opts.UpstreamURL)
	}
	if opts.Tenants == nil || opts.Recorder == nil {
		return nil, errors.New("chat: Tenants and Recorder are required")
	}
	base := strings.TrimRight(u.String(), "/")
	h := &Handler{
		completionsURL: base + "/chat/completions",
		modelsURL:      base + "/models",
		tenants:        opts.Tenants,
		recorder:       opts.Recorder,
		quota:          opts.Quota,
		timeout:        orDefault(opts.Timeout, 120*time.Second),
		idle:           orDefault(opts.StreamIdleTimeout, 60*time.Second),
		maxBody:        orDefault(opts.MaxBodyBytes, 4<<20),
		streams:        newStreamSlots(orDefault(opts.MaxStreams, 256), orDefault(opts.MaxStreamsPerTenant, 32)),
		hc:             opts.HTTPClient,
		log:            opts.Logger,
	}
	if opts.APIKey != "" {
		h.auth = "Bearer " + opts.APIKey
	}
	if h.hc == nil {
		h.hc = &http.Client{
			Transport:     telemetry.Transport(sharedTransport, "model_gateway"),
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	return h, nil
}

func orDefault[T int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Routes registers POST /v1/chat/completions and GET /v1/models on mux, each
// wrapped by wrap (the authentication middleware; nil for none).
func (h *Handler) Routes(mux *http.ServeMux, wrap func(http.Handler) http.Handler) {
	if wrap == nil {
		wrap = func(next http.Handler) http.Handler { return next }
	}
	mux.Handle("POST /v1/chat/completions", wrap(http.HandlerFunc(h.ServeChatCompletions)))
	mux.Handle("GET /v1/models", wrap(http.HandlerFunc(h.ServeModels)))
}
