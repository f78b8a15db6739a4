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

var dateSchema = func() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: `^\d{4}-\d{2}-\d{2}$`}
}

func presetSchema() *jsonschema.Schema {
	enum := make([]any, len(DatePresets))
	for i, p := range DatePresets {
		enum[i] = p
	}
	return &jsonschema.Schema{Type: "string", Enum: enum}
}

func reportTool(a *api) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "google_ads_report", Domain: "ads", Provider: Provider, Title: "Google Ads report",
		Description: "Run a read-only Google Ads report: a raw GAQL SELECT, or resource, fields, metrics, segments and dates.",
		Actions:     []gtmgate.Action{{Name: "report", Description: "run a GAQL report", Category: gtmgate.CategoryAdsRead, List: true}},
		Properties: map[string]*jsonschema.Schema{
			"query": {Type: "string", MaxLength: jsonschema.Ptr(10000),
				Description: "filter does not apply to it."},
			"resource":   {Type: "string", Pattern: resourcePattern.String()},
			"fields":     fieldList("Bare names are the resource's."),
			"metrics":    fieldList(""),
			"segments":   fieldList(""),
			"date_range": presetSchema(),
			"start_date": dateSchema(),
			"end_date":   dateSchema(),
			"order_by":   {Type: "string", Pattern: fieldPattern.String()},
			"descending": {Type: "boolean"},
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
