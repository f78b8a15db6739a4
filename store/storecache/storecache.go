// Package storecache puts a short-lived read-through cache in front of the
// three store reads every tool call makes: the bearer token, the tenant and
// the provider token. Local writes invalidate at once; other replicas' writes
// are seen within the TTL (a revoked token stops working everywhere within
// it). Misses are never cached, so unknown tokens cannot fill the cache.
//
// While the store is unavailable (gtmgate.ErrStoreUnavailable, or no
// answer within LoadTimeout), an entry up to StaleFor old is served instead
// of the error, so calls that need only the provider keep working through
// a short outage. Once a read found the store down, the others do not wait
// for it: one caller at a time, at most once per TTL, asks it again, and a
// hanging store costs that one call LoadTimeout, not every read.
package storecache

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// DefaultTTL is how long an entry is trusted.
const DefaultTTL = time.Second

// StaleFor is how old an entry may be and still be served while the store
// is unavailable: a token revoked during an outage keeps working this long.
const StaleFor = 5 * time.Minute

// LoadTimeout bounds one read from the store behind the cache.
const LoadTimeout = 3 * time.Second

// maxEntries bounds each map; when full it is cleared.
const maxEntries = 10000

// Store wraps a gtmgate.Store.
type Store struct {
	gtmgate.Store
	ttl time.Duration
	now func() time.Time

	mu        sync.Mutex
	tokens    map[string]entry[*gtmgate.TenantToken]
	tenants   map[string]entry[*gtmgate.Tenant]
	providers map[[3]string]entry[*gtmgate.ProviderToken]
	down      outage

	// Logger receives the outage's start and end (nil: slog.Default()).
	Logger *slog.Logger
}

func (s *Store) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

type entry[T any] struct {
	v       T
	expires time.Time
}

// New wraps s; ttl <= 0 means DefaultTTL.
func New(s gtmgate.Store, ttl time.Duration, now func() time.Time) *Store {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Store{Store: s, ttl: ttl, now: now, tokens: map[string]entry[*gtmgate.TenantToken]{},
		tenants: map[string]entry[*gtmgate.Tenant]{}, providers: map[[3]string]entry[*gtmgate.ProviderToken]{}}
}

// lookup returns the cached value of k, or loads it (within LoadTimeout)
// and caches it. While the store is down (a load failed with
// gtmgate.ErrStoreUnavailable or found no answer within LoadTimeout), an
// entry up to StaleFor old is served without asking the store, and a key
// with no such entry is refused at once with UNAVAILABLE; one caller at a
// time asks the store again, at most once per TTL, as federation does for
// its views. A hanging store so costs one call LoadTimeout per TTL instead
// of every read of every call.
func lookup[K comparable, T any](ctx context.Context, s *Store, m map[K]entry[T], k K, load func(context.Context) (T, error)) (T, error) {
	now := s.now()
	s.mu.Lock()
	e, ok := m[k]
	if ok && now.Before(e.expires) {
		s.mu.Unlock()
		return e.v, nil
	}
	servable := ok && now.Before(e.expires.Add(StaleFor-s.ttl))
	probe := !s.down.since.IsZero()
	if probe && (s.down.probing || now.Before(s.down.retryAt)) {
		cause := s.down.cause
		s.mu.Unlock()
		if servable {
			return e.v, nil
		}
		var zero T
		return zero, cause
	}
	s.down.probing = probe
	s.mu.Unlock()

	lctx, cancel := context.WithTimeout(ctx, LoadTimeout)
	v, err := load(lctx)
	cancel()

	switch {
	case storeDown(ctx, err):
		s.wentDown(err)
		if servable {
			return e.v, nil
		}
		return v, unavailable(err)
	case ctx.Err() != nil && err != nil:
		// The caller gave up: nothing learnt about the store.
		s.mu.Lock()
		if probe {
			s.down.probing = false
		}
		s.mu.Unlock()
		return v, err
	}
	s.cameBack()
	if err != nil {
		return v, err
	}
	s.mu.Lock()
	if len(m) >= maxEntries {
		clear(m)
	}
	m[k] = entry[T]{v: v, expires: s.now().Add(s.ttl)}
	s.mu.Unlock()
	return v, nil
}

func drop[K comparable, T any](s *Store, m map[K]entry[T], keep func(K, T) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, e := range m {
		if !keep(k, e.v) {
			delete(m, k)
		}
	}
}

// FindTenantToken is cached for hits.
func (s *Store) FindTenantToken(ctx context.Context, hash string) (*gtmgate.TenantToken, error) {
	return lookup(ctx, s, s.tokens, hash, func(ctx context.Context) (*gtmgate.TenantToken, error) {
		return s.Store.FindTenantToken(ctx, hash)
	})
}

// RevokeTenantToken invalidates the tenant's cached tokens.
func (s *Store) RevokeTenantToken(ctx context.Context, tenantID, tokenID string, at time.Time) error {
	err := s.Store.RevokeTenantToken(ctx, tenantID, tokenID, at)
	drop(s, s.tokens, func(_ string, t *gtmgate.TenantToken) bool { return t.ID != tokenID })
	return err
}

// GetTenant is cached. Callers must not modify the returned tenant.
func (s *Store) GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error) {
	return lookup(ctx, s, s.tenants, id, func(ctx context.Context) (*gtmgate.Tenant, error) {
		return s.Store.GetTenant(ctx, id)
	})
}

// PutTenant invalidates the tenant.
func (s *Store) PutTenant(ctx context.Context, t *gtmgate.Tenant) (bool, error) {
	created, err := s.Store.PutTenant(ctx, t)
	drop(s, s.tenants, func(id string, _ *gtmgate.Tenant) bool { return id != t.ID })
	return created, err
}

// GetProviderToken is cached.
func (s *Store) GetProviderToken(ctx context.Context, tenantID, provider, accountID string) (*gtmgate.ProviderToken, error) {
	return lookup(ctx, s, s.providers, [3]string{tenantID, provider, accountID}, func(ctx context.Context) (*gtmgate.ProviderToken, error) {
		return s.Store.GetProviderToken(ctx, tenantID, provider, accountID)
	})
}

// PutProviderToken invalidates the account's token.
func (s *Store) PutProviderToken(ctx context.Context, t *gtmgate.ProviderToken) error {
	err := s.Store.PutProviderToken(ctx, t)
	s.dropProvider(t.TenantID, t.Provider, t.AccountID)
	return err
}

// CompleteRefresh invalidates the refreshed account's token.
func (s *Store) CompleteRefresh(ctx context.Context, r gtmgate.RefreshResult) error {
	err := s.Store.CompleteRefresh(ctx, r)
	s.dropProvider(r.TenantID, r.Provider, r.AccountID)
	return err
}

func (s *Store) dropProvider(tenant, provider, account string) {
	key := [3]string{tenant, provider, account}
	drop(s, s.providers, func(k [3]string, _ *gtmgate.ProviderToken) bool { return k != key })
}

// Servable reports how many bearer tokens the cache could serve calls for
// now if the store were unreachable: the token's entry and its tenant's are
// both fresh or within StaleFor. Readiness reads it to tell a replica that
// can ride out a store outage from one with nothing to serve from (a cold
// start, or an outage longer than StaleFor).
func (s *Store) Servable() int {
	now := s.now()
	usable := func(expires time.Time) bool { return now.Before(expires.Add(StaleFor - s.ttl)) }
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.tokens {
		if t, ok := s.tenants[e.v.TenantID]; ok && usable(e.expires) && usable(t.expires) {
			n++
		}
	}
	return n
}
