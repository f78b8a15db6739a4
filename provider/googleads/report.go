package googleads

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

// listResult is the shape of every list and report result (see the package doc).
type listResult struct {
	Items      []map[string]any `json:"items"`
	NextCursor string           `json:"next_cursor,omitempty"`
	Currency   string           `json:"currency,omitempty"`
	// Query is the GAQL that ran, so an agent can refine it.
	Query string `json:"query,omitempty"`
}

func fieldList(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string", Pattern: fieldPattern.String()}, MaxItems: jsonschema.Ptr(50), Description: desc}
}

var dateSchema = func(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: `^\d{4}-\d{2}-\d{2}$`, Description: desc}
}

func presetSchema() *jsonschema.Schema {
	enum := make([]any, len(DatePresets))
	for i, p := range DatePresets {
		enum[i] = p
	}
	return &jsonschema.Schema{Type: "string", Enum: enum, Description: "GAQL date range preset (segments.date DURING …). Default LAST_30_DAYS when metrics are selected."}
}

func reportTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "google_ads_report", Domain: "ads", Provider: Provider, Title: "Google Ads report",
		Description: "Run a read-only Google Ads Query Language (GAQL) report: either a raw SELECT query or a structured " +
			"resource/fields/metrics/segments/date range. Rows are flat objects keyed by GAQL field path; money in micros " +
			"is also given in account currency (metrics.cost_micros → metrics.cost) and the result carries the currency.",
		Actions: []gtmgate.Action{{Name: "report", Description: "run a GAQL report", Category: gtmgate.CategoryAdsRead, List: true}},
		Properties: map[string]*jsonschema.Schema{
			"query": {Type: "string", MaxLength: jsonschema.Ptr(10000),
				Description: "Raw GAQL SELECT statement, e.g. SELECT campaign.name, metrics.clicks FROM campaign WHERE segments.date DURING LAST_7_DAYS. Only SELECT is accepted; filter does not apply to raw queries."},
			"resource": {Type: "string", Pattern: resourcePattern.String(),
				Description: "Structured form: the GAQL resource to report on (campaign, ad_group, ad_group_ad, keyword_view, search_term_view, customer…)."},
			"fields":     fieldList("Structured form: attribute fields; bare names belong to resource (name → campaign.name)."),
			"metrics":    fieldList("Structured form: metrics, with or without the metrics. prefix (clicks, impressions, cost_micros, conversions, ctr, average_cpc)."),
			"segments":   fieldList("Structured form: segments, with or without the segments. prefix (date, device, ad_network_type)."),
			"date_range": presetSchema(),
			"start_date": dateSchema("Structured form: first day, YYYY-MM-DD (with end_date instead of date_range)."),
			"end_date":   dateSchema("Structured form: last day, YYYY-MM-DD."),
			"order_by":   {Type: "string", Pattern: fieldPattern.String(), Description: "Structured form: field to sort by (metrics.cost_micros)."},
			"descending": {Type: "boolean", Description: "Structured form: sort descending."},
		},
		Run: a.runReport,
	}
}

func (a *api) runReport(ctx context.Context, call *gtmgate.Call) (any, error) {
	var in struct {
		Query string `json:"query"`
		reportSpec
	}
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	query := in.Query
	switch {
	case query != "" && in.Resource != "":
		return nil, gtmgate.Errorf(gtmgate.EValidation, "give either query or the structured form (resource, fields, metrics…), not both")
	case query != "":
		if err := checkRawQuery(query); err != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "%v", err).WithHint("google_ads_report runs read-only GAQL: SELECT <fields> FROM <resource> [WHERE …] [ORDER BY …] [LIMIT n]")
		}
		if call.Filter != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "filter is not supported for google_ads_report.report with a raw query").
				WithHint("put the condition in the query's WHERE clause, or use the structured form")
		}
	case in.Resource == "":
		return nil, gtmgate.Errorf(gtmgate.EValidation, "query or resource is required")
	default:
		if call.Filter != nil {
			cond, err := condition(call.Filter, in.Resource)
			if err != nil {
				return nil, gtmgate.Errorf(gtmgate.EValidation, "%v", err)
			}
			in.Where = append(in.Where, cond)
		}
		q, err := in.build()
		if err != nil {
			return nil, gtmgate.Errorf(gtmgate.EValidation, "%v", err)
		}
		query = q
	}
	rows, next, err := a.rows(ctx, call, query)
	if err != nil {
		return nil, err
	}
	currency, err := a.currencyOf(ctx, call, rows)
	if err != nil {
		return nil, err
	}
	return listResult{Items: rows, NextCursor: next, Currency: currency, Query: query}, nil
}
