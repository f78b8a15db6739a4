package refresh

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// memStore is an in-memory Store with the semantics of store/sqlstore
// (checked against the real stores by the replica tests), so that timer
// tests can run in a synctest bubble.
type memStore struct {
	mu      sync.Mutex
	tenants map[string]*gtmgate.Tenant
	tokens  map[string]gtmgate.ProviderToken
	oauth   map[string]*memOAuth
}

type memOAuth struct {
	rec         gtmgate.ProviderOAuth
	holder      string
	leaseUntil  time.Time
	leaseActive bool
}

func newMemStore() *memStore {
	return &memStore{tenants: map[string]*gtmgate.Tenant{}, tokens: map[string]gtmgate.ProviderToken{}, oauth: map[string]*memOAuth{}}
}

func memKey(tenant, provider, id string) string { return account{tenant, provider, id}.key() }

func (m *memStore) PutTenant(_ context.Context, t *gtmgate.Tenant) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, had := m.tenants[t.ID]
	c := *t
	m.tenants[t.ID] = &c
	return !had, nil
}

func (m *memStore) GetTenant(_ context.Context, id string) (*gtmgate.Tenant, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tenants[id]
	if !ok {
		return nil, gtmgate.ErrNotFound
	}
	c := *t
	return &c, nil
}

func (m *memStore) PutProviderToken(_ context.Context, t *gtmgate.ProviderToken) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens[memKey(t.TenantID, t.Provider, t.AccountID)] = *t
	return nil
}

func (m *memStore) GetProviderToken(_ context.Context, tenant, provider, id string) (*gtmgate.ProviderToken, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tokens[memKey(tenant, provider, id)]
	if !ok {
		return nil, gtmgate.ErrNotFound
	}
	return &t, nil
}

func (m *memStore) PutProviderOAuth(_ context.Context, o *gtmgate.ProviderOAuth) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tenants[o.TenantID]; !ok {
		return gtmgate.ErrNotFound
	}
	k := memKey(o.TenantID, o.Provider, o.AccountID)
	if cur, ok := m.oauth[k]; ok {
		cur.rec = *o // the lease is kept
		return nil
	}
	m.oauth[k] = &memOAuth{rec: *o}
	return nil
}

func (m *memStore) GetProviderOAuth(_ context.Context, tenant, provider, id string) (*gtmgate.ProviderOAuth, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.oauth[memKey(tenant, provider, id)]
	if !ok {
		return nil, gtmgate.ErrNotFound
	}
	c := o.rec
	return &c, nil
}

func (m *memStore) ListProviderOAuth(_ context.Context, tenant string) ([]*gtmgate.ProviderOAuth, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []*gtmgate.ProviderOAuth{}
	for _, o := range m.oauth {
		if tenant == "" || o.rec.TenantID == tenant {
			c := o.rec
			out = append(out, &c)
		}
	}
	slices.SortFunc(out, func(a, b *gtmgate.ProviderOAuth) int {
		return strings.Compare(memKey(a.TenantID, a.Provider, a.AccountID), memKey(b.TenantID, b.Provider, b.AccountID))
	})
	return out, nil
}

func (m *memStore) ClaimRefresh(_ context.Context, tenant, provider, id, holder string, now, until time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.oauth[memKey(tenant, provider, id)]
	if !ok {
		return false, gtmgate.ErrNotFound
	}
	if o.leaseActive && !o.leaseUntil.Before(now) && o.holder != holder {
		return false, nil
	}
	o.holder, o.leaseUntil, o.leaseActive = holder, until, true
	return true, nil
}

func (m *memStore) CompleteRefresh(_ context.Context, r gtmgate.RefreshResult) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.oauth[memKey(r.TenantID, r.Provider, r.AccountID)]
	if !ok {
		return gtmgate.ErrNotFound
	}
	if r.RotatedRefreshToken != "" {
		o.rec.RefreshToken = r.RotatedRefreshToken
	}
	o.rec.NeedsReauth, o.rec.LastError, o.rec.UpdatedAt = r.NeedsReauth, r.Err, r.At
	o.holder, o.leaseActive = "", false
	if r.Token != nil {
		at := r.At
		o.rec.LastRefreshAt = &at
		t := *r.Token
		t.TenantID, t.Provider, t.AccountID = r.TenantID, r.Provider, r.AccountID
		if t.UpdatedAt.IsZero() {
			t.UpdatedAt = r.At
		}
		m.tokens[memKey(r.TenantID, r.Provider, r.AccountID)] = t
	}
	return nil
}

// leaseHolder returns the live lease's holder ("" when none).
func (m *memStore) leaseHolder(tenant, provider, id string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o, ok := m.oauth[memKey(tenant, provider, id)]; ok && o.leaseActive {
		return o.holder
	}
	return ""
}

// tokenStore lets toolrun.StoredTokens read a memStore; it uses only the
// provider token methods.
type tokenStore struct {
	gtmgate.TokenStore
	m *memStore
}

func (s tokenStore) GetProviderToken(ctx context.Context, tenant, provider, id string) (*gtmgate.ProviderToken, error) {
	return s.m.GetProviderToken(ctx, tenant, provider, id)
}

func (s tokenStore) PutProviderToken(ctx context.Context, t *gtmgate.ProviderToken) error {
	return s.m.PutProviderToken(ctx, t)
}
