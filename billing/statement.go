package billing

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
)

// Pricing answers what one unit of usage costs under a plan.
type Pricing struct {
	Plan *gtmgate.BillingPlan
	// Category returns a tool action's category ("" when unknown).
	Category func(tool, action string) string
}

// category is the category of a tool action, "" when unknown.
func (p Pricing) category(tool, action string) string {
	if p.Category == nil || tool == gtmgate.ChatUsageTool {
		return ""
	}
	return p.Category(tool, action)
}

// CallPrice is the price of one call of a tool action.
func (p Pricing) CallPrice(tool, action string) Micros {
	prices := p.Plan.ToolCallPrice
	if c := p.category(tool, action); c != "" {
		if v, ok := prices.ByCategory[c]; ok {
			return ToMicros(v)
		}
	}
	return ToMicros(prices.Default)
}

// TokenPrice is the price per 1,000 tokens of model.
func (p Pricing) TokenPrice(model string) gtmgate.TokenPrice {
	if v, ok := p.Plan.ChatTokenPrice.ByModel[model]; ok {
		return v
	}
	return p.Plan.ChatTokenPrice.Default
}

// Cost prices a rollup (or one usage event as a rollup): tool calls are
// billed when they succeeded; chat is billed by its tokens, failed or not.
func (p Pricing) Cost(r gtmgate.UsageRollup) Micros {
	if r.Tool == gtmgate.ChatUsageTool {
		tp := p.TokenPrice(r.Action)
		return perThousand(r.PromptTokens, tp.Input) + perThousand(r.CompletionTokens, tp.Output)
	}
	return Micros(r.Calls-r.Errors) * p.CallPrice(r.Tool, r.Action)
}

// Usage is what a quota counts of a rollup: billed tool calls, chat tokens
// and cost.
func (p Pricing) Usage(r gtmgate.UsageRollup) (calls, tokens int64, cost Micros) {
	if r.Tool == gtmgate.ChatUsageTool {
		return 0, r.PromptTokens + r.CompletionTokens, p.Cost(r)
	}
	return r.Calls - r.Errors, 0, p.Cost(r)
}

// Statement is a tenant's usage and cost over one period so far.
type Statement struct {
	TenantID    string        `json:"tenant_id"`
	Plan        string        `json:"plan"`
	Currency    string        `json:"currency"`
	Period      string        `json:"period"`
	PeriodStart time.Time     `json:"period_start"`
	PeriodEnd   time.Time     `json:"period_end"`
	AsOf        time.Time     `json:"as_of"`
	Limit       string        `json:"limit"`
	Totals      Totals        `json:"totals"`
	ByTool      []ToolCost    `json:"by_tool"`
	ByModel     []ModelCost   `json:"by_model"`
	Quotas      []QuotaStatus `json:"quotas"`
	// Projection extends this period's usage so far linearly to its end
	// (for a past period it is the period's total).
	Projection Totals `json:"projection"`
	// Lines are the line items: one per day (in the plan's time zone),
	// tool and action or model.
	Lines []Line `json:"-"`
}

// Totals are a period's billed units and cost.
type Totals struct {
	Calls  int64   `json:"calls"`
	Tokens int64   `json:"tokens"`
	Cost   float64 `json:"cost"`
}

// ToolCost is one tool's calls and cost (its actions may be priced apart
// by category: see the line items).
type ToolCost struct {
	Tool   string  `json:"tool"`
	Calls  int64   `json:"calls"`
	Errors int64   `json:"errors"`
	Cost   float64 `json:"cost"`
}

// ModelCost is one chat model's tokens and cost.
type ModelCost struct {
	Model            string  `json:"model"`
	Calls            int64   `json:"calls"`
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	InputPrice       float64 `json:"input_price_per_1k"`
	OutputPrice      float64 `json:"output_price_per_1k"`
	Cost             float64 `json:"cost"`
}

// QuotaStatus is one quota's use.
type QuotaStatus struct {
	Name      string  `json:"name"`
	Limit     float64 `json:"limit"`
	Used      float64 `json:"used"`
	Remaining float64 `json:"remaining"`
	Reached   bool    `json:"reached"`
	// Projected is the projection's use of the quota at period end.
	Projected float64 `json:"projected"`
}

// Line is one line item of the export.
type Line struct {
	Day              string
	Tool             string
	Action           string
	Category         string
	Calls            int64
	Errors           int64
	PromptTokens     int64
	CompletionTokens int64
	Cost             Micros
}

// Compute prices rollups of one period as of now.
func Compute(pr Pricing, tenantID string, period Period, rollups []gtmgate.UsageRollup, now time.Time) *Statement {
	plan := pr.Plan
	st := &Statement{TenantID: tenantID, Plan: plan.Plan, Currency: plan.Currency, Period: period.Label(),
		PeriodStart: period.Start, PeriodEnd: period.End, AsOf: now, Limit: plan.Limit,
		ByTool: []ToolCost{}, ByModel: []ModelCost{}, Quotas: []QuotaStatus{}}
	loc := Location(plan)
	tools, models := map[string]*ToolCost{}, map[string]*ModelCost{}
	lines := map[[3]string]*Line{}
	var cost Micros
	for _, r := range rollups {
		if r.Hour.Before(period.Start) || !r.Hour.Before(period.End) {
			continue
		}
		calls, tokens, c := pr.Usage(r)
		st.Totals.Calls += calls
		st.Totals.Tokens += tokens
		cost += c
		if r.Tool == gtmgate.ChatUsageTool {
			m := models[r.Action]
			if m == nil {
				tp := pr.TokenPrice(r.Action)
				m = &ModelCost{Model: r.Action, InputPrice: tp.Input, OutputPrice: tp.Output}
				models[r.Action] = m
			}
			m.Calls += r.Calls
			m.PromptTokens += r.PromptTokens
			m.CompletionTokens += r.CompletionTokens
			m.Cost += c.Float()
		} else {
			t := tools[r.Tool]
			if t == nil {
				t = &ToolCost{Tool: r.Tool}
				tools[r.Tool] = t
			}
			t.Calls += r.Calls
			t.Errors += r.Errors
			t.Cost += c.Float()
		}
		k := [3]string{r.Hour.In(loc).Format(time.DateOnly), r.Tool, r.Action}
		l := lines[k]
		if l == nil {
			l = &Line{Day: k[0], Tool: r.Tool, Action: r.Action, Category: pr.category(r.Tool, r.Action)}
			lines[k] = l
		}
		l.Calls += r.Calls
		l.Errors += r.Errors
		l.PromptTokens += r.PromptTokens
		l.CompletionTokens += r.CompletionTokens
		l.Cost += c
	}
	st.Totals.Cost = cost.Float()
	for _, t := range tools {
		st.ByTool = append(st.ByTool, *t)
	}
	for _, m := range models {
		st.ByModel = append(st.ByModel, *m)
	}
	for _, l := range lines {
		st.Lines = append(st.Lines, *l)
	}
	slices.SortFunc(st.ByTool, func(a, b ToolCost) int { return strings.Compare(a.Tool, b.Tool) })
	slices.SortFunc(st.ByModel, func(a, b ModelCost) int { return strings.Compare(a.Model, b.Model) })
	slices.SortFunc(st.Lines, func(a, b Line) int {
		return cmp.Or(strings.Compare(a.Day, b.Day), strings.Compare(a.Tool, b.Tool), strings.Compare(a.Action, b.Action))
	})
	st.Projection = project(st.Totals, cost, period, now)
	st.Quotas = Quotas(plan, st.Totals.Calls, st.Totals.Tokens, cost, st.Projection)
	return st
}

// project extends totals so far linearly over the whole period.
func project(t Totals, cost Micros, period Period, now time.Time) Totals {
	if !now.Before(period.End) {
		return t
	}
	elapsed := now.Sub(period.Start)
	if elapsed <= 0 {
		return Totals{}
	}
	f := float64(period.End.Sub(period.Start)) / float64(elapsed)
	return Totals{Calls: int64(float64(t.Calls) * f), Tokens: int64(float64(t.Tokens) * f), Cost: Micros(float64(cost) * f).Float()}
}

// Quotas reports each quota the plan sets against usage (and a projection).
func Quotas(plan *gtmgate.BillingPlan, calls, tokens int64, cost Micros, projected Totals) []QuotaStatus {
	out := []QuotaStatus{}
	add := func(name string, limit, used, proj float64) {
		if limit <= 0 {
			return
		}
		out = append(out, QuotaStatus{Name: name, Limit: limit, Used: used, Remaining: max(0, limit-used), Reached: used >= limit, Projected: proj})
	}
	add(gtmgate.QuotaCalls, float64(plan.IncludedCalls), float64(calls), float64(projected.Calls))
	add(gtmgate.QuotaTokens, float64(plan.IncludedTokens), float64(tokens), float64(projected.Tokens))
	add(gtmgate.QuotaBudget, plan.MonthlyBudget, cost.Float(), projected.Cost)
	return out
}
