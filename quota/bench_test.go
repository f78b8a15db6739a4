package quota_test

import (
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/quota"
)

// BenchmarkCheckAndCount is the meter's work on one tool call of a tenant
// with hard quotas and a budget: the reservation before it and the count
// that settles it after.
func BenchmarkCheckAndCount(b *testing.B) {
	st := &memStore{plans: map[string]*gtmgate.BillingPlan{"acme": {TenantID: "acme", Currency: "EUR", Limit: gtmgate.LimitHard,
		IncludedCalls: 1 << 40, IncludedTokens: 1 << 40, MonthlyBudget: 1e9, BillingDay: 1, Timezone: "Europe/Berlin",
		ToolCallPrice: gtmgate.CallPrices{Default: 0.001}}}, counters: map[[3]string]gtmgate.QuotaCounter{}}
	m := quota.New(quota.Options{Store: st, Replica: "a", Category: func(string, string) string { return "crm_read" }})
	ctx := b.Context()
	if err := m.Load(ctx); err != nil {
		b.Fatal(err)
	}
	e := call(time.Now())
	b.ReportAllocs()
	for b.Loop() {
		res, err := m.ReserveQuota(ctx, toolUse)
		if err != nil {
			b.Fatal(err)
		}
		e.Reservation = res
		m.Count(e)
	}
}
