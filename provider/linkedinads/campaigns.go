package linkedinads

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

func campaignsTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "linkedin_ads_campaigns", Domain: "ads", Provider: Provider, Title: "LinkedIn Ads campaigns",
		Description: "List LinkedIn ad campaigns with status, type and budgets, or pause or activate one.",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "campaigns of the ad account", Category: gtmgate.CategoryAdsRead, List: true},
			{Name: "update_status", Description: "set status ACTIVE or PAUSED", Category: gtmgate.CategoryAdsMutate, Mutating: true, Required: []string{"campaign_id", "status"},
				Before: a.statusBefore},
		},
		Properties: map[string]*jsonschema.Schema{
			"campaign_id": {Type: "string", Pattern: `^[0-9]{1,20}$`},
			"status":      {Type: "string", Enum: []any{"ACTIVE", "PAUSED"}},
		},
		Run: a.runCampaigns,
	}
}

type campaignInput struct {
	CampaignID string `json:"campaign_id"`
	Status     string `json:"status"`
}

func (a *api) runCampaigns(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in campaignInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	acct, err := account(call)
	if err != nil {
		return nil, err
	}
	if call.Action.Name == "update_status" {
		return a.updateStatus(ctx, call, acct, in)
	}
	pairs := [][2]string{{"q", "search"}}
	if call.Filter != nil {
		search, err := searchCriteria(call.Filter)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, [2]string{"search", search})
	}
	pairs = append(pairs, [2]string{"pageSize", strconv.Itoa(max(call.Limit, 1))})
	if call.Cursor != "" {
		pairs = append(pairs, [2]string{"pageToken", Escape(call.Cursor)})
	}
	currency, err := a.currency(ctx, call)
	if err != nil {
		return nil, err
	}
	var out campaignSearchPage
	if err := a.get(ctx, call, "/rest/adAccounts/"+acct+"/adCampaigns", Query(pairs...), &out); err != nil {
		return nil, err
	}
	items := make([]map[string]any, len(out.Elements))
	for i, c := range out.Elements {
		items[i] = campaignItem(c, currency)
	}
	return listResult(items, out.Metadata.NextPageToken, currency), nil
}

// campaignSearchPage is the search finder's answer (adCampaigns.search):
// its cursor is in metadata, not in the offset paging.
type campaignSearchPage struct {
	Elements []map[string]any `json:"elements"`
	Metadata struct {
		NextPageToken string `json:"nextPageToken"`
	} `json:"metadata"`
}

var enumValue = regexp.MustCompile(`^[A-Z_]{1,40}$`)

// searchCriteria maps a filter on status, type or name to the search finder's
// criteria: (status:(values:List(ACTIVE,PAUSED))).
func searchCriteria(f *gtmgate.Filter) (string, error) {
	if f.Property != "status" && f.Property != "type" && f.Property != "name" {
		return "", gtmgate.Errorf(gtmgate.EValidation, "filter is not supported for linkedin_ads_campaigns.list on %q: use status, type or name", f.Property)
	}
	var vals []any
	switch f.Operator {
	case "EQ":
		vals = []any{f.Value}
	case "IN":
		vals, _ = f.Value.([]any)
	default:
		return "", gtmgate.Errorf(gtmgate.EValidation, "filter operator %s is not supported for linkedin_ads_campaigns.list: use EQ or IN", f.Operator)
	}
	if len(vals) == 0 || len(vals) > 20 {
		return "", gtmgate.Errorf(gtmgate.EValidation, "filter needs 1 to 20 values")
	}
	enc := make([]string, len(vals))
	for i, v := range vals {
		s, ok := v.(string)
		if !ok || s == "" || (f.Property != "name" && !enumValue.MatchString(s)) {
			return "", gtmgate.Errorf(gtmgate.EValidation, "filter value %v is not a valid campaign %s", v, f.Property)
		}
		enc[i] = Escape(s)
	}
	return Record(Field{f.Property, Record(Field{"values", List(enc...)})}), nil
}

// campaignItem is the documented campaign shape.
func campaignItem(c map[string]any, currency string) map[string]any {
	id := fmt.Sprint(c["id"])
	if n, ok := c["id"].(float64); ok {
		id = strconv.FormatFloat(n, 'f', 0, 64)
	}
	money := func(k string) any {
		m, _ := c[k].(map[string]any)
		if n, ok := number(m["amount"]); ok {
			return n
		}
		return nil
	}
	item := map[string]any{"id": id, "urn": "urn:li:sponsoredCampaign:" + id, "name": c["name"], "status": c["status"],
		"type": c["type"], "cost_type": c["costType"], "campaign_group": c["campaignGroup"], "daily_budget": money("dailyBudget"),
		"total_budget": money("totalBudget"), "unit_cost": money("unitCost"), "currency": currency, "raw": c}
	if rs, ok := c["runSchedule"].(map[string]any); ok {
		item["start_date"], item["end_date"] = msDate(rs["start"]), msDate(rs["end"])
	}
	return item
}

// msDate renders epoch milliseconds as YYYY-MM-DD (UTC).
func msDate(v any) any {
	n, ok := number(v)
	if !ok {
		return nil
	}
	return time.UnixMilli(int64(n)).UTC().Format(time.DateOnly)
}

func (a *api) updateStatus(ctx context.Context, call *gtmgate.Call, acct string, in campaignInput) (any, error) {
	if !digits.MatchString(in.CampaignID) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "campaign_id %q is not numeric", in.CampaignID)
	}
	h := http.Header{}
	h.Set("X-RestLi-Method", "PARTIAL_UPDATE")
	path := "/rest/adAccounts/" + acct + "/adCampaigns/" + in.CampaignID
	req := &upstream.Request{Method: http.MethodPost, Path: path, Header: h, Mutating: true, Token: call.Token,
		JSON: map[string]any{"patch": map[string]any{"$set": map[string]any{"status": in.Status}}}}
	if err := a.c.Do(ctx, req, nil); err != nil {
		return nil, fmt.Errorf("linkedin ads: update campaign %s: %w", in.CampaignID, a.versionRefused(err))
	}
	return map[string]any{"id": in.CampaignID, "urn": "urn:li:sponsoredCampaign:" + in.CampaignID, "status": in.Status}, nil
}

// statusBefore reads the status a held update_status would change, with
// GET /rest/adAccounts/{account}/adCampaigns/{id}.
func (a *api) statusBefore(ctx context.Context, call *gtmgate.Call) (map[string]any, error) {
	var in campaignInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	acct, err := account(call)
	if err != nil {
		return nil, err
	}
	if !digits.MatchString(in.CampaignID) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "campaign_id %q is not numeric", in.CampaignID)
	}
	var c map[string]any
	if err := a.get(ctx, call, "/rest/adAccounts/"+acct+"/adCampaigns/"+in.CampaignID, "", &c); err != nil {
		return nil, err
	}
	return map[string]any{"status": c["status"]}, nil
}
