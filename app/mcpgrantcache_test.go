package app

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// grantFakeStore keeps grants in memory, counts the token reads, and fails
// every read with ErrStoreUnavailable while down.
type grantFakeStore struct {
	mu     sync.Mutex
	tokens map[string]*gtmgate.ProviderToken
	oauth  map[string]*gtmgate.ProviderOAuth
	reads  int
	down   bool
}

func grantFakeKey(tenant, provider, account string) string {
	return tenant + "/" + provider + "/" + account
}

func (s *grantFakeStore) unavailable() error {
	return &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "store down", Err: gtmgate.ErrStoreUnavailable}
}

func (s *grantFakeStore) GetProviderToken(_ context.Context, tenant, provider, account string) (*gtmgate.ProviderToken, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	if s.down {
		return nil, s.unavailable()
	}
	t, ok := s.tokens[grantFakeKey(tenant, provider, account)]
	if !ok {
		return nil, gtmgate.ErrNotFound
	}
	c := *t
	return &c, nil
}

func (s *grantFakeStore) PutProviderToken(_ context.Context, t *gtmgate.ProviderToken) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *t
	s.tokens[grantFakeKey(t.TenantID, t.Provider, t.AccountID)] = &c
	return nil
}

func (s *grantFakeStore) ListProviderTokens(_ context.Context, tenant string) ([]gtmgate.ProviderTokenInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []gtmgate.ProviderTokenInfo
	for _, t := range s.tokens {
		if t.TenantID == tenant {
			exp := t.ExpiresAt
			out = append(out, gtmgate.ProviderTokenInfo{Provider: t.Provider, AccountID: t.AccountID, ExpiresAt: &exp, UpdatedAt: t.UpdatedAt})
		}
	}
	return out, nil
}

func (s *grantFakeStore) GetProviderOAuth(_ context.Context, tenant, provider, account string) (*gtmgate.ProviderOAuth, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return nil, s.unavailable()
	}
	o, ok := s.oauth[grantFakeKey(tenant, provider, account)]
	if !ok {
		return nil, gtmgate.ErrNotFound
	}
	return o, nil
}

func (s *grantFakeStore) CompleteRefresh(_ context.Context, r gtmgate.RefreshResult) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := grantFakeKey(r.TenantID, r.Provider, r.AccountID)
	if o, ok := s.oauth[k]; ok {
		o.NeedsReauth = r.NeedsReauth
	}
	if r.Token != nil {
		c := *r.Token
		s.tokens[k] = &c
	}
	return nil
}

// grantFakeRefresher renews any grant with a refresh record to next.
type grantFakeRefresher struct {
	st   *grantFakeStore
	next string
}

func (r *grantFakeRefresher) Configured(ctx context.Context, tenant, provider, account string) bool {
	_, err := r.st.GetProviderOAuth(ctx, tenant, provider, account)
	return err == nil
}

func (r *grantFakeRefresher) Refresh(ctx context.Context, tenant, provider, account, _ string) (string, error) {
	if r.next == "" {
		return "", gtmgate.Errorf(gtmgate.EReauthRequired, "refused")
	}
	// As the real refresher, through the store mcpGrants writes with (so
	// the watch sees it).
	tok := &gtmgate.ProviderToken{TenantID: tenant, Provider: provider, AccountID: account, AccessToken: r.next, UpdatedAt: time.Now()}
	return r.next, r.st.PutProviderToken(ctx, tok)
}

// TestGrantCache: GrantToken reads the store once and then serves the
// cached token until it expires, grows older than grantCacheMaxAge, equals
// the token an upstream refused (stale), is rejected, or the grant is
// written (revoked, renewed) through the watched store; while the store is
// down a cached unexpired token is still served.
func TestGrantCache(t *testing.T) {
	t.Parallel()
	const tenant, server, person = "t1", "crm", "p_ann"
	provider := gtmgate.MCPGrantProvider(server)
	start := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		// then acts between the first GrantToken and the second, at the
		// clock's time plus advance.
		advance time.Duration
		then    func(g *mcpGrants, st *grantFakeStore)
		stale   string // the second GrantToken's stale token
		// want is the second GrantToken's token ("" for an error of
		// wantCode); reads the store's token reads it made.
		want     string
		wantCode string
		reads    int
	}{
		{name: "hit", advance: 10 * time.Second, want: "at-1", reads: 0},
		{name: "older than the max age", advance: grantCacheMaxAge, want: "at-1", reads: 1},
		{name: "expired, renewed", advance: time.Hour, want: "at-2", reads: 2},
		{name: "stale, renewed", stale: "at-1", want: "at-2", reads: 2},
		{name: "rejected", then: func(g *mcpGrants, _ *grantFakeStore) {
			g.GrantRejected(context.Background(), tenant, server, person, "at-1")
		}, wantCode: gtmgate.EReauthRequired, reads: 1},
		{name: "revoked (marked for re-authorisation)", then: func(g *mcpGrants, _ *grantFakeStore) {
			_ = g.store.CompleteRefresh(context.Background(), gtmgate.RefreshResult{TenantID: tenant, Provider: provider, AccountID: person,
				NeedsReauth: true, Err: "invalid_grant"})
		}, wantCode: gtmgate.EReauthRequired, reads: 1},
		{name: "renewed by the refresher", then: func(g *mcpGrants, _ *grantFakeStore) {
			_ = g.store.CompleteRefresh(context.Background(), gtmgate.RefreshResult{TenantID: tenant, Provider: provider, AccountID: person,
				Token: &gtmgate.ProviderToken{TenantID: tenant, Provider: provider, AccountID: person, AccessToken: "at-3"}})
		}, want: "at-3", reads: 1},
		{name: "server removed", then: func(g *mcpGrants, _ *grantFakeStore) {
			g.cache.drop(tenant, server, "")
		}, want: "at-1", reads: 1},
		{name: "store down, cached token served past the max age", advance: time.Minute, then: func(_ *mcpGrants, st *grantFakeStore) {
			st.down = true
		}, want: "at-1", reads: 1},
		{name: "store down, cached token expired", advance: time.Hour, then: func(_ *mcpGrants, st *grantFakeStore) {
			st.down = true
		}, wantCode: gtmgate.EUnavailable, reads: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			now := start
			st := &grantFakeStore{tokens: map[string]*gtmgate.ProviderToken{}, oauth: map[string]*gtmgate.ProviderOAuth{}}
			k := grantFakeKey(tenant, provider, person)
			st.tokens[k] = &gtmgate.ProviderToken{TenantID: tenant, Provider: provider, AccountID: person, AccessToken: "at-1",
				ExpiresAt: start.Add(30 * time.Minute), UpdatedAt: start}
			st.oauth[k] = &gtmgate.ProviderOAuth{TenantID: tenant, Provider: provider, AccountID: person}
			cache := newGrantCache(func() time.Time { return now })
			watched := grantWatch{cache: cache}
			g := &mcpGrants{store: fakeWatch{grantFakeStore: st, w: watched}, cache: cache, logger: slog.New(slog.DiscardHandler)}
			g.refresher = &grantFakeRefresher{st: st, next: "at-2"}
			ctx := context.Background()
			if tok, err := g.GrantToken(ctx, tenant, server, person, ""); err != nil || tok != "at-1" {
				t.Fatalf("first GrantToken = %q, %v", tok, err)
			}
			before := st.reads
			now = now.Add(tc.advance)
			if tc.then != nil {
				tc.then(g, st)
			}
			tok, err := g.GrantToken(ctx, tenant, server, person, tc.stale)
			switch {
			case tc.wantCode != "" && gtmgate.ErrorCode(err) != tc.wantCode:
				t.Errorf("GrantToken = %q, %v, want %s", tok, err, tc.wantCode)
			case tc.wantCode == "" && (err != nil || tok != tc.want):
				t.Errorf("GrantToken = %q, %v, want %q", tok, err, tc.want)
			}
			if got := st.reads - before; got != tc.reads {
				t.Errorf("token reads = %d, want %d", got, tc.reads)
			}
		})
	}
}

// fakeWatch is grantWatch over the fake store: its writes drop the cache.
type fakeWatch struct {
	*grantFakeStore
	w grantWatch
}

func (f fakeWatch) PutProviderToken(ctx context.Context, t *gtmgate.ProviderToken) error {
	err := f.grantFakeStore.PutProviderToken(ctx, t)
	f.w.dropGrant(t.TenantID, t.Provider, t.AccountID)
	return err
}

func (f fakeWatch) CompleteRefresh(ctx context.Context, r gtmgate.RefreshResult) error {
	err := f.grantFakeStore.CompleteRefresh(ctx, r)
	f.w.dropGrant(r.TenantID, r.Provider, r.AccountID)
	return err
}

// TestListingAccount: a per-person server is listed with the grant stored
// last among those that hold; none holding is REAUTH_REQUIRED.
func TestListingAccount(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	provider := gtmgate.MCPGrantProvider("crm")
	st := &grantFakeStore{tokens: map[string]*gtmgate.ProviderToken{}, oauth: map[string]*gtmgate.ProviderOAuth{}}
	g := &mcpGrants{store: st, cache: newGrantCache(func() time.Time { return now }), logger: slog.New(slog.DiscardHandler)}
	put := func(account string, updated time.Time, reauth bool) {
		st.tokens[grantFakeKey("t1", provider, account)] = &gtmgate.ProviderToken{TenantID: "t1", Provider: provider, AccountID: account,
			AccessToken: "at-" + account, ExpiresAt: now.Add(time.Hour), UpdatedAt: updated}
		st.oauth[grantFakeKey("t1", provider, account)] = &gtmgate.ProviderOAuth{TenantID: "t1", Provider: provider, AccountID: account, NeedsReauth: reauth}
	}
	if _, err := g.ListingAccount(context.Background(), "t1", "crm"); gtmgate.ErrorCode(err) != gtmgate.EReauthRequired {
		t.Fatalf("no grants: %v, want REAUTH_REQUIRED", err)
	}
	put(gtmgate.MCPGrantTenant, now, false) // the tenant's grant is not a person's
	put("p_ann", now.Add(-time.Hour), false)
	put("p_bob", now.Add(-time.Minute), false)
	put("p_cy", now, true) // lapsed
	if got, err := g.ListingAccount(context.Background(), "t1", "crm"); err != nil || got != "p_bob" {
		t.Errorf("ListingAccount = %q, %v, want p_bob", got, err)
	}
}
