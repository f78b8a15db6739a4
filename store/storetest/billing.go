package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func testBillingPlans(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	_, err := s.GetBillingPlan(ctx, "acme")
	wantErr(t, err, gtmgate.ErrNotFound)
	p := &gtmgate.BillingPlan{TenantID: "acme", Plan: "growth", Currency: "EUR", Limit: gtmgate.LimitHard, BillingDay: 15,
		Timezone: "Europe/Berlin", IncludedCalls: 1000, MonthlyBudget: 49.5,
		ToolCallPrice:  gtmgate.CallPrices{Default: 0.002, ByCategory: map[string]float64{"email_send": 0.01}},
		ChatTokenPrice: gtmgate.TokenPrices{Default: gtmgate.TokenPrice{Input: 0.5, Output: 1.5}}}
	created, err := s.PutBillingPlan(ctx, p)
	must(t, err)
	if !created || p.UpdatedAt.IsZero() {
		t.Errorf("first put: created %v, updated_at %v", created, p.UpdatedAt)
	}
	got, err := s.GetBillingPlan(ctx, "acme")
	must(t, err)
	if diff := cmp.Diff(p, got); diff != "" {
		t.Errorf("GetBillingPlan (-want +got):\n%s", diff)
	}
	p.MonthlyBudget = 99
	created, err = s.PutBillingPlan(ctx, p)
	must(t, err)
	must(t, func() error {
		_, err := s.PutBillingPlan(ctx, &gtmgate.BillingPlan{TenantID: "beta", Currency: "USD"})
		return err
	}())
	list, err := s.ListBillingPlans(ctx)
	must(t, err)
	if created || len(list) != 2 || list[0].TenantID != "acme" || list[0].MonthlyBudget != 99 {
		t.Errorf("after replace: created %v, list %+v", created, list)
	}
}

// testUsageRollups: every usage event written is added to its hour's
// rollup, so rollups total exactly what the events do.
func testUsageRollups(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	ev := func(at time.Time, tenant, tool, action string, ok bool, in, out int64) gtmgate.UsageEvent {
		return gtmgate.UsageEvent{Time: at, TenantID: tenant, Source: gtmgate.SourceREST, Tool: tool, Action: action, OK: ok,
			DurationMS: 2, UpstreamMS: 1, PromptTokens: in, CompletionTokens: out}
	}
	h := t0.Truncate(time.Hour)
	must(t, s.WriteCalls(ctx, nil, []gtmgate.UsageEvent{
		ev(h.Add(time.Minute), "acme", "crm_contacts", "list", true, 0, 0),
		ev(h.Add(2*time.Minute), "acme", "crm_contacts", "list", false, 0, 0),
		ev(h.Add(61*time.Minute), "acme", "crm_contacts", "list", true, 0, 0),
		ev(h.Add(3*time.Minute), "acme", "chat", "gpt", true, 100, 20),
		ev(h.Add(3*time.Minute), "beta", "crm_contacts", "list", true, 0, 0),
	}))
	// A second batch adds to the same rows.
	must(t, s.WriteCalls(ctx, nil, []gtmgate.UsageEvent{ev(h.Add(5*time.Minute), "acme", "chat", "gpt", true, 1, 2)}))
	rows, err := s.ListUsageRollups(ctx, gtmgate.UsageQuery{TenantID: "acme", From: h.Add(-time.Hour)})
	must(t, err)
	type row struct {
		Hour                   time.Time
		Tool, Action           string
		Calls, Errors, In, Out int64
		DurationMS             float64
	}
	var got []row
	for _, r := range rows {
		got = append(got, row{r.Hour, r.Tool, r.Action, r.Calls, r.Errors, r.PromptTokens, r.CompletionTokens, r.DurationMS})
	}
	want := []row{
		{h, "chat", "gpt", 2, 0, 101, 22, 4},
		{h, "crm_contacts", "list", 2, 1, 0, 0, 4},
		{h.Add(time.Hour), "crm_contacts", "list", 1, 0, 0, 0, 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rollups (-want +got):\n%s", diff)
	}
	rows, err = s.ListUsageRollups(ctx, gtmgate.UsageQuery{TenantID: "acme", From: h, To: h.Add(time.Hour)})
	must(t, err)
	if len(rows) != 2 {
		t.Errorf("bounded by To: %d rows", len(rows))
	}
}

func testQuotaCounters(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	period := t0.Truncate(time.Hour)
	put := func(replica string, calls, tokens, cost int64) {
		must(t, s.PutQuotaCounter(ctx, gtmgate.QuotaCounter{TenantID: "acme", PeriodStart: period, Replica: replica,
			Calls: calls, Tokens: tokens, CostMicros: cost}))
	}
	put("r1", 5, 100, 1000)
	put("r2", 7, 0, 500)
	put("r2", 9, 10, 600) // replaces, does not add
	must(t, s.PutQuotaCounter(ctx, gtmgate.QuotaCounter{TenantID: "acme", PeriodStart: period.Add(-time.Hour), Replica: "r3", Calls: 100}))
	sum, err := s.SumQuotaCounters(ctx, "acme", period, "r1")
	must(t, err)
	if sum.Calls != 9 || sum.Tokens != 10 || sum.CostMicros != 600 {
		t.Errorf("others of r1 = %+v, want r2's latest", sum)
	}
	sum, err = s.SumQuotaCounters(ctx, "acme", period, "")
	must(t, err)
	if sum.Calls != 14 || sum.Tokens != 110 || sum.CostMicros != 1600 {
		t.Errorf("all = %+v", sum)
	}
	sum, err = s.SumQuotaCounters(ctx, "nobody", period, "")
	must(t, err)
	if sum.Calls != 0 {
		t.Errorf("unknown tenant = %+v", sum)
	}
}
