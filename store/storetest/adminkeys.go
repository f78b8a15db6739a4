package storetest

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

func testAdminKeys(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	expires := t0.Add(30 * 24 * time.Hour)
	key := func(id, name, value string, at int) *gtmgate.AdminKey {
		return &gtmgate.AdminKey{ID: id, Name: name, Owner: "ada@example.com", Prefix: value[:12], Hash: secret.HashToken(value),
			Scopes: []string{gtmgate.ScopeRead}, CreatedAt: t0.Add(timeStep(at)), CreatedBy: "admin-key"}
	}
	ci := key("ak_ci", "ci deploy", "gtmak_ci000000000000000000000000", 2)
	ci.Scopes, ci.Tenants, ci.ExpiresAt = []string{gtmgate.ScopeRead, gtmgate.ScopeApprove}, []string{"acme", "globex"}, &expires
	ro := key("ak_ro", "read-only", "gtmak_ro000000000000000000000000", 1)
	for _, k := range []*gtmgate.AdminKey{ci, ro} {
		must(t, s.CreateAdminKey(ctx, k))
	}

	for _, tc := range []struct {
		name string
		key  *gtmgate.AdminKey
		want error
	}{
		{"same hash", key("ak_x1", "other", "gtmak_ci000000000000000000000000", 3), gtmgate.ErrConflict},
		{"same id", key("ak_ci", "other", "gtmak_x1000000000000000000000000", 3), gtmgate.ErrConflict},
		{"same name as a live key", key("ak_x2", "ci deploy", "gtmak_x2000000000000000000000000", 3), gtmgate.ErrConflict},
	} {
		t.Run("create/"+tc.name, func(t *testing.T) {
			wantErr(t, s.CreateAdminKey(ctx, tc.key), tc.want)
		})
	}
	for _, tc := range []struct {
		name   string
		change func(k *gtmgate.AdminKey)
	}{
		{"no scope", func(k *gtmgate.AdminKey) { k.Scopes = nil }},
		{"unknown scope", func(k *gtmgate.AdminKey) { k.Scopes = []string{"admin"} }},
		{"no name", func(k *gtmgate.AdminKey) { k.Name = "" }},
		{"no hash", func(k *gtmgate.AdminKey) { k.Hash = "" }},
	} {
		t.Run("create/"+tc.name, func(t *testing.T) {
			k := key("ak_bad", "bad", "gtmak_bad00000000000000000000000", 3)
			tc.change(k)
			if err := s.CreateAdminKey(ctx, k); gtmgate.ErrorCode(err) != gtmgate.EValidation {
				t.Errorf("CreateAdminKey = %v, want a validation error", err)
			}
		})
	}

	got, err := s.FindAdminKey(ctx, ci.Hash)
	must(t, err)
	if diff := cmp.Diff(ci, got); diff != "" {
		t.Errorf("FindAdminKey (-want +got):\n%s", diff)
	}
	_, err = s.FindAdminKey(ctx, secret.HashToken("gtmak_unknown"))
	wantErr(t, err, gtmgate.ErrNotFound)
	list, err := s.ListAdminKeys(ctx)
	must(t, err)
	if diff := cmp.Diff([]*gtmgate.AdminKey{ro, ci}, list); diff != "" {
		t.Errorf("ListAdminKeys oldest first (-want +got):\n%s", diff)
	}
	if raw := rawString(t, s, "SELECT hash FROM admin_keys WHERE id = ?", "ak_ci"); raw != ci.Hash || strings.Contains(raw, "gtmak_") {
		t.Errorf("admin key stored as %q, want its SHA-256 only", raw)
	}

	// Used now and then: the first use is written, the next within a
	// minute is not, a later one is; an unknown id is no error.
	for _, tc := range []struct {
		name string
		at   time.Time
		want time.Time
	}{
		{"first use", t0.Add(timeStep(10)), t0.Add(timeStep(10))},
		{"within a minute", t0.Add(timeStep(10) + 30*time.Second), t0.Add(timeStep(10))},
		{"a minute later", t0.Add(timeStep(11)), t0.Add(timeStep(11))},
		{"out of order", t0.Add(timeStep(5)), t0.Add(timeStep(11))},
	} {
		t.Run("touch/"+tc.name, func(t *testing.T) {
			must(t, s.TouchAdminKey(ctx, "ak_ro", tc.at))
			k, err := s.FindAdminKey(ctx, ro.Hash)
			must(t, err)
			if k.LastUsedAt == nil || !k.LastUsedAt.Equal(tc.want) {
				t.Errorf("last_used_at = %v, want %v", k.LastUsedAt, tc.want)
			}
		})
	}
	must(t, s.TouchAdminKey(ctx, "ak_unknown", t0))

	// Revoked keys are still found (the caller says "revoked"), once.
	revokedAt := t0.Add(timeStep(20))
	wantErr(t, s.RevokeAdminKey(ctx, "ak_unknown", revokedAt), gtmgate.ErrNotFound)
	must(t, s.RevokeAdminKey(ctx, "ak_ci", revokedAt))
	wantErr(t, s.RevokeAdminKey(ctx, "ak_ci", revokedAt.Add(timeStep(1))), gtmgate.ErrNotFound)
	got, err = s.FindAdminKey(ctx, ci.Hash)
	must(t, err)
	if got.RevokedAt == nil || !got.RevokedAt.Equal(revokedAt) || got.Status(revokedAt) != gtmgate.AdminKeyRevoked {
		t.Errorf("revoked key read back as %+v", got)
	}
	// A revoked key's name may be taken again, by one live key.
	must(t, s.CreateAdminKey(ctx, key("ak_ci2", "ci deploy", "gtmak_ci200000000000000000000000", 21)))
	wantErr(t, s.CreateAdminKey(ctx, key("ak_ci3", "ci deploy", "gtmak_ci300000000000000000000000", 22)), gtmgate.ErrConflict)
	if list, err := s.ListAdminKeys(ctx); err != nil || len(list) != 3 {
		t.Errorf("after a revoke and a new key: %d keys (%v), want 3", len(list), err)
	}
}
