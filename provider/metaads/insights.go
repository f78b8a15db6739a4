package metaads

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// DatePresets are the insights date_preset values offered to agents.
var DatePresets = []string{"today", "yesterday", "this_month", "last_month", "this_quarter", "last_3d", "last_7d",
	"last_14d", "last_28d", "last_30d", "last_90d", "this_week_mon_today", "last_week_mon_sun", "maximum"}

// Breakdowns are the insights breakdowns offered to agents.
var Breakdowns = []string{"age", "gender", "country", "region", "publisher_platform", "platform_position", "device_platform", "impression_device"}

// textFields are insights fields that stay strings; every other value that
// reads as a number is returned as one.
var textFields = []string{"account_id", "account_name", "account_currency", "campaign_id", "campaign_name", "adset_id",
	"adset_name", "ad_id", "ad_name", "date_start", "date_stop", "objective", "buying_type", "action_type"}

var defaultInsightFields = []string{"impressions", "clicks", "spend", "reach", "ctr", "cpc", "cpm", "actions"}

// reachMonths is how far back Meta returns reach for a query with
// breakdowns (since 2025-06-10, all versions): a longer range comes back
// without it.
const reachMonths = 13

func enum(vals []string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

func insightsTool(a *api) gtmgate.Tool {
	date := &jsonschema.Schema{Type: "string", Pattern: `^\d{4}-\d{2}-\d{2}$`}
	return gtmgate.Tool{
		Name: "meta_ads_insights", Domain: "ads", Provider: Provider, Title: "Meta Ads insights",
		Description: "Report Meta ad performance (impressions, clicks, spend, reach, actions…) per account, campaign, ad set or ad, " +
			"with optional breakdowns.",
		Actions: []gtmgate.Action{{Name: "report", Description: "run an insights query", Category: gtmgate.CategoryAdsRead, List: true}},
		Properties: map[string]*jsonschema.Schema{
			"fields":         {Type: "array", MaxItems: jsonschema.Ptr(40), Items: &jsonschema.Schema{Type: "string", Pattern: `^[a-z_]{1,60}$`}},
			"level":          {Type: "string", Enum: enum([]string{"account", "campaign", "adset", "ad"})},
			"date_preset":    {Type: "string", Enum: enum(DatePresets)},
			"since":          date,
			"until":          {Type: "string", Pattern: `^\d{4}-\d{2}-\d{2}$`, Description: "With since, instead of date_preset."},
			"breakdowns":     {Type: "array", MaxItems: jsonschema.Ptr(3), Items: &jsonschema.Schema{Type: "string", Enum: enum(Breakdowns)}},
			"time_increment": {Type: "string", Pattern: `^([1-9]|[1-8][0-9]|90|monthly|all_days)$`},
		},
		Run: a.runInsights,
	}
}

type insightsInput struct {
	Fields        []string `json:"fields"`
	Level         string   `json:"level"`
	DatePreset    string   `json:"date_preset"`
	Since         string   `json:"since"`
	Until         string   `json:"until"`
	Breakdowns    []string `json:"breakdowns"`
	TimeIncrement string   `json:"time_increment"`
}

func (a *api) runInsights(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in insightsInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	acct, err := account(call)
	if err != nil {
		return nil, err
	}
	q, err := insightsQuery(in, call)
	if err != nil {
		return nil, err
	}
	var p page
	if err := a.get(ctx, call, acct+"/insights", q, &p); err != nil {
		return nil, err
	}
	rows := make([]map[string]any, len(p.Data))
	currency := ""
	for i, r := range p.Data {
		rows[i] = numeric(r)
		if c, ok := r["account_currency"].(string); ok {
			currency = c
		}
	}
	if currency == "" {
		if currency, err = a.currency(ctx, call); err != nil {
			return nil, err
		}
	}
	out := listResult(rows, p.next(), currency)
	out["level"] = q.Get("level")
	if reachWithheld(in, q, time.Now().UTC()) {
		out["notes"] = []string{fmt.Sprintf("Meta returns no reach for breakdowns of a range starting more than %d months back: rows carry none, which is not zero", reachMonths)}
	}
	return out, nil
}

// reachWithheld reports whether the query asks Meta for reach it will not
// return: reach with breakdowns over a range starting more than reachMonths
// before now.
func reachWithheld(in insightsInput, q url.Values, now time.Time) bool {
	if q.Get("breakdowns") == "" || !slices.Contains(strings.Split(q.Get("fields"), ","), "reach") {
		return false
	}
	cutoff := now.AddDate(0, -reachMonths, 0).Format(time.DateOnly)
	return in.DatePreset == "maximum" || (in.Since != "" && in.Since < cutoff)
}

// insightsQuery builds the insights query string from the input.
func insightsQuery(in insightsInput, call *gtmgate.Call) (url.Values, error) {
	level := in.Level
	if level == "" {
		level = "account"
	}
	fields := slices.Clone(in.Fields)
	if len(fields) == 0 {
		fields = slices.Clone(defaultInsightFields)
	}
	if level != "account" {
		fields = append([]string{level + "_id", level + "_name"}, fields...)
	}
	if level == "adset" || level == "ad" {
		fields = append([]string{"campaign_name"}, fields...)
	}
	fields = append(fields, "account_currency")
	q := url.Values{"level": {level}, "fields": {strings.Join(dedupe(fields), ",")}, "limit": {strconv.Itoa(max(call.Limit, 1))}}
	switch {
	case in.DatePreset != "" && (in.Since != "" || in.Until != ""):
		return nil, gtmgate.Errorf(gtmgate.EValidation, "give date_preset or since/until, not both")
	case in.Since != "" || in.Until != "":
		if in.Since == "" || in.Until == "" || in.Until < in.Since {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "since and until must both be given, since ≤ until")
		}
		tr, _ := json.Marshal(map[string]string{"since": in.Since, "until": in.Until})
		q.Set("time_range", string(tr))
	case in.DatePreset != "":
		q.Set("date_preset", in.DatePreset)
	default:
		q.Set("date_preset", "last_30d")
	}
	if len(in.Breakdowns) > 0 {
		q.Set("breakdowns", strings.Join(in.Breakdowns, ","))
	}
	if in.TimeIncrement != "" {
		q.Set("time_increment", in.TimeIncrement)
	}
	if call.Filter != nil {
		f, err := filtering(call.Filter)
		if err != nil {
			return nil, err
		}
		q.Set("filtering", f)
	}
	if call.Cursor != "" {
		q.Set("after", call.Cursor)
	}
	return q, nil
}

func dedupe(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// numeric returns r with Meta's numeric strings as numbers, inside action lists too.
func numeric(r map[string]any) map[string]any {
	out := make(map[string]any, len(r))
	for k, v := range r {
		switch x := v.(type) {
		case string:
			if n, ok := number(x); ok && !slices.Contains(textFields, k) && !slices.Contains(Breakdowns, k) {
				out[k] = n
				continue
			}
		case []any:
			list := make([]any, len(x))
			for i, e := range x {
				if m, ok := e.(map[string]any); ok {
					list[i] = numeric(m)
				} else {
					list[i] = e
				}
			}
			out[k] = list
			continue
		}
		out[k] = v
	}
	return out
}
