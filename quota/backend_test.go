package quota_test

import (
	"fmt"
	"path/filepath"
	"sync/atomic"
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

// TestHardQuotaExactWithPriorUsage is issue 43's reproduction on each
// backend, round after round, with calls recorded as the gateway records
// them (the audit journal, then the store in batches) and counted as they
// are recorded: calls made while the tenant has no quota, then a hard quota
// leaving room for n more calls, then many calls at once. Exactly n
// succeed each round, with or without usage earlier in the period.
func TestHardQuotaExactWithPriorUsage(t *testing.T) {
	const n, rounds = 50, 10
	for _, b := range backends {
		for _, prior := range []int64{0, 30} {
			t.Run(fmt.Sprintf("%s/prior=%d", b.name, prior), func(t *testing.T) {
				ctx := t.Context()
				st := b.open(t)
				w, err := audit.NewWriter(st, &audit.Options{JournalDir: filepath.Join(t.TempDir(), "journal")})
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				m := quota.New(quota.Options{Store: st, Replica: "a", Flush: w.Flush})
				if err := m.Load(ctx); err != nil {
					t.Fatal(err)
				}
				rec := quota.Recorder{Recorder: w, Meter: m}
				var requests atomic.Int64
				record := func(e gtmgate.UsageEvent) error {
					return rec.Record(ctx, gtmgate.AuditEntry{Time: e.Time, TenantID: "acme", Action: "crm_contacts.list",
						Source: gtmgate.SourceREST, Outcome: "ok", Status: 200, RequestID: fmt.Sprint("req-", requests.Add(1))}, &e)
				}
				setPlan := func(calls int64) {
					t.Helper()
					if _, err := st.PutBillingPlan(ctx, &gtmgate.BillingPlan{TenantID: "acme", Currency: "EUR", Limit: gtmgate.LimitHard,
						IncludedCalls: calls, BillingDay: 1, Timezone: "UTC"}); err != nil {
						t.Fatal(err)
					}
					m.PlanChanged("acme")
				}
				used := int64(0)
				for round := range rounds {
					setPlan(0) // no quota: calls are recorded, not counted
					for range prior {
						res, err := m.ReserveQuota(ctx, readCall)
						if err != nil {
							t.Fatal(err)
						}
						e := call(time.Now())
						e.Reservation = res
						if err := record(e); err != nil {
							t.Fatal(err)
						}
					}
					used += prior
					// At once: the first checks under the new plan read the
					// period's usage while the earlier calls are still on their
					// way from the journal to the store.
					setPlan(used + n)
					r := hammer(t, m, n, record)
					if t.Failed() {
						t.Fatalf("round %d, %d calls earlier in the period: %s", round, used, r)
					}
					used += n
				}
			})
		}
	}
}
