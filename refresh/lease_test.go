package refresh

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gtmgate/gtmgate"
)

// TestWaitForOtherReplica: while replica B holds the lease, a tool call on
// replica A polls the store instead of calling the endpoint itself.
func TestWaitForOtherReplica(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// other is what replica B stores after 2 seconds (nil: it never finishes).
		other      *gtmgate.RefreshResult
		waitBudget time.Duration
		want       string
		wantCode   string
		wantHits   int
	}{
		{name: "other replica succeeds", other: &gtmgate.RefreshResult{Token: &gtmgate.ProviderToken{AccessToken: "from-b"}},
			want: "from-b"},
		{name: "other replica fails for now", other: &gtmgate.RefreshResult{Err: "the token endpoint answered HTTP 503"},
			wantCode: gtmgate.EUpstream},
		{name: "other replica needs reauth", other: &gtmgate.RefreshResult{Err: "invalid_grant", NeedsReauth: true},
			wantCode: gtmgate.EReauthRequired},
		{name: "other replica too slow", wantCode: gtmgate.EUpstreamTimeout},
		{name: "other replica died, its lease expires", waitBudget: time.Minute, want: "from-a", wantHits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, script(tokenReply("from-a", "", 3600)), func(o *Options) { o.WaitBudget = tt.waitBudget })
				ctx := t.Context()
				f.putToken(t, "old", time.Now().Add(-time.Second))
				now := time.Now()
				if ok, _ := f.store.ClaimRefresh(ctx, tenantID, provider, accountID, "B", now, now.Add(DefaultLease)); !ok {
					t.Fatal("claim")
				}
				if tt.other != nil {
					go func() {
						time.Sleep(2 * time.Second)
						res := *tt.other
						res.TenantID, res.Provider, res.AccountID, res.At = tenantID, provider, accountID, time.Now()
						f.store.CompleteRefresh(context.Background(), res)
					}()
				}
				got, err := f.r.Refresh(ctx, tenantID, provider, accountID, "old")
				if got != tt.want || gtmgate.ErrorCode(err) != tt.wantCode || f.ep.hits() != tt.wantHits {
					t.Errorf("got %q, %v with %d hits; want %q, %q, %d", got, err, f.ep.hits(), tt.want, tt.wantCode, tt.wantHits)
				}
			})
		})
	}
}

// TestCallerGivesUp: a caller whose context ends stops waiting, but the
// shared refresh finishes and stores its token for the next caller.
func TestCallerGivesUp(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		f := newFixture(t, func(int, seen) reply { <-release; return tokenReply("fresh", "", 3600) }, nil)
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if _, err := f.r.Refresh(ctx, tenantID, provider, accountID, ""); err == nil {
			t.Fatal("refresh outlived its caller's deadline")
		}
		close(release)
		synctest.Wait()
		got, err := f.r.Refresh(t.Context(), tenantID, provider, accountID, "")
		if err != nil || got != "fresh" || f.ep.hits() != 1 {
			t.Errorf("next caller: %q, %v, hits %d", got, err, f.ep.hits())
		}
	})
}

// TestCloseWaitsForInflight: shutting down lets a refresh in flight store
// its token (and any rotated refresh token), then refuses new ones.
func TestCloseWaitsForInflight(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		f := newFixture(t, func(int, seen) reply { <-release; return tokenReply("fresh", testRefresh2, 3600) }, nil)
		go f.r.Refresh(context.Background(), tenantID, provider, accountID, "")
		synctest.Wait()
		closed := make(chan error)
		go func() { closed <- f.r.Close(context.Background()) }()
		synctest.Wait()
		select {
		case <-closed:
			t.Fatal("Close returned with a refresh in flight")
		default:
		}
		close(release)
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		if f.token(t).AccessToken != "fresh" || f.record(t).RefreshToken != testRefresh2 {
			t.Error("the refresh in flight was not stored")
		}
		_, err := f.r.Refresh(t.Context(), tenantID, provider, accountID, "fresh")
		if gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
			t.Errorf("refresh after Close: %v", err)
		}
	})
}
