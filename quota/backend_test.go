package quota_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/audit"
	"github.com/gtmgate/gtmgate/internal/pgtest"
	"github.com/gtmgate/gtmgate/quota"
	"github.com/gtmgate/gtmgate/store/postgres"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// backends opens a fresh store of each kind the gateway runs on.
var backends = []struct {
	name string
	open func(t *testing.T) *sqlstore.Store
}{
	{"sqlite", func(t *testing.T) *sqlstore.Store {
		s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "gtmgate.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
	{"postgres", func(t *testing.T) *sqlstore.Store {
		url := pgtest.URL(t)
		s, err := postgres.Open(t.Context(), url, &sqlstore.Options{Sealer: storetest.NewSealer(t), Schema: pgtest.FreshSchema(t, url)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}},
}

// TestHardQuotaExactWithPriorUsage is issue 43's reproduction, round after
// round on each backend, with calls recorded as the gateway records them
// (the audit journal, then the store in batches): calls made while the
// tenant had no quota, then a hard quota that leaves room for n more, then
// many calls at once. Exactly n are admitted, whatever the period's usage
// before.
func TestHardQuotaExactWithPriorUsage(t *testing.T) {
	const n, prior, calls, rounds = 50, 30, 200, 20
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := t.Context()
			st := b.open(t)
			w, err := audit.NewWriter(st, &audit.Options{JournalDir: filepath.Join(t.TempDir(), "journal")})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			m := quota.New(quota.Options{Store: st, Replica: "a"})
			if err := m.Load(ctx); err != nil {
				t.Fatal(err)
			}
			rec := quota.Recorder{Recorder: w, Meter: m}
			setPlan := func(calls int64) {
				t.Helper()
				if _, err := st.PutBillingPlan(ctx, &gtmgate.BillingPlan{TenantID: "acme", Currency: "EUR", Limit: gtmgate.LimitHard,
					IncludedCalls: calls, BillingDay: 1, Timezone: "UTC"}); err != nil {
					t.Fatal(err)
				}
				m.PlanChanged("acme")
			}
			var seq int
			var seqMu sync.Mutex
			// do makes one call as the runner does: admit, record, release.
			do := func() (bool, error) {
				res, err := m.ReserveQuota(ctx, toolUse)
				if err != nil {
					if gtmgate.ErrorCode(err) == gtmgate.EQuotaExceeded {
						return false, nil
					}
					return false, err
				}
				defer res.Release()
				seqMu.Lock()
				seq++
				id := fmt.Sprintf("req-%d", seq)
				seqMu.Unlock()
				now := time.Now()
				e := call(now)
				e.Reservation = res
				return true, rec.Record(ctx, gtmgate.AuditEntry{Time: now, TenantID: "acme", Action: "crm_contacts.list",
					Source: gtmgate.SourceREST, Outcome: "ok", Status: 200, RequestID: id}, &e)
			}
			used := int64(0)
			for round := range rounds {
				setPlan(0) // no quota: the calls are recorded, not counted
				for range prior {
					if _, err := do(); err != nil {
						t.Fatal(err)
					}
				}
				used += prior
				setPlan(used + n)
				var admitted, refused int
				var mu sync.Mutex
				var wg sync.WaitGroup
				start := make(chan struct{})
				for range calls {
					wg.Go(func() {
						<-start
						ok, err := do()
						mu.Lock()
						defer mu.Unlock()
						switch {
						case err != nil:
							t.Error(err)
						case ok:
							admitted++
						default:
							refused++
						}
					})
				}
				close(start)
				wg.Wait()
				if admitted != n {
					t.Errorf("round %d: %d calls at once after %d earlier ones, against a hard quota of %d: %d admitted, want exactly %d",
						round, calls, used, used+n, admitted, n)
				}
				used += int64(admitted)
			}
		})
	}
}
