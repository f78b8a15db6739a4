package health_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/health"
	"github.com/gtmgate/gtmgate/reauth"
)

// TestReconnectAccounts: the accounts to connect again are listed; an
// expired token degrades the status, one still working until its expiry
// does not, and a listing that fails is reported.
func TestReconnectAccounts(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	st := openStore(t)
	dir := t.TempDir()
	expiring := reauth.Account{TenantID: "acme", Provider: "meta_ads", AccountID: "act_1", Family: "meta", Kind: reauth.KindExpiring, Since: now.Add(48 * time.Hour)}
	expired := reauth.Account{TenantID: "acme", Provider: "linkedin_ads", AccountID: "9", Family: "linkedin", Kind: reauth.KindExpired, Since: now.Add(-time.Hour)}
	for _, tc := range []struct {
		name       string
		list       []reauth.Account
		err        error
		wantStatus string
		wantCount  int
		wantReason string
	}{
		{name: "none", wantStatus: health.StatusOK},
		{name: "expiring only", list: []reauth.Account{expiring}, wantStatus: health.StatusOK, wantCount: 1},
		{name: "expired", list: []reauth.Account{expiring, expired}, wantStatus: health.StatusDegraded, wantCount: 2,
			wantReason: "1 provider account token(s) expired and cannot be refreshed"},
		{name: "cannot be read", err: errors.New("boom"), wantStatus: health.StatusDegraded, wantReason: "accounts to connect again cannot be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := sources(st, dir, now, nil)
			src.Reauth = func(context.Context, string) ([]reauth.Account, error) { return tc.list, tc.err }
			r := health.Take(t.Context(), src)
			if r.Status != tc.wantStatus || r.Accounts.ReconnectCount != tc.wantCount || len(r.Accounts.Reconnect) != tc.wantCount {
				t.Fatalf("status %s, %d listed (%v); want %s, %d", r.Status, r.Accounts.ReconnectCount, r.Reasons, tc.wantStatus, tc.wantCount)
			}
			if tc.wantReason != "" && !strings.Contains(strings.Join(r.Reasons, "\n"), tc.wantReason) {
				t.Fatalf("reasons %v lack %q", r.Reasons, tc.wantReason)
			}
		})
	}
}
