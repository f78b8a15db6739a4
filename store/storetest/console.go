package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

func testConsoleSessions(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	cs := &gtmgate.ConsoleSession{Hash: "h1", KeyHash: "k1", Address: "192.0.2.1", CreatedAt: t0, ExpiresAt: t0.Add(timeStep(60))}
	must(t, s.CreateConsoleSession(ctx, cs))
	wantErr(t, s.CreateConsoleSession(ctx, cs), gtmgate.ErrConflict)
	got, err := s.GetConsoleSession(ctx, "h1", t0.Add(timeStep(59)))
	must(t, err)
	if got.KeyHash != "k1" || got.Address != "192.0.2.1" || !got.CreatedAt.Equal(t0) || !got.ExpiresAt.Equal(cs.ExpiresAt) {
		t.Errorf("session read back as %+v", got)
	}
	_, err = s.GetConsoleSession(ctx, "h1", t0.Add(timeStep(60)))
	wantErr(t, err, gtmgate.ErrNotFound)
	_, err = s.GetConsoleSession(ctx, "unknown", t0)
	wantErr(t, err, gtmgate.ErrNotFound)

	must(t, s.DeleteConsoleSession(ctx, "h1"))
	_, err = s.GetConsoleSession(ctx, "h1", t0)
	wantErr(t, err, gtmgate.ErrNotFound)
	must(t, s.DeleteConsoleSession(ctx, "h1"))

	// Expired sessions go with retention; live ones stay.
	must(t, s.CreateConsoleSession(ctx, &gtmgate.ConsoleSession{Hash: "old", KeyHash: "k", CreatedAt: t0, ExpiresAt: t0.Add(timeStep(1))}))
	must(t, s.CreateConsoleSession(ctx, &gtmgate.ConsoleSession{Hash: "live", KeyHash: "k", CreatedAt: t0, ExpiresAt: t0.Add(timeStep(90))}))
	if n, err := s.PruneRecords(ctx, gtmgate.RecordConsoleSessions, t0.Add(timeStep(30)), 10); err != nil || n != 1 {
		t.Errorf("pruned %d sessions (%v), want the expired one", n, err)
	}
	if _, err := s.GetConsoleSession(ctx, "live", t0); err != nil {
		t.Errorf("live session pruned: %v", err)
	}
}

func testProviderTokenList(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "globex")
	exp := t0.Add(timeStep(60))
	for _, pt := range []*gtmgate.ProviderToken{
		{TenantID: "acme", Provider: "hubspot", AccountID: "2", AccessToken: "secret-b", TokenType: "Bearer", ExpiresAt: exp, UpdatedAt: t0},
		{TenantID: "acme", Provider: "gmail", AccountID: "ops@acme.test", AccessToken: "secret-a", UpdatedAt: t0},
		{TenantID: "globex", Provider: "hubspot", AccountID: "9", AccessToken: "secret-g", UpdatedAt: t0},
	} {
		must(t, s.PutProviderToken(ctx, pt))
	}
	got, err := s.ListProviderTokens(ctx, "acme")
	must(t, err)
	if len(got) != 2 || got[0].Provider != "gmail" || got[1].AccountID != "2" {
		t.Fatalf("listed %+v, want acme's two tokens by provider", got)
	}
	if got[0].ExpiresAt != nil || got[1].ExpiresAt == nil || !got[1].ExpiresAt.Equal(exp) || got[1].TokenType != "Bearer" {
		t.Errorf("expiry or type wrong: %+v", got)
	}
	if none, err := s.ListProviderTokens(ctx, "nobody"); err != nil || len(none) != 0 {
		t.Errorf("unknown tenant: %+v, %v", none, err)
	}
}

func testOAuthGrants(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "globex")
	must(t, s.CreateOAuthClient(ctx, &gtmgate.OAuthClient{ID: "cli_a", Name: "Claude", RedirectURIs: []string{"https://c.test/cb"},
		AuthMethod: "none", CreatedAt: t0}))
	tok := func(id, kind, tenant, client, scopes string, at time.Time, ttl int) *gtmgate.OAuthToken {
		return &gtmgate.OAuthToken{ID: id, Hash: "h" + id, Kind: kind, FamilyID: "f" + client + tenant, TenantID: tenant, ClientID: client,
			Scopes: slices.DeleteFunc([]string{scopes}, func(s string) bool { return s == "" }), Resource: "r", CreatedAt: at, ExpiresAt: at.Add(timeStep(ttl))}
	}
	must(t, s.CreateOAuthTokens(ctx,
		tok("1", gtmgate.OAuthAccessToken, "acme", "cli_a", "tools:read", t0, 60),
		tok("2", gtmgate.OAuthRefreshToken, "acme", "cli_a", "tools:call", t0.Add(timeStep(1)), 600),
		tok("3", gtmgate.OAuthAccessToken, "acme", "https://meta.test/client.json", "", t0, 60),
		tok("4", gtmgate.OAuthAccessToken, "acme", "cli_old", "", t0, 1), // expired at t0+1
		tok("5", gtmgate.OAuthAccessToken, "globex", "cli_a", "", t0, 60),
	))
	consented := tok("6", gtmgate.OAuthAccessToken, "acme", "cli_a", "tools:read", t0, 60)
	consented.FamilyID, consented.ConsentedBy = "f-ada", "person:p_ada"
	must(t, s.CreateOAuthTokens(ctx, consented))
	if got, err := s.FindOAuthToken(ctx, "h6"); err != nil || got.ConsentedBy != "person:p_ada" {
		t.Errorf("consenting person read back as %+v, %v", got, err)
	}
	at := t0.Add(timeStep(5))
	got, err := s.ListOAuthGrants(ctx, "acme", at)
	must(t, err)
	if len(got) != 2 {
		t.Fatalf("grants %+v, want cli_a and the metadata-URL client (not the expired one, not globex's)", got)
	}
	a := got[0]
	if a.ClientID != "cli_a" || a.ClientName != "Claude" || a.ActiveTokens != 3 || !slices.Equal(a.ConsentedBy, []string{"person:p_ada"}) || !slices.Equal(a.Scopes, []string{"tools:call", "tools:read"}) ||
		!a.FirstIssued.Equal(t0) || !a.LastIssued.Equal(t0.Add(timeStep(1))) || !a.ExpiresAt.Equal(t0.Add(timeStep(601))) {
		t.Errorf("grant of cli_a: %+v", a)
	}
	// Each grant (token family) is an agent: two of cli_a's, however many tokens.
	if !slices.Equal(a.Agents, []gtmgate.OAuthAgent{{Key: "oauth:fcli_aacme"}, {Key: "oauth:f-ada", ConsentedBy: "person:p_ada"}}) {
		t.Errorf("agents of cli_a: %v", a.Agents)
	}
	if got[1].ClientName != "" || got[1].ActiveTokens != 1 {
		t.Errorf("grant of the metadata-URL client: %+v", got[1])
	}

	n, err := s.RevokeOAuthGrant(ctx, "acme", "cli_a", at)
	must(t, err)
	if n != 3 {
		t.Errorf("revoked %d tokens, want 3", n)
	}
	if tk, err := s.FindOAuthToken(ctx, "h1"); err != nil || tk.RevokedAt == nil {
		t.Errorf("access token after revoke: %+v, %v", tk, err)
	}
	if tk, err := s.FindOAuthToken(ctx, "h5"); err != nil || tk.RevokedAt != nil {
		t.Errorf("another tenant's token of the same client was touched: %+v, %v", tk, err)
	}
	_, err = s.RevokeOAuthGrant(ctx, "acme", "cli_a", at)
	wantErr(t, err, gtmgate.ErrNotFound)
	if got, _ := s.ListOAuthGrants(ctx, "acme", at); len(got) != 1 {
		t.Errorf("after revoke: %+v", got)
	}
}

func testRequestFilters(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	must(t, s.WriteCalls(ctx, []gtmgate.AuditEntry{
		{Time: t0, TenantID: "acme", Action: "crm_deals.list", Source: gtmgate.SourceREST, Outcome: gtmgate.OutcomeOK, RequestID: "req-a"},
		{Time: t0, TenantID: "acme", Action: "crm_deals.list", Source: gtmgate.SourceREST, Outcome: gtmgate.OutcomeError, RequestID: "req-b"},
	}, nil))
	got, _, err := s.QueryAudit(ctx, gtmgate.AuditFilter{RequestID: "req-b", Limit: 10})
	must(t, err)
	if len(got) != 1 || got[0].Outcome != gtmgate.OutcomeError {
		t.Errorf("audit of req-b: %+v", got)
	}
	for _, id := range []string{"led_a", "led_b"} {
		must(t, s.AddLedgerEntry(ctx, &gtmgate.LedgerEntry{ID: id, Kind: gtmgate.LedgerFailure, Time: t0, TenantID: "acme", Source: gtmgate.SourceREST,
			Tool: "crm_deals", ErrorCode: "UPSTREAM_ERROR", Message: "m", RequestID: "req-" + id[4:]}))
	}
	es, err := s.ListLedger(ctx, gtmgate.LedgerFilter{RequestID: "req-b", Limit: 10})
	must(t, err)
	if len(es) != 1 || es[0].ID != "led_b" {
		t.Errorf("ledger of req-b: %+v", es)
	}
}
