package storetest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

func testTenantTokens(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	putTenant(t, s, "other")

	tok := func(id, tenant, secretValue string, at int) *gtmgate.TenantToken {
		return &gtmgate.TenantToken{ID: id, TenantID: tenant, Hash: secret.HashToken(secretValue),
			Prefix: secret.TokenPrefix(secretValue), Label: "label " + id, CreatedAt: t0.Add(timeStep(at))}
	}
	a1 := tok("tok1", "acme", "gtm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1)
	a2 := tok("tok2", "acme", "gtm_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 2)
	a2.Toolset = "meeting-prep" // an agent's token keeps its toolset, person and owner
	a2.Person, a2.CreatedBy = "p_0a1b", "person:p_ffee"
	o1 := tok("tok3", "other", "gtm_cccccccccccccccccccccccccccccccccc", 3)
	for _, x := range []*gtmgate.TenantToken{a2, a1, o1} {
		must(t, s.CreateTenantToken(ctx, x))
	}

	for _, tc := range []struct {
		name string
		tok  *gtmgate.TenantToken
		want error
	}{
		{"same hash", &gtmgate.TenantToken{ID: "tok9", TenantID: "acme", Hash: a1.Hash, CreatedAt: t0}, gtmgate.ErrConflict},
		{"same id", &gtmgate.TenantToken{ID: "tok1", TenantID: "acme", Hash: "x", CreatedAt: t0}, gtmgate.ErrConflict},
		{"unknown tenant", &gtmgate.TenantToken{ID: "tok8", TenantID: "nobody", Hash: "y", CreatedAt: t0}, gtmgate.ErrNotFound},
	} {
		t.Run("create/"+tc.name, func(t *testing.T) {
			wantErr(t, s.CreateTenantToken(ctx, tc.tok), tc.want)
		})
	}

	got, err := s.FindTenantToken(ctx, a1.Hash)
	must(t, err)
	if diff := cmp.Diff(a1, got); diff != "" {
		t.Errorf("FindTenantToken (-want +got):\n%s", diff)
	}
	if got, err := s.FindTenantToken(ctx, a2.Hash); err != nil || got.Toolset != "meeting-prep" || got.Person != "p_0a1b" || got.CreatedBy != "person:p_ffee" {
		t.Errorf("FindTenantToken of an agent's token = %+v, %v; want its toolset, person and owner", got, err)
	}
	_, err = s.FindTenantToken(ctx, secret.HashToken("unknown"))
	wantErr(t, err, gtmgate.ErrNotFound)

	list, err := s.ListTenantTokens(ctx, "acme")
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.TenantToken{a1, a2}, list); diff != "" {
		t.Errorf("ListTenantTokens oldest first (-want +got):\n%s", diff)
	}

	// Revocation is scoped to the tenant.
	wantErr(t, s.RevokeTenantToken(ctx, "other", "tok1", t0), gtmgate.ErrNotFound)
	wantErr(t, s.RevokeTenantToken(ctx, "acme", "nope", t0), gtmgate.ErrNotFound)
	if _, err := s.FindTenantToken(ctx, a1.Hash); err != nil {
		t.Fatalf("token revoked through another tenant: %v", err)
	}
	revokedAt := t0.Add(timeStep(10))
	must(t, s.RevokeTenantToken(ctx, "acme", "tok1", revokedAt))
	must(t, s.RevokeTenantToken(ctx, "acme", "tok1", revokedAt.Add(timeStep(1)))) // keeps the first time
	_, err = s.FindTenantToken(ctx, a1.Hash)
	wantErr(t, err, gtmgate.ErrNotFound)

	list, err = s.ListTenantTokens(ctx, "acme")
	must(t, err)
	if len(list) != 2 || list[0].RevokedAt == nil || !list[0].RevokedAt.Equal(revokedAt) || list[1].RevokedAt != nil {
		t.Errorf("after revoke, list = %+v", list)
	}
	if raw := rawString(t, s, "SELECT hash FROM tenant_tokens WHERE id = ?", "tok2"); strings.Contains(raw, "bbbb") {
		t.Error("tenant token stored in plaintext")
	}
}

func testProviderTokens(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	const plain = "ya29.super-secret-access-token"

	_, err := s.GetProviderToken(ctx, "acme", "hubspot", "123")
	wantErr(t, err, gtmgate.ErrNotFound)
	wantErr(t, s.PutProviderToken(ctx, &gtmgate.ProviderToken{TenantID: "nobody", Provider: "hubspot", AccountID: "1",
		AccessToken: "x", UpdatedAt: t0}), gtmgate.ErrNotFound)

	pt := &gtmgate.ProviderToken{TenantID: "acme", Provider: "hubspot", AccountID: "123", AccessToken: plain,
		TokenType: "Bearer", ExpiresAt: t0.Add(timeStep(60)), UpdatedAt: t0}
	must(t, s.PutProviderToken(ctx, pt))
	got, err := s.GetProviderToken(ctx, "acme", "hubspot", "123")
	must(t, err)
	if diff := cmp.Diff(pt, got); diff != "" {
		t.Errorf("GetProviderToken (-want +got):\n%s", diff)
	}
	raw := rawString(t, s, "SELECT access_token FROM provider_tokens WHERE tenant_id = ? AND account_id = ?", "acme", "123")
	if strings.Contains(raw, plain) || strings.Contains(raw, "secret") || !strings.HasPrefix(raw, "v1:") {
		t.Errorf("access token at rest = %q, want a sealed value", raw)
	}

	// Replace; a token without expiry round-trips as the zero time.
	pt2 := &gtmgate.ProviderToken{TenantID: "acme", Provider: "hubspot", AccountID: "123", AccessToken: "second",
		TokenType: "Bearer", UpdatedAt: t0.Add(timeStep(1))}
	must(t, s.PutProviderToken(ctx, pt2))
	got, err = s.GetProviderToken(ctx, "acme", "hubspot", "123")
	must(t, err)
	if diff := cmp.Diff(pt2, got); diff != "" {
		t.Errorf("after replace (-want +got):\n%s", diff)
	}
}
