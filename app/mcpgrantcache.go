package app

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/store/storecache"
)

// grantCacheMaxAge is how long a cached grant token is served without
// reading the store. This replica's own writes of a grant (refresh,
// re-authorisation, re-connect, a server changed or removed) drop it at
// once; this bounds what another replica's revoke can leave cached.
const grantCacheMaxAge = 30 * time.Second

// grantCacheMaxEntries bounds the cache; when full it is cleared.
const grantCacheMaxEntries = 10000

// grantKey is one grant: a tenant's server and the grant's account.
type grantKey struct{ tenant, server, account string }

// cachedGrant is a grant's access token as last read.
type cachedGrant struct {
	token string
	// expires is when the token expires, zero when it does not say.
	expires time.Time
	readAt  time.Time
}

// grantCache keeps upstream MCP grants' access tokens, so that each
// upstream request (mcpupstream's transport asks for the token every time)
// does not read the store.
type grantCache struct {
	now func() time.Time

	mu sync.Mutex
	m  map[grantKey]cachedGrant
	// gen counts drops: a token read before a drop is not cached after it.
	gen uint64
}

func newGrantCache(now func() time.Time) *grantCache {
	return &grantCache{now: now, m: map[grantKey]cachedGrant{}}
}

// usable reports whether e can be sent at now instead of stale.
func (e cachedGrant) usable(now time.Time, stale string) bool {
	return e.token != "" && e.token != stale && (e.expires.IsZero() || now.Before(e.expires))
}

// fresh returns k's token while it is younger than grantCacheMaxAge,
// unexpired and not stale.
func (c *grantCache) fresh(k grantKey, stale string) (string, bool) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !e.usable(now, stale) || now.Sub(e.readAt) >= grantCacheMaxAge {
		return "", false
	}
	return e.token, true
}

// servable returns k's token while the store does not answer: unexpired,
// not stale, and read within storecache.StaleFor, the bound the built-in
// tools' tokens ride an outage with.
func (c *grantCache) servable(k grantKey, stale string) (string, bool) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !e.usable(now, stale) || now.Sub(e.readAt) >= storecache.StaleFor {
		return "", false
	}
	return e.token, true
}

// generation is the drop count, taken before a read whose token put caches.
func (c *grantCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put caches k's token read since generation gen, unless a drop came
// between: the token it read may be the one dropped.
func (c *grantCache) put(k grantKey, token string, expires time.Time, gen uint64) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if len(c.m) >= grantCacheMaxEntries {
		clear(c.m)
	}
	c.m[k] = cachedGrant{token: token, expires: expires, readAt: now}
}

// drop forgets the token of the tenant's server's grant of account, or of
// every account when account is "".
func (c *grantCache) drop(tenant, server, account string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for k := range c.m {
		if k.tenant == tenant && k.server == server && (account == "" || k.account == account) {
			delete(c.m, k)
		}
	}
}

// grantWatch is the store as grants are written through it: the
// refresher's renewals and refusals, the connect flow's new grants and
// seeds, and mcpGrants' own marks drop the cached token of the "mcp:"
// grant they write.
type grantWatch struct {
	gtmgate.Store
	cache *grantCache
}

func (w grantWatch) dropGrant(tenant, provider, account string) {
	if server, ok := strings.CutPrefix(provider, gtmgate.MCPGrantPrefix); ok {
		w.cache.drop(tenant, server, account)
	}
}

// PutProviderToken stores t, then drops its cached grant token.
func (w grantWatch) PutProviderToken(ctx context.Context, t *gtmgate.ProviderToken) error {
	err := w.Store.PutProviderToken(ctx, t)
	w.dropGrant(t.TenantID, t.Provider, t.AccountID)
	return err
}

// CompleteRefresh stores a refresh's outcome, then drops the account's
// cached grant token (renewed, or refused and marked for re-authorisation).
func (w grantWatch) CompleteRefresh(ctx context.Context, r gtmgate.RefreshResult) error {
	err := w.Store.CompleteRefresh(ctx, r)
	w.dropGrant(r.TenantID, r.Provider, r.AccountID)
	return err
}

// PutProviderOAuth stores a refresh record (a connect's seed), then drops
// the account's cached grant token.
func (w grantWatch) PutProviderOAuth(ctx context.Context, o *gtmgate.ProviderOAuth) error {
	err := w.Store.PutProviderOAuth(ctx, o)
	w.dropGrant(o.TenantID, o.Provider, o.AccountID)
	return err
}
