package refresh

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/toolrun"
)

// Store is the part of gtmgate.Store the refresher uses.
type Store interface {
	// GetTenant returns ErrNotFound for an unknown tenant.
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
	// GetProviderToken returns ErrNotFound when no token is stored.
	GetProviderToken(ctx context.Context, tenantID, provider, accountID string) (*gtmgate.ProviderToken, error)
	gtmgate.ProviderOAuthStore
}

// Defaults of Options.
const (
	DefaultInterval        = 30 * time.Second
	DefaultLeadTime        = 5 * time.Minute
	DefaultLease           = 30 * time.Second
	DefaultEndpointTimeout = 10 * time.Second
	DefaultWaitBudget      = 15 * time.Second
	// MaxResponseBytes caps a token endpoint response.
	MaxResponseBytes = 1 << 20
)

// Options configures a Refresher. Store is required.
type Options struct {
	Store Store
	// HTTPClient calls token endpoints; default a client that follows no redirects.
	HTTPClient *http.Client
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Holder names this process in refresh leases; default a random id.
	Holder string
	// Interval is the background worker's period (default 30s).
	Interval time.Duration
	// LeadTime is how long before expiry the worker renews a token (default 5m).
	LeadTime time.Duration
	// Lease is how long a refresh lease is held at most (default 30s).
	Lease time.Duration
	// EndpointTimeout bounds one token endpoint request (default 10s).
	EndpointTimeout time.Duration
	// WaitBudget bounds how long a tool call waits for another replica's
	// refresh (default 15s).
	WaitBudget time.Duration
	// AllowInsecureTokenEndpoint accepts http:// token endpoints on loopback
	// hosts (tests and the demo); https is required otherwise.
	AllowInsecureTokenEndpoint bool
	// MaxBodyBytes limits admin request bodies (default 1 MiB).
	MaxBodyBytes int64
	// Logger receives refresh outcomes (never secrets); default slog.Default.
	Logger *slog.Logger
}

// Refresher renews provider access tokens from seeded OAuth credentials. It
// implements toolrun.Refresher; Run is its background worker; Mount adds its
// admin routes.
type Refresher struct {
	opts   Options
	flight singleflight.Group
	// basicAuth holds the accounts whose endpoint wants client_secret_basic.
	basicAuth sync.Map

	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
}

var _ toolrun.Refresher = (*Refresher)(nil)

// New returns a Refresher; it fails when opts.Store is nil.
func New(opts Options) (*Refresher, error) {
	if opts.Store == nil {
		return nil, errors.New("refresh: options: a Store is required")
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Holder == "" {
		opts.Holder = gtmgate.NewID("refresher_")
	}
	setDefault(&opts.Interval, DefaultInterval)
	setDefault(&opts.LeadTime, DefaultLeadTime)
	setDefault(&opts.Lease, DefaultLease)
	setDefault(&opts.EndpointTimeout, DefaultEndpointTimeout)
	setDefault(&opts.WaitBudget, DefaultWaitBudget)
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Refresher{opts: opts}, nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// Holder returns the name this refresher uses in refresh leases.
func (r *Refresher) Holder() string { return r.opts.Holder }

// Configured reports whether the account has a seeding record. An account
// that needs re-authorisation is still configured, so that its Refresh fails
// with a REAUTH_REQUIRED naming the account; a store failure also reports
// true, so that Refresh surfaces it instead of a misleading REAUTH_REQUIRED.
func (r *Refresher) Configured(ctx context.Context, tenantID, provider, accountID string) bool {
	_, err := r.opts.Store.GetProviderOAuth(ctx, tenantID, provider, accountID)
	return !errors.Is(err, gtmgate.ErrNotFound)
}

// Refresh returns an access token newer than stale. When the stored token
// already differs from stale and has not expired, it is returned without a
// request. Concurrent callers in this process share one refresh; across
// replicas the store lease decides who calls the endpoint and the others wait
// for its token. Errors: REAUTH_REQUIRED (no seeding record, or the account
// needs re-authorisation), UPSTREAM_ERROR or UPSTREAM_TIMEOUT (the refresh
// failed and may succeed later).
func (r *Refresher) Refresh(ctx context.Context, tenantID, provider, accountID, stale string) (string, error) {
	a := account{tenant: tenantID, provider: provider, id: accountID}
	needs := func(t *gtmgate.ProviderToken, now time.Time) bool {
		return t == nil || t.AccessToken == stale || expired(t, now)
	}
	var out outcome
	var err error
	// A caller may join a flight started by the worker, which does not wait
	// for another replica's lease and may find a token still valid for
	// minutes; then it starts a flight of its own rather than fail or retry
	// with the refused token.
	for range 3 {
		out, err = r.shared(ctx, a, needs, true)
		if errors.Is(err, errLeased) || (err == nil && !out.renewed && stale != "" && out.token == stale) {
			continue
		}
		return out.token, err
	}
	if errors.Is(err, errLeased) {
		return "", busyError(a, r.opts.WaitBudget)
	}
	return out.token, err
}

// shared runs refreshAccount for a once per process at a time: concurrent
// callers get the same outcome. The refresh itself outlives a caller that
// gives up, so the other callers and the store still get its result.
func (r *Refresher) shared(ctx context.Context, a account, needs needsFunc, wait bool) (outcome, error) {
	detached := context.WithoutCancel(ctx)
	ch := r.flight.DoChan(a.key(), func() (any, error) {
		if err := r.begin(); err != nil {
			return outcome{}, err
		}
		defer r.inflight.Done()
		fctx, cancel := context.WithTimeout(detached, r.opts.WaitBudget+2*r.opts.EndpointTimeout)
		defer cancel()
		return r.refreshAccount(fctx, a, needs, wait)
	})
	select {
	case <-ctx.Done():
		return outcome{}, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			return outcome{}, res.Err
		}
		return res.Val.(outcome), nil
	}
}

// expired reports whether t has a known expiry that has passed at now.
func expired(t *gtmgate.ProviderToken, now time.Time) bool {
	return !t.ExpiresAt.IsZero() && !now.Before(t.ExpiresAt)
}
