// Package throttle slows credential guessing. A Guard counts failed
// credential checks per client (an IPv4 address, or an IPv6 /64 network)
// and, once a client has spent its budget, refuses its further attempts
// (429 RATE_LIMITED with Retry-After) until the budget refills. Counting per
// client means a correct credential presented from anywhere else is never
// locked out.
package throttle

import (
	"log/slog"
	"math"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/clientip"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"
)

// Defaults: 20 failures at once, then one more every 3 s (20 a minute).
const (
	DefaultBurst  = 20
	DefaultRefill = 3 * time.Second
	// maxClients bounds memory; past it, fully refilled entries are dropped.
	maxClients = 100_000
)

// Options configures a Guard. Name labels logs and metrics ("admin", "bearer", "consent").
type Options struct {
	Name    string
	Burst   int
	Refill  time.Duration
	Clients *clientip.Resolver
	Metrics *Metrics
	Now     func() time.Time
	Logger  *slog.Logger
}

// Guard throttles one kind of credential check.
type Guard struct {
	opts  Options
	limit rate.Limit

	mu      sync.Mutex
	clients map[string]*rate.Limiter
}

// New returns a Guard.
func New(opts Options) *Guard {
	if opts.Burst <= 0 {
		opts.Burst = DefaultBurst
	}
	if opts.Refill <= 0 {
		opts.Refill = DefaultRefill
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Guard{opts: opts, limit: rate.Every(opts.Refill), clients: map[string]*rate.Limiter{}}
}

// Check returns nil when r's client may try a credential, else a
// RATE_LIMITED error saying when to retry. Call it before checking.
func (g *Guard) Check(r *http.Request) error {
	if g == nil {
		return nil
	}
	addr := g.clientKey(r)
	now := g.opts.Now()
	g.mu.Lock()
	lim := g.clients[addr]
	tokens := float64(g.opts.Burst)
	if lim != nil {
		tokens = lim.TokensAt(now)
	}
	g.mu.Unlock()
	if tokens >= 1 {
		return nil
	}
	wait := time.Duration((1 - tokens) * float64(g.opts.Refill))
	retry := int(math.Ceil(wait.Seconds()))
	g.opts.Metrics.throttled(g.opts.Name)
	g.opts.Logger.Warn("credential attempts throttled", "guard", g.opts.Name, "client", addr, "retry_after_s", retry)
	return &gtmgate.Error{Code: gtmgate.ERateLimited, RetryAfter: max(retry, 1),
		Message: "too many failed credential attempts from this address or its network",
		Hint:    "check the credential, then retry after the time in Retry-After"}
}

// Fail records a failed credential check by r's client.
func (g *Guard) Fail(r *http.Request) {
	if g == nil {
		return
	}
	addr := g.clientKey(r)
	now := g.opts.Now()
	g.mu.Lock()
	lim := g.clients[addr]
	if lim == nil {
		if len(g.clients) >= maxClients {
			g.prune(now)
		}
		lim = rate.NewLimiter(g.limit, g.opts.Burst)
		g.clients[addr] = lim
	}
	lim.AllowN(now, 1)
	g.mu.Unlock()
	g.opts.Metrics.failed(g.opts.Name)
}

// clientKey is the budget r's failures count against: the client's address
// as the resolver parsed it, grouped by ClientKey; a peer address that
// cannot be parsed counts under its own text.
func (g *Guard) clientKey(r *http.Request) string {
	ip, ok := g.opts.Clients.Client(r)
	if !ok {
		return g.opts.Clients.Addr(r)
	}
	return ClientKey(ip)
}

// ClientKey groups client addresses into budgets: an IPv4 address is one
// client; an IPv6 address counts with its /64 network, because one host or
// one customer of an ISP is routinely handed a whole /64 and could
// otherwise rotate through 2^64 addresses, each with a fresh budget.
// IPv4-mapped IPv6 addresses count as their IPv4 address.
func ClientKey(ip netip.Addr) string {
	ip = ip.Unmap()
	if !ip.Is6() {
		return ip.WithZone("").String()
	}
	p, err := ip.Prefix(64)
	if err != nil {
		return ip.String()
	}
	return p.String()
}

// prune drops addresses whose budget has refilled; if that frees nothing,
// it forgets every address (a flood of distinct addresses must not grow
// memory without bound). Called with g.mu held.
func (g *Guard) prune(now time.Time) {
	for addr, lim := range g.clients {
		if lim.TokensAt(now) >= float64(g.opts.Burst) {
			delete(g.clients, addr)
		}
	}
	if len(g.clients) >= maxClients {
		clear(g.clients)
	}
}

// Metrics counts failures and throttled attempts per guard.
type Metrics struct {
	failures  *prometheus.CounterVec
	throttles *prometheus.CounterVec
}

// NewMetrics registers the guards' counters with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gtmgate_auth_failures_total", Help: "Failed credential checks by guard (admin, bearer, consent).",
		}, []string{"guard"}),
		throttles: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gtmgate_auth_throttled_total", Help: "Credential attempts refused by throttling, by guard.",
		}, []string{"guard"}),
	}
	reg.MustRegister(m.failures, m.throttles)
	return m
}

func (m *Metrics) failed(guard string) {
	if m != nil {
		m.failures.WithLabelValues(guard).Inc()
	}
}

func (m *Metrics) throttled(guard string) {
	if m != nil {
		m.throttles.WithLabelValues(guard).Inc()
	}
}
