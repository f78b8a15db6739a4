package admin

import (
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/billing"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// BillingBody is PUT /admin/billing/{tenant_id}'s body: the plan without
// the fields the gateway sets.
type BillingBody struct {
	Plan           string              `json:"plan"`
	Currency       string              `json:"currency"`
	ToolCallPrice  gtmgate.CallPrices  `json:"tool_call_price"`
	ChatTokenPrice gtmgate.TokenPrices `json:"chat_token_price"`
	IncludedCalls  int64               `json:"included_calls"`
	IncludedTokens int64               `json:"included_tokens"`
	MonthlyBudget  float64             `json:"monthly_budget"`
	Limit          string              `json:"limit"`
	BillingDay     int                 `json:"billing_day"`
	Timezone       string              `json:"timezone"`
	Production     bool                `json:"production"`
}

func (h *Handler) getBilling(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("tenant_id")
	t, err := h.tenant(r, id)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	p, err := h.opts.Store.GetBillingPlan(r.Context(), id)
	if errors.Is(err, gtmgate.ErrNotFound) {
		err = gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no billing plan", id).WithHint("set one with PUT /admin/billing/" + id)
	}
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	p.Production = t.Production
	jsonapi.Write(w, http.StatusOK, p)
}

func (h *Handler) putBilling(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("tenant_id")
	var body BillingBody
	if err := jsonapi.Decode(w, r, h.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	t, err := h.tenant(r, id)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	p := gtmgate.BillingPlan{TenantID: id, Plan: body.Plan, Currency: body.Currency, ToolCallPrice: body.ToolCallPrice,
		ChatTokenPrice: body.ChatTokenPrice, IncludedCalls: body.IncludedCalls, IncludedTokens: body.IncludedTokens,
		MonthlyBudget: body.MonthlyBudget, Limit: body.Limit, BillingDay: body.BillingDay, Timezone: body.Timezone,
		Production: body.Production}
	if err := billing.Validate(&p); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	// The production flag lives on the tenant, where the harness reads it.
	if t.Production != p.Production {
		t.Production = p.Production
		if _, err := h.opts.Store.PutTenant(r.Context(), t); err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
	}
	created, err := h.opts.Store.PutBillingPlan(r.Context(), &p)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if h.opts.BillingChanged != nil {
		h.opts.BillingChanged(id)
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	jsonapi.Write(w, status, &p)
}

// statement prices a tenant's usage over the period named by ?period=
// (the current one by default) under its plan; a tenant without a plan is
// priced at zero.
func (h *Handler) statement(r *http.Request, id, key string) (*billing.Statement, error) {
	plan, err := h.opts.Store.GetBillingPlan(r.Context(), id)
	if errors.Is(err, gtmgate.ErrNotFound) {
		plan, err = &gtmgate.BillingPlan{TenantID: id}, nil
	}
	if err != nil {
		return nil, err
	}
	now := h.opts.Now()
	period := billing.PeriodAt(plan, now)
	if label := r.URL.Query().Get("period"); label != "" {
		if period, err = billing.PeriodOf(plan, label); err != nil {
			return nil, err
		}
	}
	q := gtmgate.UsageQuery{TenantID: id, From: period.Start, To: period.End}
	var rollups []gtmgate.UsageRollup
	if key == "" {
		rollups, err = h.opts.Store.ListUsageRollups(r.Context(), q)
	} else {
		// One agent's share, priced as the tenant's plan prices it: its
		// raw usage events summed as the store sums the tenant's.
		q.Key = key
		var events []gtmgate.UsageEvent
		events, err = h.opts.Store.ListUsage(r.Context(), q)
		rollups = rollUp(events)
	}
	if err != nil {
		return nil, err
	}
	pr := billing.Pricing{Plan: plan, Category: h.opts.Runner.Registry().Category}
	st := billing.Compute(pr, id, period, rollups, now)
	if key != "" {
		st.Quotas = nil // quotas bound the tenant as a whole, never one agent
	}
	return st, nil
}

// writeCSV exports a statement's line items.
func writeCSV(w http.ResponseWriter, st *billing.Statement) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "usage-"+st.TenantID+"-"+st.Period+".csv"))
	cw := csv.NewWriter(w)
	cw.Write([]string{"tenant_id", "period", "day", "tool", "action_or_model", "category", "calls", "errors",
		"prompt_tokens", "completion_tokens", "cost", "currency"})
	for _, l := range st.Lines {
		cw.Write([]string{st.TenantID, st.Period, l.Day, l.Tool, csvSafe(l.Action), l.Category, itoa(l.Calls), itoa(l.Errors),
			itoa(l.PromptTokens), itoa(l.CompletionTokens), strconv.FormatFloat(l.Cost.Float(), 'f', 6, 64), st.Currency})
	}
	cw.Flush()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// csvSafe keeps a model name a spreadsheet would run as a formula inert.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
