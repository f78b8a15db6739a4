package storetest

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// testCredentialRevoked: a tenant token is revoked when revoked; an OAuth
// grant once it holds no live token and one was revoked — revoking an access
// token alone leaves the grant standing on its refresh token, and a grant
// that merely lapsed was not revoked.
func testCredentialRevoked(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "beta")
	must(t, s.CreateTenantToken(ctx, &gtmgate.TenantToken{ID: "tok1", TenantID: "acme", Hash: secret.HashToken("tok1"), Prefix: "tok1", CreatedAt: t0}))
	now := t0.Add(time.Hour)
	revoked := func(tenant string, c gtmgate.Credential) *time.Time {
		t.Helper()
		at, err := s.CredentialRevoked(ctx, tenant, c, now)
		must(t, err)
		return at
	}
	token := gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok1"}
	if at := revoked("acme", token); at != nil {
		t.Errorf("a live token is revoked at %v", at)
	}
	_, err := s.CredentialRevoked(ctx, "beta", token, now)
	wantErr(t, err, gtmgate.ErrNotFound)
	must(t, s.RevokeTenantToken(ctx, "acme", "tok1", now))
	if at := revoked("acme", token); at == nil || !at.Equal(now) {
		t.Errorf("revoked token: revoked at %v, want %v", at, now)
	}

	tok := func(id, kind, family string, expires time.Duration) *gtmgate.OAuthToken {
		return &gtmgate.OAuthToken{ID: id, Hash: secret.HashToken(id), Kind: kind, FamilyID: family, TenantID: "acme", ClientID: "cli",
			Scopes: []string{gtmgate.ScopeToolsWrite}, Resource: "https://gw.example/mcp", CreatedAt: t0, ExpiresAt: now.Add(expires)}
	}
	must(t, s.CreateOAuthTokens(ctx, tok("at1", gtmgate.OAuthAccessToken, "fam1", time.Hour), tok("rt1", gtmgate.OAuthRefreshToken, "fam1", 30*24*time.Hour),
		tok("at2", gtmgate.OAuthAccessToken, "fam2", -time.Minute), tok("rt2", gtmgate.OAuthRefreshToken, "fam2", -time.Minute)))
	grant := func(family string) gtmgate.Credential {
		return gtmgate.Credential{Kind: gtmgate.CredentialOAuth, ID: family, ClientID: "cli"}
	}
	if at := revoked("acme", grant("fam1")); at != nil {
		t.Errorf("a live grant is revoked at %v", at)
	}
	must(t, s.RevokeOAuthToken(ctx, "at1", now))
	if at := revoked("acme", grant("fam1")); at != nil {
		t.Errorf("revoking the access token alone revoked the grant (at %v); its refresh token stands", at)
	}
	if at := revoked("acme", grant("fam2")); at != nil {
		t.Errorf("a lapsed grant is revoked at %v", at)
	}
	if at := revoked("acme", grant("unknown")); at != nil {
		t.Errorf("an unknown grant is revoked at %v", at)
	}
	later := now.Add(time.Minute)
	if _, err := s.RevokeOAuthGrant(ctx, "acme", "cli", later); err != nil {
		t.Fatal(err)
	}
	if at := revoked("acme", grant("fam1")); at == nil || !at.Equal(later) {
		t.Errorf("grant after the client's grant was revoked: revoked at %v, want %v", at, later)
	}
	if at := revoked("beta", grant("fam1")); at != nil {
		t.Errorf("another tenant's reading of the grant: revoked at %v", at)
	}
}

// testScheduleCredentials: DisableSchedules disables exactly the enabled
// schedules of one tenant created by one credential, recording why and when;
// putting a schedule again (re-enabling, rebinding) clears that.
func testScheduleCredentials(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	next := t0.Add(time.Hour)
	tok1 := gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok1"}
	tok2 := gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok2"}
	admin := gtmgate.Credential{Kind: gtmgate.CredentialAdmin}
	put := func(tenant, job string, by gtmgate.Credential, enabled bool) {
		t.Helper()
		n := &next
		if !enabled {
			n = nil
		}
		_, err := s.PutSchedule(ctx, &gtmgate.Schedule{JobID: job, TenantID: tenant, Cron: "@hourly", Timezone: "UTC",
			Call: &gtmgate.ToolCallSpec{Tool: "crm_deals"}, Enabled: enabled, NextRunAt: n, CreatedBy: &by, Scopes: []string{"tools:write"}})
		must(t, err)
	}
	put("acme", "a", tok1, true)
	put("acme", "b", tok1, true)
	put("acme", "c", tok1, false)
	put("acme", "d", tok2, true)
	put("acme", "e", admin, true)
	put("beta", "a", tok1, true)

	at := t0.Add(time.Minute)
	d := gtmgate.ScheduleDisable{TenantID: "acme", Credential: tok1, Reason: "tenant token tok1 was revoked", At: at}
	n, err := s.DisableSchedules(ctx, d)
	must(t, err)
	if n != 2 {
		t.Errorf("disabled %d schedules, want 2", n)
	}
	for _, tc := range []struct {
		tenant, job string
		enabled     bool
		reason      string
	}{
		{"acme", "a", false, d.Reason}, {"acme", "b", false, d.Reason}, {"acme", "c", false, ""},
		{"acme", "d", true, ""}, {"acme", "e", true, ""}, {"beta", "a", true, ""},
	} {
		got, err := s.GetSchedule(ctx, tc.tenant, tc.job)
		must(t, err)
		if got.Enabled != tc.enabled || got.DisabledReason != tc.reason || (tc.reason != "" && (got.DisabledAt == nil || !got.DisabledAt.Equal(at) || got.NextRunAt != nil)) {
			t.Errorf("%s/%s = enabled %v, next %v, disabled %q at %v", tc.tenant, tc.job, got.Enabled, got.NextRunAt, got.DisabledReason, got.DisabledAt)
		}
		if got.CreatedBy == nil || got.Scopes == nil {
			t.Errorf("%s/%s lost its credential: %+v %v", tc.tenant, tc.job, got.CreatedBy, got.Scopes)
		}
	}
	due, err := s.ListSchedules(ctx, gtmgate.ScheduleFilter{TenantID: "acme", DueBy: next})
	must(t, err)
	if len(due) != 2 {
		t.Errorf("due after disabling: %d schedules, want d and e", len(due))
	}

	// Re-enabled by another credential: bound to it, the reason gone, and
	// tok1's revocation no longer reaches it.
	put("acme", "a", tok2, true)
	got, err := s.GetSchedule(ctx, "acme", "a")
	must(t, err)
	if !got.Enabled || got.DisabledReason != "" || got.DisabledAt != nil || *got.CreatedBy != tok2 {
		t.Errorf("re-enabled schedule = %+v", got)
	}
	if n, err := s.DisableSchedules(ctx, d); err != nil || n != 0 {
		t.Errorf("disabling tok1's schedules again: %d, %v", n, err)
	}
}
