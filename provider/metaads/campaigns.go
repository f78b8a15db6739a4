package metaads

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

const campaignFields = "id,name,status,effective_status,objective,daily_budget,lifetime_budget,budget_remaining,bid_strategy,start_time,stop_time,account_id"

// EffectiveStatuses are the campaign delivery states Meta filters on.
var EffectiveStatuses = []string{"ACTIVE", "PAUSED", "DELETED", "ARCHIVED", "IN_PROCESS", "WITH_ISSUES"}

func campaignsTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "meta_ads_campaigns", Domain: "ads", Provider: Provider, Title: "Meta Ads campaigns",
		Description: "List Meta ad campaigns with their budgets, pause or activate one, or change its daily or lifetime budget.",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "campaigns of the ad account, by effective_status (default ACTIVE and PAUSED); filter on effective_status (EQ, IN) is Meta's, " +
				"on another field (name, objective, id, budgets…) it is applied to each page Meta returns, so a page may hold fewer than limit items", Category: gtmgate.CategoryAdsRead, List: true},
			{Name: "update_status", Description: "set status ACTIVE or PAUSED", Category: gtmgate.CategoryAdsMutate, Mutating: true, Required: []string{"campaign_id", "status"},
				Before: a.statusBefore},
			{Name: "update_budget", Description: "set daily_budget or lifetime_budget in currency units", Category: gtmgate.CategoryAdsMutate, Mutating: true, Required: []string{"campaign_id", "amount"},
				Before: a.budgetBefore},
		},
		Properties: map[string]*jsonschema.Schema{
			"campaign_id":      {Type: "string", Pattern: `^[0-9]{1,25}$`},
			"status":           {Type: "string", Enum: []any{"ACTIVE", "PAUSED"}},
			"amount":           {Type: "number", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(1e9), Description: "In currency units."},
			"budget_type":      {Type: "string", Enum: []any{"daily", "lifetime"}},
			"effective_status": {Type: "array", Items: &jsonschema.Schema{Type: "string", Enum: enum(EffectiveStatuses)}},
		},
		Run: a.runCampaigns,
	}
}

type campaignInput struct {
	CampaignID      string   `json:"campaign_id"`
	Status          string   `json:"status"`
	Amount          float64  `json:"amount"`
	BudgetType      string   `json:"budget_type"`
	EffectiveStatus []string `json:"effective_status"`
}

func (a *api) runCampaigns(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in campaignInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	switch call.Action.Name {
	case "update_status":
		return a.updateStatus(ctx, call, in)
	case "update_budget":
		return a.updateBudget(ctx, call, in)
	}
	acct, err := account(call)
	if err != nil {
		return nil, err
	}
	filtered, local, err := campaignFilter(call.Filter)
	if err != nil {
		return nil, err
	}
	statuses := in.EffectiveStatus
	switch {
	case len(filtered) > 0 && len(statuses) > 0:
		return nil, gtmgate.Errorf(gtmgate.EValidation, "give effective_status or a filter on it, not both")
	case len(filtered) > 0:
		statuses = filtered
	case len(statuses) == 0:
		statuses = []string{"ACTIVE", "PAUSED"}
	}
	es, _ := json.Marshal(statuses)
	q := url.Values{"fields": {campaignFields}, "effective_status": {string(es)}, "limit": {strconv.Itoa(max(call.Limit, 1))}}
	if call.Cursor != "" {
		q.Set("after", call.Cursor)
	}
	currency, err := a.currency(ctx, call)
	if err != nil {
		return nil, err
	}
	var p page
	if err := a.get(ctx, call, acct+"/campaigns", q, &p); err != nil {
		return nil, err
	}
	items := make([]map[string]any, 0, len(p.Data))
	for _, c := range p.Data {
		if item := campaignItem(c, currency); local == nil || matchCampaign(item, local) {
			items = append(items, item)
		}
	}
	return listResult(items, p.next(), currency), nil
}

// campaignItem is the documented campaign shape: budgets in currency units.
func campaignItem(c map[string]any, currency string) map[string]any {
	return map[string]any{"id": c["id"], "name": c["name"], "status": c["status"], "effective_status": c["effective_status"],
		"objective": c["objective"], "daily_budget": fromMinor(c["daily_budget"], currency),
		"lifetime_budget": fromMinor(c["lifetime_budget"], currency), "budget_remaining": fromMinor(c["budget_remaining"], currency),
		"start_time": c["start_time"], "stop_time": c["stop_time"], "currency": currency, "raw": c}
}

// ownCampaign reads a campaign and refuses one outside the call's ad account.
func (a *api) ownCampaign(ctx context.Context, call *gtmgate.Call, id string) (map[string]any, error) {
	acct, err := account(call)
	if err != nil {
		return nil, err
	}
	var c map[string]any
	if err := a.get(ctx, call, id, url.Values{"fields": {campaignFields}}, &c); err != nil {
		return nil, err
	}
	if owner, _ := c["account_id"].(string); "act_"+strings.TrimPrefix(owner, "act_") != acct {
		return nil, gtmgate.Errorf(gtmgate.EForbidden, "campaign %s does not belong to ad account %s", id, acct)
	}
	return c, nil
}

func (a *api) updateStatus(ctx context.Context, call *gtmgate.Call, in campaignInput) (any, error) {
	c, err := a.ownCampaign(ctx, call, in.CampaignID)
	if err != nil {
		return nil, err
	}
	if err := a.post(ctx, call, in.CampaignID, url.Values{"status": {in.Status}}); err != nil {
		return nil, err
	}
	return map[string]any{"id": in.CampaignID, "name": c["name"], "status": in.Status, "previous_status": c["status"]}, nil
}

func (a *api) updateBudget(ctx context.Context, call *gtmgate.Call, in campaignInput) (any, error) {
	c, err := a.ownCampaign(ctx, call, in.CampaignID)
	if err != nil {
		return nil, err
	}
	kind := budgetKind(in, c)
	currency, err := a.currency(ctx, call)
	if err != nil {
		return nil, err
	}
	minor := toMinor(in.Amount, currency)
	if minor <= 0 {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "amount %g is less than the currency's smallest unit", in.Amount)
	}
	field := kind + "_budget"
	if err := a.post(ctx, call, in.CampaignID, url.Values{field: {strconv.FormatInt(minor, 10)}}); err != nil {
		return nil, err
	}
	return map[string]any{"id": in.CampaignID, "name": c["name"], field: float64(minor) / minorPerUnit(currency),
		field + "_minor": minor, "previous_" + field: fromMinor(c[field], currency), "currency": currency}, nil
}

// budgetKind is the budget an update_budget changes: the one named, else
// the campaign's lifetime budget when it has only that, else its daily.
func budgetKind(in campaignInput, c map[string]any) string {
	if in.BudgetType != "" {
		return in.BudgetType
	}
	if _, ok := number(c["lifetime_budget"]); ok && c["daily_budget"] == nil {
		return "lifetime"
	}
	return "daily"
}

// heldCampaign reads the campaign a held call names, refusing one outside
// the call's ad account as the call itself would.
func (a *api) heldCampaign(ctx context.Context, call *gtmgate.Call) (campaignInput, map[string]any, error) {
	var in campaignInput
	if err := call.Bind(&in); err != nil {
		return in, nil, err
	}
	c, err := a.ownCampaign(ctx, call, in.CampaignID)
	return in, c, err
}

// statusBefore reads the status a held update_status would change.
func (a *api) statusBefore(ctx context.Context, call *gtmgate.Call) (map[string]any, error) {
	_, c, err := a.heldCampaign(ctx, call)
	if err != nil {
		return nil, err
	}
	return map[string]any{"status": c["status"]}, nil
}

// budgetBefore reads the budget a held update_budget would change (daily
// or lifetime, as the call would pick it) in currency units, and the ad
// account's currency.
func (a *api) budgetBefore(ctx context.Context, call *gtmgate.Call) (map[string]any, error) {
	in, c, err := a.heldCampaign(ctx, call)
	if err != nil {
		return nil, err
	}
	currency, err := a.currency(ctx, call)
	if err != nil {
		return nil, err
	}
	field := budgetKind(in, c) + "_budget"
	return map[string]any{field: fromMinor(c[field], currency), "currency": currency}, nil
}
