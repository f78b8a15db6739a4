package googleads

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

const keywordSelect = "SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, " +
	"ad_group_criterion.keyword.match_type, ad_group_criterion.status, ad_group.id, ad_group.name, " +
	"campaign.id, campaign.name, metrics.impressions, metrics.clicks, metrics.cost_micros, " +
	"metrics.conversions, metrics.average_cpc, customer.currency_code FROM keyword_view"

// keywordPrefixes are the resources a keyword filter property may name; a
// property with no such prefix is a field of ad_group_criterion.
var keywordPrefixes = []string{"ad_group_criterion.", "ad_group.", "campaign.", "metrics.", "segments."}

func keywordsTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "google_ads_keywords", Domain: "ads", Provider: Provider, Title: "Google Ads keywords",
		Description: "List Google Ads search keywords with performance over a date range, or add a negative keyword to a campaign.",
		Actions: []gtmgate.Action{
			{Name: "list", Description: "keywords with impressions, clicks, cost and conversions (optionally of one campaign_id)", Category: gtmgate.CategoryAdsRead, List: true},
			{Name: "add_negative", Description: "add a negative keyword (keyword_text, match_type) to campaign_id", Category: gtmgate.CategoryAdsMutate, Mutating: true,
				Additive: true, Required: []string{"campaign_id", "keyword_text", "match_type"}},
		},
		Properties: map[string]*jsonschema.Schema{
			"campaign_id":  idSchema(),
			"date_range":   presetSchema(),
			"keyword_text": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(80)},
			"match_type":   {Type: "string", Enum: []any{"EXACT", "PHRASE", "BROAD"}},
		},
		Run: a.runKeywords,
	}
}

type keywordInput struct {
	CampaignID  string `json:"campaign_id"`
	DateRange   string `json:"date_range"`
	KeywordText string `json:"keyword_text"`
	MatchType   string `json:"match_type"`
}

func (a *api) runKeywords(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in keywordInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	if err := checkCampaignID(in.CampaignID); err != nil {
		return nil, err
	}
	if call.Action.Name == "add_negative" {
		return a.addNegative(ctx, call, in)
	}
	spec := reportSpec{DateRange: in.DateRange}
	if spec.DateRange == "" {
		spec.DateRange = "LAST_30_DAYS"
	}
	date, err := spec.dateCondition(true)
	if err != nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "%v", err)
	}
	q := keywordSelect + " WHERE " + date + " AND ad_group_criterion.negative = FALSE"
	if in.CampaignID != "" {
		q += " AND campaign.id = " + in.CampaignID
	}
	if f := call.Filter; f != nil {
		g := *f
		if !hasAnyPrefix(g.Property, keywordPrefixes) {
			g.Property = "ad_group_criterion." + g.Property
		}
		cond, err := condition(&g, "ad_group_criterion")
		if err != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "%v", err)
		}
		q += " AND " + cond
	}
	q += " ORDER BY metrics.cost_micros DESC"
	rows, next, err := a.rows(ctx, call, q)
	if err != nil {
		return nil, err
	}
	items := make([]map[string]any, len(rows))
	for i, r := range rows {
		items[i] = map[string]any{
			"criterion_id": r["ad_group_criterion.criterion_id"], "text": r["ad_group_criterion.keyword.text"],
			"match_type": r["ad_group_criterion.keyword.match_type"], "status": r["ad_group_criterion.status"],
			"ad_group_id": r["ad_group.id"], "ad_group_name": r["ad_group.name"],
			"campaign_id": r["campaign.id"], "campaign_name": r["campaign.name"],
			"impressions": r["metrics.impressions"], "clicks": r["metrics.clicks"], "cost": r["metrics.cost"],
			"conversions": r["metrics.conversions"], "average_cpc": r["metrics.average_cpc"],
			"currency": r["customer.currency_code"], "raw": r,
		}
	}
	currency, err := a.currencyOf(ctx, call, rows)
	if err != nil {
		return nil, err
	}
	return listResult{Items: items, NextCursor: next, Currency: currency}, nil
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func (a *api) addNegative(ctx context.Context, call *gtmgate.Call, in keywordInput) (any, error) {
	cid, err := customerID(call)
	if err != nil {
		return nil, err
	}
	text := strings.Join(strings.Fields(in.KeywordText), " ")
	if text == "" || len(strings.Fields(text)) > 10 {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "keyword_text must have 1 to 10 words")
	}
	campaign := "customers/" + cid + "/campaigns/" + in.CampaignID
	res, err := a.mutate(ctx, call, "campaignCriteria", []map[string]any{{"create": map[string]any{
		"campaign": campaign, "negative": true,
		"keyword": map[string]any{"text": text, "matchType": in.MatchType}}}})
	if err != nil {
		return nil, err
	}
	rn, _ := res[0]["resourceName"].(string)
	_, criterion, _ := strings.Cut(rn, "~")
	return map[string]any{"resource_name": rn, "criterion_id": criterion, "campaign_id": in.CampaignID,
		"text": text, "match_type": in.MatchType, "negative": true}, nil
}
