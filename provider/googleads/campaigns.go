package googleads

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// campaignSelect is what campaign list and get read.
const campaignSelect = "SELECT campaign.id, campaign.name, campaign.status, campaign.serving_status, " +
	"campaign.advertising_channel_type, campaign.bidding_strategy_type, campaign.campaign_budget, " +
	"campaign_budget.amount_micros, campaign_budget.explicitly_shared, customer.currency_code FROM campaign"

// idSchema is the campaign_id property (a fresh schema per tool: schemas must form a tree).
func idSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: `^[0-9]{1,20}$`}
}

// checkCampaignID refuses a campaign id that is not digits, so ids can be put in GAQL and resource names.
func checkCampaignID(id string) error {
	if id != "" && !customerIDPattern.MatchString(id) {
		return gtmgate.Errorf(gtmgate.EValidation, "campaign_id %q is not a Google Ads campaign id (digits)", id)
	}
	return nil
}

func campaignsTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "google_ads_campaigns", Domain: "ads", Provider: Provider, Title: "Google Ads campaigns",
		Description: "List Google Ads campaigns with their daily budgets, pause or enable one, or change its daily budget.",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "campaigns that are not removed; filter on any campaign field (status EQ PAUSED)", Category: gtmgate.CategoryAdsRead, List: true},
			{Name: "get", Description: "one campaign by campaign_id", Category: gtmgate.CategoryAdsRead, Required: []string{"campaign_id"}},
			{Name: "update_status", Description: "set status ENABLED or PAUSED", Category: gtmgate.CategoryAdsMutate, Mutating: true, Required: []string{"campaign_id", "status"},
				Before: a.statusBefore},
			{Name: "update_budget", Description: "set the campaign budget's daily amount in currency units", Category: gtmgate.CategoryAdsMutate, Mutating: true, Required: []string{"campaign_id", "amount"},
				Before: a.budgetBefore},
		},
		Properties: map[string]*jsonschema.Schema{
			"campaign_id": idSchema(),
			"status":      {Type: "string", Enum: []any{"ENABLED", "PAUSED"}},
			"amount": {Type: "number", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(1e9),
				Description: "In currency units, not micros."},
		},
		Run: a.runCampaigns,
	}
}

type campaignInput struct {
	CampaignID string  `json:"campaign_id"`
	Status     string  `json:"status"`
	Amount     float64 `json:"amount"`
}

func (a *api) runCampaigns(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in campaignInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	if err := checkCampaignID(in.CampaignID); err != nil {
		return nil, err
	}
	switch call.Action.Name {
	case "list":
		return a.listCampaigns(ctx, call)
	case "get":
		row, err := a.campaignRow(ctx, call, in.CampaignID)
		if err != nil {
			return nil, err
		}
		return campaignItem(row), nil
	case "update_status":
		return a.updateStatus(ctx, call, in)
	case "update_budget":
		return a.updateBudget(ctx, call, in)
	}
	return nil, gtmgate.Errorf(gtmgate.EValidation, "unknown action %q", call.Action.Name)
}

func (a *api) listCampaigns(ctx context.Context, call *gtmgate.Call) (any, error) {
	q := campaignSelect + " WHERE campaign.status != 'REMOVED'"
	if call.Filter != nil {
		cond, err := condition(call.Filter, "campaign")
		if err != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "%v", err)
		}
		q += " AND " + cond
	}
	q += " ORDER BY campaign.id"
	rows, next, err := a.rows(ctx, call, q)
	if err != nil {
		return nil, err
	}
	items := make([]map[string]any, len(rows))
	for i, r := range rows {
		items[i] = campaignItem(r)
	}
	currency, err := a.currencyOf(ctx, call, rows)
	if err != nil {
		return nil, err
	}
	return listResult{Items: items, NextCursor: next, Currency: currency}, nil
}

// campaignRow reads one campaign's flattened row; NOT_FOUND when it does not exist.
func (a *api) campaignRow(ctx context.Context, call *gtmgate.Call, id string) (map[string]any, error) {
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "campaign_id %q is not a Google Ads campaign id", id)
	}
	page, err := a.search(ctx, call, campaignSelect+" WHERE campaign.id = "+id, "")
	if err != nil {
		return nil, err
	}
	if len(page.Results) == 0 {
		return nil, gtmgate.Errorf(gtmgate.ENotFound, "campaign %s not found in customer %s", id, CustomerID(call.Account.ID))
	}
	return flatten(page.Results[0], page.FieldMask), nil
}

// heldCampaign reads the campaign a held call names, as get does.
func (a *api) heldCampaign(ctx context.Context, call *gtmgate.Call) (map[string]any, error) {
	var in campaignInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	if err := checkCampaignID(in.CampaignID); err != nil {
		return nil, err
	}
	return a.campaignRow(ctx, call, in.CampaignID)
}

// statusBefore reads the status a held update_status would change.
func (a *api) statusBefore(ctx context.Context, call *gtmgate.Call) (map[string]any, error) {
	row, err := a.heldCampaign(ctx, call)
	if err != nil {
		return nil, err
	}
	return map[string]any{"status": row["campaign.status"]}, nil
}

// budgetBefore reads the daily budget a held update_budget would change,
// in currency units, and the account's currency.
func (a *api) budgetBefore(ctx context.Context, call *gtmgate.Call) (map[string]any, error) {
	row, err := a.heldCampaign(ctx, call)
	if err != nil {
		return nil, err
	}
	return map[string]any{"daily_budget": row["campaign_budget.amount"], "currency": row["customer.currency_code"]}, nil
}

// campaignItem is the documented campaign shape.
func campaignItem(r map[string]any) map[string]any {
	return map[string]any{
		"id": r["campaign.id"], "name": r["campaign.name"], "status": r["campaign.status"],
		"channel": r["campaign.advertising_channel_type"], "daily_budget": r["campaign_budget.amount"],
		"currency": r["customer.currency_code"], "budget_resource_name": r["campaign.campaign_budget"],
		"resource_name": r["campaign.resource_name"], "raw": r,
	}
}

func (a *api) updateStatus(ctx context.Context, call *gtmgate.Call, in campaignInput) (any, error) {
	cid, err := customerID(call)
	if err != nil {
		return nil, err
	}
	rn := "customers/" + cid + "/campaigns/" + in.CampaignID
	res, err := a.mutate(ctx, call, "campaigns", []map[string]any{{
		"updateMask": "status", "update": map[string]any{"resourceName": rn, "status": in.Status}}})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"resource_name": res[0]["resourceName"], "campaign_id": in.CampaignID, "status": in.Status}
	if c, ok := res[0]["campaign"].(map[string]any); ok {
		out["status"], out["name"] = c["status"], c["name"]
	}
	return out, nil
}

// toMicros converts currency units to micros, rounded to the smallest unit
// Google accepts for budgets (a cent: 10,000 micros).
func toMicros(amount float64) int64 {
	return int64(math.Round(amount*100)) * 10_000
}

func (a *api) updateBudget(ctx context.Context, call *gtmgate.Call, in campaignInput) (any, error) {
	row, err := a.campaignRow(ctx, call, in.CampaignID)
	if err != nil {
		return nil, err
	}
	budget, _ := row["campaign.campaign_budget"].(string)
	if budget == "" {
		return nil, gtmgate.Errorf(gtmgate.EConflict, "campaign %s has no campaign budget to change", in.CampaignID)
	}
	micros := toMicros(in.Amount)
	if micros <= 0 {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "amount %.4f rounds to zero", in.Amount)
	}
	res, err := a.mutate(ctx, call, "campaignBudgets", []map[string]any{{
		"updateMask": "amountMicros", "update": map[string]any{"resourceName": budget, "amountMicros": strconv.FormatInt(micros, 10)}}})
	if err != nil {
		return nil, err
	}
	newMicros := float64(micros)
	if b, ok := res[0]["campaignBudget"].(map[string]any); ok {
		if n, ok := number(b["amountMicros"]); ok {
			newMicros = n
		}
	}
	out := map[string]any{
		"resource_name": res[0]["resourceName"], "campaign_id": in.CampaignID,
		"daily_budget": newMicros / 1e6, "amount_micros": newMicros,
		"previous_daily_budget": row["campaign_budget.amount"], "currency": row["customer.currency_code"],
	}
	if shared, _ := row["campaign_budget.explicitly_shared"].(bool); shared {
		out["note"] = fmt.Sprintf("budget %s is shared: the change applies to every campaign using it", budget)
	}
	return out, nil
}
