package storetest

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func seedOAuth(tenant, account string) *gtmgate.ProviderOAuth {
	return &gtmgate.ProviderOAuth{TenantID: tenant, Provider: "google", AccountID: account, ClientID: "client-1",
		ClientSecret: "client-secret-plain", TokenEndpoint: "https://oauth2.example/token",
		RefreshToken: "refresh-token-plain", UpdatedAt: t0}
}

func testProviderOAuth(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "beta")

	_, err := s.GetProviderOAuth(ctx, "acme", "google", "1")
	wantErr(t, err, gtmgate.ErrNotFound)
	wantErr(t, s.PutProviderOAuth(ctx, seedOAuth("nobody", "1")), gtmgate.ErrNotFound)

	o1, o2, o3 := seedOAuth("acme", "1"), seedOAuth("acme", "2"), seedOAuth("beta", "1")
	o2.ClientSecret = "" // public client
	// An MCP server's grant names its resource.
	o3.Provider, o3.Resource = "mcp:crm", "https://crm.example/mcp"
	for _, o := range []*gtmgate.ProviderOAuth{o3, o2, o1} {
		must(t, s.PutProviderOAuth(ctx, o))
	}
	got, err := s.GetProviderOAuth(ctx, "acme", "google", "1")
	must(t, err)
	if diff := cmp.Diff(o1, got); diff != "" {
		t.Errorf("GetProviderOAuth (-want +got):\n%s", diff)
	}
	for _, col := range []string{"client_secret", "refresh_token"} {
		raw := rawString(t, s, "SELECT "+col+" FROM provider_oauth WHERE tenant_id = ? AND account_id = ?", "acme", "1")
		if strings.Contains(raw, "plain") || !strings.HasPrefix(raw, "v1:") {
			t.Errorf("%s at rest = %q, want a sealed value", col, raw)
		}
	}

	all, err := s.ListProviderOAuth(ctx, "")
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.ProviderOAuth{o1, o2, o3}, all); diff != "" {
		t.Errorf("ListProviderOAuth all (-want +got):\n%s", diff)
	}
	beta, err := s.ListProviderOAuth(ctx, "beta")
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.ProviderOAuth{o3}, beta); diff != "" {
		t.Errorf("ListProviderOAuth beta (-want +got):\n%s", diff)
	}
}

func testRefreshLease(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	must(t, s.PutProviderOAuth(ctx, seedOAuth("acme", "1")))
	claim := func(holder string, now time.Time) bool {
		t.Helper()
		ok, err := s.ClaimRefresh(ctx, "acme", "google", "1", holder, now, now.Add(time.Minute))
		must(t, err)
		return ok
	}
	for _, step := range []struct {
		name   string
		holder string
		at     time.Time
		want   bool
	}{
		{"first claim", "A", t0, true},
		{"other holder while live", "B", t0.Add(30 * time.Second), false},
		{"holder renews", "A", t0.Add(30 * time.Second), true},
		{"other holder before renewed expiry", "B", t0.Add(89 * time.Second), false},
		{"other holder after expiry", "B", t0.Add(91 * time.Second), true},
		{"first holder lost it", "A", t0.Add(100 * time.Second), false},
	} {
		if got := claim(step.holder, step.at); got != step.want {
			t.Errorf("%s: claimed = %v, want %v", step.name, got, step.want)
		}
	}
	_, err := s.ClaimRefresh(ctx, "acme", "google", "nope", "A", t0, t0.Add(time.Minute))
	wantErr(t, err, gtmgate.ErrNotFound)

	// Success: new token sealed, refresh token rotated, lease released.
	done := t0.Add(2 * time.Minute)
	must(t, s.CompleteRefresh(ctx, gtmgate.RefreshResult{TenantID: "acme", Provider: "google", AccountID: "1", At: done,
		Token:               &gtmgate.ProviderToken{AccessToken: "new-access-plain", TokenType: "Bearer", ExpiresAt: done.Add(time.Hour)},
		RotatedRefreshToken: "rotated-refresh-plain"}))
	tok, err := s.GetProviderToken(ctx, "acme", "google", "1")
	must(t, err)
	if tok.AccessToken != "new-access-plain" || !tok.ExpiresAt.Equal(done.Add(time.Hour)) || !tok.UpdatedAt.Equal(done) {
		t.Errorf("stored token = %+v", tok)
	}
	if raw := rawString(t, s, "SELECT access_token FROM provider_tokens WHERE account_id = ?", "1"); strings.Contains(raw, "plain") {
		t.Error("refreshed access token stored in plaintext")
	}
	o, err := s.GetProviderOAuth(ctx, "acme", "google", "1")
	must(t, err)
	if o.RefreshToken != "rotated-refresh-plain" || o.NeedsReauth || o.LastError != "" ||
		o.LastRefreshAt == nil || !o.LastRefreshAt.Equal(done) {
		t.Errorf("after success: %+v", o)
	}
	if !claim("C", done) {
		t.Error("lease not released by CompleteRefresh")
	}

	// Failure: keeps the refresh token and last success, marks reauth.
	failed := done.Add(time.Minute)
	must(t, s.CompleteRefresh(ctx, gtmgate.RefreshResult{TenantID: "acme", Provider: "google", AccountID: "1", At: failed,
		Err: "invalid_grant", NeedsReauth: true}))
	o, err = s.GetProviderOAuth(ctx, "acme", "google", "1")
	must(t, err)
	if o.RefreshToken != "rotated-refresh-plain" || !o.NeedsReauth || o.LastError != "invalid_grant" ||
		!o.LastRefreshAt.Equal(done) || !o.UpdatedAt.Equal(failed) {
		t.Errorf("after failure: %+v", o)
	}
	if !claim("D", failed) {
		t.Error("lease not released after a failed refresh")
	}
	wantErr(t, s.CompleteRefresh(ctx, gtmgate.RefreshResult{TenantID: "acme", Provider: "google", AccountID: "nope", At: failed}),
		gtmgate.ErrNotFound)
}
