package refresh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gtmgate/gtmgate"
)

func TestWorker(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// token is the stored token's lifetime at start; 0 stores none,
		// noExpiry stores one without a known expiry.
		token       time.Duration
		noExpiry    bool
		needsReauth bool
		// wantHits after each step of the timeline.
		wantAtStart, wantAt4m, wantAt6m int
	}{
		{name: "renews before expiry", token: 10 * time.Minute, wantAtStart: 0, wantAt4m: 0, wantAt6m: 1},
		{name: "no token yet", wantAtStart: 1, wantAt4m: 1, wantAt6m: 1},
		{name: "already expired", token: -time.Minute, wantAtStart: 1, wantAt4m: 1, wantAt6m: 1},
		{name: "expiry unknown", token: time.Hour, noExpiry: true},
		{name: "needs re-authorisation", needsReauth: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, script(tokenReply("renewed", "", 3600)), nil)
				start := time.Now()
				if tt.token != 0 {
					exp := start.Add(tt.token)
					if tt.noExpiry {
						exp = time.Time{}
					}
					f.putToken(t, "initial", exp)
				}
				if tt.needsReauth {
					o := f.record(t)
					o.NeedsReauth = true
					must(t, f.store.PutProviderOAuth(t.Context(), o))
				}
				ctx, cancel := context.WithCancel(t.Context())
				done := make(chan struct{})
				go func() { f.r.Run(ctx); close(done) }()

				for _, step := range []struct {
					at   time.Duration
					want int
				}{{0, tt.wantAtStart}, {4 * time.Minute, tt.wantAt4m}, {6 * time.Minute, tt.wantAt6m}} {
					time.Sleep(start.Add(step.at).Sub(time.Now()))
					synctest.Wait()
					if got := f.ep.hits(); got != step.want {
						t.Errorf("hits at %s = %d, want %d", step.at, got, step.want)
					}
				}
				if tt.wantAt6m > 0 {
					tok := f.token(t)
					if tok.AccessToken != "renewed" || tok.ExpiresAt.Sub(time.Now()) <= 50*time.Minute {
						t.Errorf("renewed token = %+v", tok)
					}
				}
				cancel()
				<-done
			})
		})
	}
}

func TestSweepCounts(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, func(_ int, s seen) reply {
			if s.form.Get("refresh_token") == "dead" {
				return errorReply(400, "invalid_grant", "")
			}
			return tokenReply("renewed", "", 3600)
		}, nil)
		ctx := t.Context()
		tenant := testTenant()
		tenant.Providers[provider] = gtmgate.ProviderAccounts{Accounts: []gtmgate.Account{{ID: "111"}, {ID: "222"}, {ID: "333"}, {ID: "444"}}}
		f.store.PutTenant(ctx, tenant)
		base := f.record(t)
		for _, id := range []string{"222", "333", "444"} {
			o := *base
			o.AccountID = id
			if id == "333" {
				o.RefreshToken = "dead"
			}
			must(t, f.store.PutProviderOAuth(ctx, &o))
		}
		f.putToken(t, "valid", time.Now().Add(time.Hour)) // 111: not due
		// 444 is leased by another replica.
		if ok, _ := f.store.ClaimRefresh(ctx, tenantID, provider, "444", "B", time.Now(), time.Now().Add(time.Minute)); !ok {
			t.Fatal("claim")
		}
		res, err := f.r.Sweep(ctx)
		must(t, err)
		want := SweepResult{Checked: 4, Refreshed: 1, Skipped: 1, Failed: 1}
		if res != want {
			t.Errorf("sweep = %+v, want %+v", res, want)
		}
		h, err := f.r.Health(ctx)
		must(t, err)
		if len(h.NeedsReauth) != 1 || h.NeedsReauth[0].AccountID != "333" || len(h.Expired) != 1 || h.Expired[0].AccountID != "444" || h.Healthy() {
			t.Errorf("health = %+v", h)
		}
		// The next sweep leaves the account needing re-authorisation alone.
		res, err = f.r.Sweep(ctx)
		must(t, err)
		if hits := f.ep.hits(); hits != 2 || res.Skipped != 2 {
			t.Errorf("second sweep: %+v, endpoint hits %d", res, hits)
		}
	})
}
