package searchconsole

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

// dataLagDays is how far behind today Search Console's final data usually is.
const dataLagDays = 3

type queryInput struct {
	StartDate       string        `json:"start_date"`
	EndDate         string        `json:"end_date"`
	Dimensions      []string      `json:"dimensions"`
	Type            string        `json:"type"`
	FilterGroups    []filterGroup `json:"dimension_filter_groups"`
	AggregationType string        `json:"aggregation_type"`
	DataState       string        `json:"data_state"`
}

// queryRequest is the searchAnalytics.query body.
type queryRequest struct {
	StartDate             string        `json:"startDate"`
	EndDate               string        `json:"endDate"`
	Dimensions            []string      `json:"dimensions,omitempty"`
	Type                  string        `json:"type,omitempty"`
	DimensionFilterGroups []filterGroup `json:"dimensionFilterGroups,omitempty"`
	AggregationType       string        `json:"aggregationType,omitempty"`
	RowLimit              int           `json:"rowLimit"`
	StartRow              int           `json:"startRow,omitempty"`
	DataState             string        `json:"dataState,omitempty"`
}

type apiRow struct {
	Keys        []string `json:"keys,omitempty"`
	Clicks      float64  `json:"clicks"`
	Impressions float64  `json:"impressions"`
	CTR         float64  `json:"ctr"`
	Position    float64  `json:"position"`
}

type queryResponse struct {
	Rows                    []apiRow `json:"rows,omitempty"`
	ResponseAggregationType string   `json:"responseAggregationType,omitempty"`
}

// Result is the result of search_console_query.
type Result struct {
	googleapi.Page[map[string]any]
	ResponseAggregationType string `json:"response_aggregation_type,omitempty"`
}

func enum(desc string, values ...string) *jsonschema.Schema {
	e := make([]any, len(values))
	for i, v := range values {
		e[i] = v
	}
	return &jsonschema.Schema{Type: "string", Enum: e, Description: desc}
}

func queryTool(c *upstream.Client) gtmgate.Tool {
	date := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "string", Pattern: `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`}
	}
	return gtmgate.Tool{
		Name: "search_console_query", Domain: "analytics", Provider: Provider, Title: "Search Console performance",
		Description: "A site's Google Search clicks, impressions, CTR and position by query, page, country, device or date, " +
			"from Search Console (about 3 days behind).",
		Actions: []gtmgate.Action{{Name: "query", Description: "query search analytics", Category: gtmgate.CategoryAnalyticsReport, List: true}},
		Properties: map[string]*jsonschema.Schema{
			"start_date": date(),
			"end_date":   date(),
			"dimensions": {Type: "array", MaxItems: jsonschema.Ptr(5),
				Items: enum("", Dimensions...)},
			"type": enum("", "web", "image", "video", "news", "discover", "googleNews"),
			"dimension_filter_groups": {Type: "array", MaxItems: jsonschema.Ptr(1),
				Description: "Search Console's own filters (regex too), ANDed with filter.",
				Items: &jsonschema.Schema{Type: "object", Required: []string{"filters"}, AdditionalProperties: registry.Closed(), Properties: map[string]*jsonschema.Schema{
					"groupType": enum("", "and"),
					"filters": {Type: "array", MinItems: jsonschema.Ptr(1), Items: &jsonschema.Schema{Type: "object", Required: []string{"dimension", "expression"}, AdditionalProperties: registry.Closed(),
						Properties: map[string]*jsonschema.Schema{
							"dimension":  enum("", filterDimensions...),
							"operator":   enum("", "equals", "notEquals", "contains", "notContains", "includingRegex", "excludingRegex"),
							"expression": {Type: "string"},
						}}},
				}}},
			"aggregation_type": enum("", "auto", "byPage", "byProperty"),
			"data_state":       enum("all adds fresh, incomplete data.", "final", "all"),
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) { return runQuery(ctx, c, call) },
	}
}

func runQuery(ctx context.Context, c *upstream.Client, call *gtmgate.Call) (any, error) {
	var in queryInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	path, err := sitePath(c.APIVersion(), call.Account)
	if err != nil {
		return nil, err
	}
	start, err := googleapi.ParseOffset(call.Cursor)
	if err != nil {
		return nil, err
	}
	req := queryRequest{StartDate: in.StartDate, EndDate: in.EndDate, Dimensions: in.Dimensions, Type: in.Type,
		AggregationType: in.AggregationType, DataState: in.DataState, RowLimit: call.Limit, StartRow: start}
	defaultDates(&req, time.Now().UTC())
	if err := validateGroups(in.FilterGroups); err != nil {
		return nil, err
	}
	req.DimensionFilterGroups = in.FilterGroups
	if call.Filter != nil {
		g, err := buildFilter(call.Filter)
		if err != nil {
			return nil, err
		}
		if len(req.DimensionFilterGroups) > 0 {
			req.DimensionFilterGroups[0].Filters = append(req.DimensionFilterGroups[0].Filters, g.Filters...)
		} else {
			req.DimensionFilterGroups = []filterGroup{*g}
		}
	}
	var resp queryResponse
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: path + "/searchAnalytics/query", JSON: req,
		Token: call.Token}, &resp); err != nil {
		return nil, fmt.Errorf("search_console: query %s: %w", call.Account.ID, err)
	}
	rows := make([]map[string]any, 0, len(resp.Rows))
	for _, r := range resp.Rows {
		m := map[string]any{"clicks": r.Clicks, "impressions": r.Impressions, "ctr": r.CTR, "position": r.Position}
		for i, k := range r.Keys {
			if i < len(in.Dimensions) {
				m[in.Dimensions[i]] = k
			}
		}
		rows = append(rows, m)
	}
	next := ""
	if len(resp.Rows) == call.Limit {
		next = googleapi.FormatOffset(start + call.Limit)
	}
	return Result{Page: googleapi.NewPage(rows, next), ResponseAggregationType: resp.ResponseAggregationType}, nil
}

// defaultDates fills a missing range: the 28 days ending dataLagDays ago.
func defaultDates(req *queryRequest, now time.Time) {
	if req.EndDate == "" {
		req.EndDate = now.AddDate(0, 0, -dataLagDays).Format(time.DateOnly)
	}
	if req.StartDate == "" {
		end, err := time.Parse(time.DateOnly, req.EndDate)
		if err != nil {
			end = now
		}
		req.StartDate = end.AddDate(0, 0, -27).Format(time.DateOnly)
	}
}
