package refresh

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/internal/pgtest"
	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// openPair returns two stores over one database: two replicas' views.
type openPair func(t *testing.T) (gtmgate.Store, gtmgate.Store)

func TestReplicasSQLite(t *testing.T) {
	t.Parallel()
	raceReplicas(t, func(t *testing.T) (gtmgate.Store, gtmgate.Store) {
		path := filepath.Join(t.TempDir(), "gtmgate.db")
		open := func() gtmgate.Store {
			s, err := sqlite.Open(t.Context(), path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
			must(t, err)
			t.Cleanup(func() { s.Close() })
			return s
		}
		return open(), open()
	})
}

func TestReplicasPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	raceReplicas(t, func(t *testing.T) (gtmgate.Store, gtmgate.Store) {
		schema := pgtest.FreshSchema(t, url)
		open := func() gtmgate.Store {
			s, err := postgres.Open(t.Context(), url, &sqlstore.Options{Sealer: storetest.NewSealer(t), Schema: schema})
			must(t, err)
			t.Cleanup(func() { s.Close() }) // before the schema is dropped
			return s
		}
		return open(), open()
	})
}

// raceReplicas runs two Refreshers with their own stores over one database
// and checks that they refresh an expired token once between them: first
// from concurrent tool calls, then from concurrent worker sweeps.
func raceReplicas(t *testing.T, open openPair) {
	for _, tc := range []struct {
		name string
		race func(ctx context.Context, r *Refresher) error
	}{
		{"tool calls", func(ctx context.Context, r *Refresher) error {
			tok, err := r.Refresh(ctx, tenantID, provider, accountID, "old")
			if err == nil && tok != "fresh" {
				t.Errorf("%s got token %q", r.Holder(), tok)
			}
			return err
		}},
		{"workers", func(ctx context.Context, r *Refresher) error { _, err := r.Sweep(ctx); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s1, s2 := open(t)
			contended := &signal{ch: make(chan struct{})}
			// The endpoint answers only once the other replica has found
			// the lease taken, so the two really race.
			ep := &fakeEndpoint{answer: func(int, seen) reply {
				select {
				case <-contended.ch:
				case <-time.After(10 * time.Second):
					t.Error("the other replica never tried to take the lease")
				}
				return tokenReply("fresh", "", 3600)
			}}
			srv := httptest.NewServer(ep)
			t.Cleanup(srv.Close)
			seedStore(t, s1, srv.URL+"/token")

			var wg sync.WaitGroup
			for _, rep := range []struct {
				holder string
				store  gtmgate.Store
			}{{"replica-a", s1}, {"replica-b", s2}} {
				r, err := New(Options{Store: &claimWatch{Store: rep.store, contended: contended}, HTTPClient: srv.Client(),
					Holder: rep.holder, Logger: slog.New(slog.DiscardHandler)})
				must(t, err)
				for range 5 {
					wg.Go(func() {
						if err := tc.race(t.Context(), r); err != nil {
							t.Errorf("%s: %v", rep.holder, err)
						}
					})
				}
			}
			wg.Wait()
			if ep.hits() != 1 {
				t.Errorf("endpoint hits = %d, want 1", ep.hits())
			}
			tok, err := s2.GetProviderToken(t.Context(), tenantID, provider, accountID)
			must(t, err)
			if tok.AccessToken != "fresh" || time.Until(tok.ExpiresAt) < 50*time.Minute {
				t.Errorf("stored token = %+v", tok)
			}
		})
	}
}

// seedStore provisions the tenant, its seeding record and an expired token.
func seedStore(t *testing.T, s gtmgate.Store, endpoint string) {
	t.Helper()
	ctx := t.Context()
	_, err := s.PutTenant(ctx, testTenant())
	must(t, err)
	must(t, s.PutProviderOAuth(ctx, &gtmgate.ProviderOAuth{TenantID: tenantID, Provider: provider, AccountID: accountID,
		ClientID: "client-1", ClientSecret: testClientSecret, TokenEndpoint: endpoint, RefreshToken: testRefresh1}))
	must(t, s.PutProviderToken(ctx, &gtmgate.ProviderToken{TenantID: tenantID, Provider: provider, AccountID: accountID,
		AccessToken: "old", TokenType: "Bearer", ExpiresAt: time.Now().Add(-time.Minute)}))
}

// signal is closed once.
type signal struct {
	once sync.Once
	ch   chan struct{}
}

// claimWatch closes contended when a claim finds the lease taken.
type claimWatch struct {
	gtmgate.Store
	contended *signal
}

func (c *claimWatch) ClaimRefresh(ctx context.Context, tenant, provider, id, holder string, now, until time.Time) (bool, error) {
	ok, err := c.Store.ClaimRefresh(ctx, tenant, provider, id, holder, now, until)
	if err == nil && !ok {
		c.contended.once.Do(func() { close(c.contended.ch) })
	}
	return ok, err
}
