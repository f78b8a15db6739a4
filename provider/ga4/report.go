package ga4

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

const datePattern = `^([0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]+daysAgo|yesterday|today)$`

type reportInput struct {
	Dimensions      []string         `json:"dimensions"`
	Metrics         []string         `json:"metrics"`
	StartDate       string           `json:"start_date"`
	EndDate         string           `json:"end_date"`
	DateRanges      []dateRangeInput `json:"date_ranges"`
	DimensionFilter map[string]any   `json:"dimension_filter"`
	MetricFilter    map[string]any   `json:"metric_filter"`
	OrderBy         []orderInput     `json:"order_by"`
	CurrencyCode    string           `json:"currency_code"`
}

type dateRangeInput struct {
	StartDate string `json:"start_date"`
	EndDate   string `json:"end_date"`
	Name      string `json:"name"`
}

type orderInput struct {
	Field string `json:"field"`
	Desc  bool   `json:"desc"`
}

// runReportRequest is the runReport body.
type runReportRequest struct {
	DateRanges      []dateRange `json:"dateRanges"`
	Dimensions      []named     `json:"dimensions,omitempty"`
	Metrics         []named     `json:"metrics"`
	DimensionFilter any         `json:"dimensionFilter,omitempty"`
	MetricFilter    any         `json:"metricFilter,omitempty"`
	OrderBys        []orderBy   `json:"orderBys,omitempty"`
	Offset          string      `json:"offset,omitempty"`
	Limit           string      `json:"limit,omitempty"`
	CurrencyCode    string      `json:"currencyCode,omitempty"`
}

func reportTool(c *upstream.Client) gtmgate.Tool {
	date := func() *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Pattern: datePattern} }
	return gtmgate.Tool{
		Name: "ga4_report", Domain: "analytics", Provider: Provider, Title: "GA4 report",
		Description: "Run a GA4 report: metrics (sessions, totalUsers, keyEvents…) by dimensions (date, country…) over date ranges.",
		Actions: []gtmgate.Action{{Name: "run_report", Description: "run a report", Category: gtmgate.CategoryAnalyticsReport,
			List: true, Required: []string{"metrics"}}},
		Properties: map[string]*jsonschema.Schema{
			"dimensions": stringList(0, 9),
			"metrics":    stringList(1, 10),
			"start_date": date(),
			"end_date":   date(),
			"date_ranges": {Type: "array", MaxItems: jsonschema.Ptr(4), Description: "To compare; instead of start_date, end_date.",
				Items: &jsonschema.Schema{Type: "object", Required: []string{"start_date", "end_date"}, AdditionalProperties: registry.Closed(), Properties: map[string]*jsonschema.Schema{
					"start_date": date(), "end_date": date(), "name": {Type: "string"}}}},
			"dimension_filter": rawFilterSchema(),
			"metric_filter":    rawFilterSchema(),
			"order_by": {Type: "array", MaxItems: jsonschema.Ptr(4),
				Items: &jsonschema.Schema{Type: "object", Required: []string{"field"}, AdditionalProperties: registry.Closed(), Properties: map[string]*jsonschema.Schema{
					"field": {Type: "string"}, "desc": {Type: "boolean"}}}},
			"currency_code": {Type: "string", Pattern: "^[A-Z]{3}$"},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) { return runReport(ctx, c, call) },
	}
}

func runReport(ctx context.Context, c *upstream.Client, call *gtmgate.Call) (any, error) {
	var in reportInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	prop, err := propertyID(call.Account)
	if err != nil {
		return nil, err
	}
	offset, err := googleapi.ParseOffset(call.Cursor)
	if err != nil {
		return nil, err
	}
	req := runReportRequest{Dimensions: names(in.Dimensions), Metrics: names(in.Metrics), CurrencyCode: in.CurrencyCode,
		OrderBys: orderBys(in.OrderBy, in.Metrics), Limit: fmt.Sprint(call.Limit)}
	if offset > 0 {
		req.Offset = fmt.Sprint(offset)
	}
	req.DateRanges = dateRanges(in)
	if req.DimensionFilter, req.MetricFilter, err = filters(call, in.Metrics, in.DimensionFilter, in.MetricFilter); err != nil {
		return nil, err
	}
	var resp reportResponse
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: "/" + c.APIVersion() + "/properties/" + prop + ":runReport",
		JSON: req, Token: call.Token}, &resp); err != nil {
		return nil, fmt.Errorf("ga4: run report on property %s: %w", prop, err)
	}
	r := toReport(&resp)
	if resp.RowCount > offset+call.Limit {
		r.NextCursor = googleapi.FormatOffset(offset + call.Limit)
	}
	return r, nil
}

func dateRanges(in reportInput) []dateRange {
	if len(in.DateRanges) > 0 {
		out := make([]dateRange, len(in.DateRanges))
		for i, d := range in.DateRanges {
			out[i] = dateRange{StartDate: d.StartDate, EndDate: d.EndDate, Name: d.Name}
		}
		return out
	}
	d := dateRange{StartDate: in.StartDate, EndDate: in.EndDate}
	if d.StartDate == "" {
		d.StartDate = "28daysAgo"
	}
	if d.EndDate == "" {
		d.EndDate = "yesterday"
	}
	return []dateRange{d}
}

// filters returns the dimensionFilter and metricFilter: the raw expressions
// the caller passed, ANDed with the mapped common filter.
func filters(call *gtmgate.Call, metrics []string, rawDim, rawMetric map[string]any) (dim, metric any, err error) {
	var built *FilterExpression
	isMetric := false
	if call.Filter != nil {
		if built, isMetric, err = buildFilter(call.Tool.Name, call.Filter, metrics); err != nil {
			return nil, nil, err
		}
	}
	if isMetric {
		return and(rawDim, nil), and(rawMetric, built), nil
	}
	return and(rawDim, built), and(rawMetric, nil), nil
}

func names(list []string) []named {
	out := make([]named, len(list))
	for i, n := range list {
		out[i] = named{Name: n}
	}
	return out
}

func orderBys(in []orderInput, metrics []string) []orderBy {
	var out []orderBy
	for _, o := range in {
		if slices.Contains(metrics, o.Field) {
			out = append(out, orderBy{Metric: &metricOrder{MetricName: o.Field}, Desc: o.Desc})
		} else {
			out = append(out, orderBy{Dimension: &dimensionOrder{DimensionName: o.Field}, Desc: o.Desc})
		}
	}
	return out
}
