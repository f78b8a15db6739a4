package reauth_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/reauth"
)

func TestSelect(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
	refused := now.Add(-time.Hour)
	tests := []struct {
		name    string
		records []*gtmgate.ProviderOAuth
		tokens  []gtmgate.ProviderTokenInfo
		want    []reauth.Account
	}{
		{
			name: "refused refresh",
			records: []*gtmgate.ProviderOAuth{{Provider: "google_ads", AccountID: "123", NeedsReauth: true,
				LastError: "invalid_grant", LastRefreshAt: &refused}},
			tokens: []gtmgate.ProviderTokenInfo{{Provider: "google_ads", AccountID: "123", ExpiresAt: at(-time.Minute)}},
			want: []reauth.Account{{TenantID: "acme", Provider: "google_ads", AccountID: "123", Family: "google", Kind: reauth.KindRefused,
				Reason: "the provider refused the refresh: invalid_grant", Since: refused}},
		},
		{
			name:   "token expiring without refresh",
			tokens: []gtmgate.ProviderTokenInfo{{Provider: "meta_ads", AccountID: "act_1", ExpiresAt: at(48 * time.Hour)}},
			want: []reauth.Account{{TenantID: "acme", Provider: "meta_ads", AccountID: "act_1", Family: "meta", Kind: reauth.KindExpiring,
				Reason: "its token expires on 2026-11-27T12:00:00Z and cannot be refreshed", Since: *at(48 * time.Hour)}},
		},
		{
			name:   "token expired",
			tokens: []gtmgate.ProviderTokenInfo{{Provider: "linkedin_ads", AccountID: "9", ExpiresAt: at(-24 * time.Hour)}},
			want: []reauth.Account{{TenantID: "acme", Provider: "linkedin_ads", AccountID: "9", Family: "linkedin", Kind: reauth.KindExpired,
				Reason: "its token expired on 2026-11-24T12:00:00Z and cannot be refreshed", Since: *at(-24 * time.Hour)}},
		},
		{
			name:    "fine",
			records: []*gtmgate.ProviderOAuth{{Provider: "hubspot", AccountID: "42"}},
			tokens: []gtmgate.ProviderTokenInfo{
				{Provider: "meta_ads", AccountID: "act_1", ExpiresAt: at(30 * 24 * time.Hour)},
				{Provider: "hubspot", AccountID: "7"},
			},
		},
		{
			name:    "token with a refresh record is not listed for its expiry",
			records: []*gtmgate.ProviderOAuth{{Provider: "hubspot", AccountID: "42"}},
			tokens:  []gtmgate.ProviderTokenInfo{{Provider: "hubspot", AccountID: "42", ExpiresAt: at(-time.Minute)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := reauth.Select("acme", tt.records, tt.tokens, now, 7*24*time.Hour)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Select (-want +got):\n%s", diff)
			}
		})
	}
}
