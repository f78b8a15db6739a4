package linkedinads

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// DefaultMetrics are the adAnalytics fields requested when none are given.
var DefaultMetrics = []string{"impressions", "clicks", "costInLocalCurrency", "landingPageClicks", "externalWebsiteConversions", "oneClickLeads"}

var metricName = regexp.MustCompile(`^[a-zA-Z]{1,60}$`)

func analyticsTool(a *api) gtmgate.Tool {
	date := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Pattern: `^\d{4}-\d{2}-\d{2}$`}
	}
	return gtmgate.Tool{
		Name: "linkedin_ads_analytics", Domain: "ads", Provider: Provider, Title: "LinkedIn Ads analytics",
		Description: "Report LinkedIn ad performance (impressions, clicks, spend, conversions, leads) per campaign, group, creative or account.",
		Actions:     []gtmgate.Action{{Name: "report", Description: "run an adAnalytics query", Category: gtmgate.CategoryAdsRead, List: true}},
		Properties: map[string]*jsonschema.Schema{
			"start_date":       date(),
			"end_date":         date(),
			"time_granularity": {Type: "string", Enum: []any{"ALL", "DAILY", "MONTHLY"}},
			"pivot":            {Type: "string", Enum: []any{"CAMPAIGN", "CAMPAIGN_GROUP", "CREATIVE", "ACCOUNT"}},
			"campaign_ids":     {Type: "array", MaxItems: jsonschema.Ptr(20), Items: &jsonschema.Schema{Type: "string", Pattern: `^[0-9]{1,20}$`}},
			"metrics":          {Type: "array", MaxItems: jsonschema.Ptr(18), Items: &jsonschema.Schema{Type: "string", Pattern: metricName.String()}},
		},
		Run: a.runAnalytics,
	}
}

type analyticsInput struct {
	StartDate   string   `json:"start_date"`
	EndDate     string   `json:"end_date"`
	Granularity string   `json:"time_granularity"`
	Pivot       string   `json:"pivot"`
	CampaignIDs []string `json:"campaign_ids"`
	Metrics     []string `json:"metrics"`
}

// analyticsPage is the analytics finder's answer (adAnalytics.finder): all
// its rows at once, which the tool pages itself.
type analyticsPage struct {
	Elements []map[string]any `json:"elements"`
}

func (a *api) runAnalytics(ctx context.Context, call *gtmgate.Call) (any, error) {
	if call.Filter != nil {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "filter is not supported for linkedin_ads_analytics.report").
			WithHint("narrow with campaign_ids, pivot and the date range")
	}
	var in analyticsInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	acct, err := account(call)
	if err != nil {
		return nil, err
	}
	query, err := analyticsQuery(in, acct, time.Now().UTC())
	if err != nil {
		return nil, err
	}
	offset, err := readOffsetCursor(call.Cursor, query)
	if err != nil {
		return nil, err
	}
	var out analyticsPage
	if err := a.get(ctx, call, "/rest/adAnalytics", query, &out); err != nil {
		return nil, err
	}
	currency, err := a.currency(ctx, call)
	if err != nil {
		return nil, err
	}
	limit := max(call.Limit, 1)
	start := min(offset, len(out.Elements))
	end := min(start+limit, len(out.Elements))
	rows := make([]map[string]any, 0, end-start)
	for _, e := range out.Elements[start:end] {
		rows = append(rows, analyticsRow(e, currency))
	}
	next := ""
	if end < len(out.Elements) {
		next = offsetCursor(end, query)
	}
	return listResult(rows, next, currency), nil
}

// analyticsQuery builds the Rest.li query of an adAnalytics call.
func analyticsQuery(in analyticsInput, acct string, now time.Time) (string, error) {
	today := now.Truncate(24 * time.Hour)
	start, end := today.AddDate(0, 0, -30), today.AddDate(0, 0, -1)
	var err error
	if in.StartDate != "" {
		if start, err = time.Parse(time.DateOnly, in.StartDate); err != nil {
			return "", gtmgate.Errorf(gtmgate.EValidation, "start_date must be YYYY-MM-DD")
		}
	}
	if in.EndDate != "" {
		if end, err = time.Parse(time.DateOnly, in.EndDate); err != nil {
			return "", gtmgate.Errorf(gtmgate.EValidation, "end_date must be YYYY-MM-DD")
		}
	}
	if end.Before(start) {
		return "", gtmgate.Errorf(gtmgate.EValidation, "end_date %s is before start_date %s", end.Format(time.DateOnly), start.Format(time.DateOnly))
	}
	pivot, gran := or(in.Pivot, "CAMPAIGN"), or(in.Granularity, "ALL")
	metrics := in.Metrics
	if len(metrics) == 0 {
		metrics = DefaultMetrics
	}
	for _, m := range metrics {
		if !metricName.MatchString(m) {
			return "", gtmgate.Errorf(gtmgate.EValidation, "metric %q is not an adAnalytics field name", m)
		}
	}
	pairs := [][2]string{{"q", "analytics"}, {"pivot", Escape(pivot)}, {"timeGranularity", Escape(gran)},
		{"dateRange", Record(Field{"start", Date(start)}, Field{"end", Date(end)})},
		{"accounts", URNList("sponsoredAccount", acct)}}
	if len(in.CampaignIDs) > 0 {
		for _, id := range in.CampaignIDs {
			if !digits.MatchString(id) {
				return "", gtmgate.Errorf(gtmgate.EValidation, "campaign id %q is not numeric", id)
			}
		}
		pairs = append(pairs, [2]string{"campaigns", URNList("sponsoredCampaign", in.CampaignIDs...)})
	}
	fields := append([]string{"dateRange", "pivotValues"}, metrics...)
	pairs = append(pairs, [2]string{"fields", strings.Join(fields, ",")})
	return Query(pairs...), nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// analyticsRow flattens one adAnalytics element (see the package doc).
func analyticsRow(e map[string]any, currency string) map[string]any {
	row := map[string]any{"currency": currency}
	for k, v := range e {
		switch k {
		case "dateRange":
			dr, _ := v.(map[string]any)
			row["date_start"], row["date_end"] = liDate(dr["start"]), liDate(dr["end"])
		case "pivotValues":
			if pv, _ := v.([]any); len(pv) > 0 {
				urn := fmt.Sprint(pv[0])
				row["pivot_value"] = urn
				row["pivot_id"] = urn[strings.LastIndex(urn, ":")+1:]
			}
		default:
			if n, ok := number(v); ok {
				row[k] = n
			} else {
				row[k] = v
			}
		}
	}
	if c, ok := row["costInLocalCurrency"]; ok {
		row["cost"] = c
	}
	return row
}

// liDate renders LinkedIn's {year, month, day} as YYYY-MM-DD.
func liDate(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	y, _ := number(m["year"])
	mo, _ := number(m["month"])
	d, _ := number(m["day"])
	return fmt.Sprintf("%04d-%02d-%02d", int(y), int(mo), int(d))
}
