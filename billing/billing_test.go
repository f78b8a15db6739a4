package billing_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/billing"
)

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestPeriodAt(t *testing.T) {
	berlin := mustLoad(t, "Europe/Berlin")
	for _, tc := range []struct {
		name       string
		plan       gtmgate.BillingPlan
		at         time.Time
		start, end time.Time
	}{
		{"first of month UTC", gtmgate.BillingPlan{}, time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC),
			time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)},
		{"exactly at the start", gtmgate.BillingPlan{}, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
			time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)},
		{"a nanosecond before", gtmgate.BillingPlan{}, time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Add(-1),
			time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"billing day 15, before it", gtmgate.BillingPlan{BillingDay: 15}, time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC),
			time.Date(2026, 2, 15, 0, 0, 0, 0, time.UTC), time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC)},
		{"billing day 15 across the year", gtmgate.BillingPlan{BillingDay: 15}, time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC),
			time.Date(2026, 12, 15, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)},
		// 23:30 UTC on 31 March is already 1 April in Berlin (CEST, UTC+2).
		{"time zone moves the boundary", gtmgate.BillingPlan{Timezone: "Europe/Berlin"}, time.Date(2026, 3, 31, 23, 30, 0, 0, time.UTC),
			time.Date(2026, 4, 1, 0, 0, 0, 0, berlin), time.Date(2026, 5, 1, 0, 0, 0, 0, berlin)},
		// The March period spans the change to summer time: 31 days less an hour.
		{"period across a clock change", gtmgate.BillingPlan{Timezone: "Europe/Berlin"}, time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC),
			time.Date(2026, 3, 1, 0, 0, 0, 0, berlin), time.Date(2026, 4, 1, 0, 0, 0, 0, berlin)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := billing.PeriodAt(&tc.plan, tc.at)
			if !p.Start.Equal(tc.start) || !p.End.Equal(tc.end) {
				t.Errorf("PeriodAt = %s, want %s to %s", p, tc.start, tc.end)
			}
		})
	}
	berlinPlan := &gtmgate.BillingPlan{Timezone: "Europe/Berlin"}
	if p := billing.PeriodAt(berlinPlan, time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)); p.End.Sub(p.Start) != 31*24*time.Hour-time.Hour {
		t.Errorf("March in Berlin lasts %v", p.End.Sub(p.Start))
	}
	p, err := billing.PeriodOf(&gtmgate.BillingPlan{BillingDay: 5}, "2026-02")
	if err != nil || p.Label() != "2026-02" || p.Start.Day() != 5 || p.End.Month() != time.March {
		t.Errorf("PeriodOf = %v, %v", p, err)
	}
	if _, err := billing.PeriodOf(&gtmgate.BillingPlan{}, "2026-13"); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("PeriodOf(2026-13) = %v", err)
	}
}

func rollup(hour time.Time, tool, action string, calls, errors, in, out int64) gtmgate.UsageRollup {
	return gtmgate.UsageRollup{Hour: hour, TenantID: "acme", Tool: tool, Action: action, Calls: calls, Errors: errors,
		PromptTokens: in, CompletionTokens: out}
}

func TestCompute(t *testing.T) {
	plan := &gtmgate.BillingPlan{Plan: "growth", Currency: "EUR", Limit: gtmgate.LimitHard,
		ToolCallPrice:  gtmgate.CallPrices{Default: 0.002, ByCategory: map[string]float64{"email_send": 0.01}},
		ChatTokenPrice: gtmgate.TokenPrices{Default: gtmgate.TokenPrice{Input: 0.5, Output: 1.5}, ByModel: map[string]gtmgate.TokenPrice{"cheap": {Input: 0.1, Output: 0.2}}},
		IncludedCalls:  100, IncludedTokens: 10_000, MonthlyBudget: 1}
	category := func(tool, action string) string {
		if tool == "email_send" && action == "send" {
			return "email_send"
		}
		return "crm_read"
	}
	pr := billing.Pricing{Plan: plan, Category: category}
	period := billing.PeriodAt(plan, time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC))
	h := func(day, hour int) time.Time { return time.Date(2026, 3, day, hour, 0, 0, 0, time.UTC) }
	rollups := []gtmgate.UsageRollup{
		rollup(h(2, 9), "crm_contacts", "list", 10, 2, 0, 0),                                       // 8 billed × 0.002 = 0.016
		rollup(h(2, 10), "email_send", "send", 3, 0, 0, 0),                                         // 3 × 0.01 = 0.03
		rollup(h(2, 10), "email_send", "draft", 1, 0, 0, 0),                                        // 1 × 0.002 (crm_read) = 0.002
		rollup(h(3, 1), "chat", "gpt-x", 2, 1, 2000, 1000),                                         // 2×0.5 + 1×1.5 = 2.5
		rollup(h(3, 2), "chat", "cheap", 1, 0, 1000, 1000),                                         // 0.1 + 0.2 = 0.3
		rollup(time.Date(2026, 2, 28, 23, 0, 0, 0, time.UTC), "crm_contacts", "list", 50, 0, 0, 0), // before the period
	}
	now := time.Date(2026, 3, 11, 0, 0, 0, 0, time.UTC) // 10 of 31 days elapsed
	st := billing.Compute(pr, "acme", period, rollups, now)
	if st.Totals.Calls != 12 || st.Totals.Tokens != 5000 {
		t.Errorf("totals = %+v, want 12 calls, 5000 tokens", st.Totals)
	}
	if want := 0.016 + 0.03 + 0.002 + 2.5 + 0.3; !near(st.Totals.Cost, want) {
		t.Errorf("cost = %v, want %v", st.Totals.Cost, want)
	}
	if len(st.ByTool) != 2 || st.ByTool[1].Tool != "email_send" || !near(st.ByTool[1].Cost, 0.032) {
		t.Errorf("by tool = %+v", st.ByTool)
	}
	if len(st.ByModel) != 2 || st.ByModel[0].Model != "cheap" || !near(st.ByModel[1].Cost, 2.5) || st.ByModel[1].InputPrice != 0.5 {
		t.Errorf("by model = %+v", st.ByModel)
	}
	if !near(st.Projection.Cost, st.Totals.Cost*3.1) || st.Projection.Calls != 37 {
		t.Errorf("projection = %+v", st.Projection)
	}
	quota := map[string]billing.QuotaStatus{}
	for _, q := range st.Quotas {
		quota[q.Name] = q
	}
	if q := quota[gtmgate.QuotaBudget]; !q.Reached || !near(q.Remaining, 0) {
		t.Errorf("budget quota = %+v, want reached (2.848 of 1)", q)
	}
	if q := quota[gtmgate.QuotaCalls]; q.Reached || q.Used != 12 || q.Remaining != 88 {
		t.Errorf("calls quota = %+v", q)
	}
	if len(st.Lines) != 5 || st.Lines[0].Day != "2026-03-02" {
		t.Errorf("lines = %+v", st.Lines)
	}
	// A past period projects to its own total.
	past := billing.Compute(pr, "acme", period, rollups, period.End.Add(time.Hour))
	if past.Projection != past.Totals {
		t.Errorf("past projection %+v != totals %+v", past.Projection, past.Totals)
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

func TestValidate(t *testing.T) {
	ok := func() gtmgate.BillingPlan { return gtmgate.BillingPlan{Currency: "EUR"} }
	for _, tc := range []struct {
		name  string
		edit  func(p *gtmgate.BillingPlan)
		field string
	}{
		{"currency missing", func(p *gtmgate.BillingPlan) { p.Currency = "" }, "currency"},
		{"currency lower case", func(p *gtmgate.BillingPlan) { p.Currency = "eur" }, "currency"},
		{"limit", func(p *gtmgate.BillingPlan) { p.Limit = "firm" }, "limit"},
		{"billing day 29", func(p *gtmgate.BillingPlan) { p.BillingDay = 29 }, "billing_day"},
		{"billing day negative", func(p *gtmgate.BillingPlan) { p.BillingDay = -1 }, "billing_day"},
		{"time zone", func(p *gtmgate.BillingPlan) { p.Timezone = "Mars/Olympus" }, "timezone"},
		{"calls negative", func(p *gtmgate.BillingPlan) { p.IncludedCalls = -1 }, "included_calls"},
		{"tokens negative", func(p *gtmgate.BillingPlan) { p.IncludedTokens = -5 }, "included_tokens"},
		{"budget negative", func(p *gtmgate.BillingPlan) { p.MonthlyBudget = -1 }, "monthly_budget"},
		{"price too fine", func(p *gtmgate.BillingPlan) { p.ToolCallPrice.Default = 0.0000001 }, "tool_call_price.default"},
		{"unknown category", func(p *gtmgate.BillingPlan) { p.ToolCallPrice.ByCategory = map[string]float64{"crm_wirte": 1} }, "tool_call_price.by_category.crm_wirte"},
		{"category price", func(p *gtmgate.BillingPlan) { p.ToolCallPrice.ByCategory = map[string]float64{"crm_write": -1} }, "tool_call_price.by_category.crm_write"},
		{"token price", func(p *gtmgate.BillingPlan) { p.ChatTokenPrice.Default.Output = 2e9 }, "chat_token_price.default.output"},
		{"model price", func(p *gtmgate.BillingPlan) {
			p.ChatTokenPrice.ByModel = map[string]gtmgate.TokenPrice{"m": {Input: -1}}
		}, "chat_token_price.by_model.m.input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ok()
			tc.edit(&p)
			err := billing.Validate(&p)
			if gtmgate.ErrorCode(err) != gtmgate.EValidation || !strings.HasPrefix(err.(*gtmgate.Error).Message, tc.field+":") ||
				err.(*gtmgate.Error).Field != tc.field {
				t.Errorf("Validate = %v, want a VALIDATION_ERROR naming %s", err, tc.field)
			}
		})
	}
	p := ok()
	if err := billing.Validate(&p); err != nil || p.Limit != gtmgate.LimitSoft || p.BillingDay != 1 || p.Timezone != "UTC" || p.Plan != "custom" {
		t.Errorf("defaults: %v %+v", err, p)
	}
}

func TestTokenPricing(t *testing.T) {
	plan := &gtmgate.BillingPlan{ChatTokenPrice: gtmgate.TokenPrices{Default: gtmgate.TokenPrice{Input: 0.003, Output: 0.015}}}
	pr := billing.Pricing{Plan: plan}
	for _, tc := range []struct {
		in, out int64
		want    billing.Micros
	}{
		{0, 0, 0},
		{1, 0, 3}, // 0.003/1000 = 0.000003
		{1000, 1000, 18000},
		{333, 0, 999},
		{1_000_000, 0, 3_000_000},
	} {
		if got := pr.Cost(gtmgate.UsageRollup{Tool: "chat", Action: "m", PromptTokens: tc.in, CompletionTokens: tc.out}); got != tc.want {
			t.Errorf("%d in, %d out: %d micros, want %d", tc.in, tc.out, got, tc.want)
		}
	}
}
