package ga4

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
)

type realtimeInput struct {
	Dimensions      []string       `json:"dimensions"`
	Metrics         []string       `json:"metrics"`
	MinuteRanges    []minuteInput  `json:"minute_ranges"`
	DimensionFilter map[string]any `json:"dimension_filter"`
	MetricFilter    map[string]any `json:"metric_filter"`
	OrderBy         []orderInput   `json:"order_by"`
}

type minuteInput struct {
	StartMinutesAgo *int   `json:"start_minutes_ago"`
	EndMinutesAgo   *int   `json:"end_minutes_ago"`
	Name            string `json:"name"`
}

// runRealtimeRequest is the runRealtimeReport body.
type runRealtimeRequest struct {
	Dimensions      []named       `json:"dimensions,omitempty"`
	Metrics         []named       `json:"metrics"`
	DimensionFilter any           `json:"dimensionFilter,omitempty"`
	MetricFilter    any           `json:"metricFilter,omitempty"`
	OrderBys        []orderBy     `json:"orderBys,omitempty"`
	MinuteRanges    []minuteRange `json:"minuteRanges,omitempty"`
	Limit           string        `json:"limit,omitempty"`
}

func realtimeTool(c *upstream.Client) gtmgate.Tool {
	minutes := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(59.0)}
	}
	return gtmgate.Tool{
		Name: "ga4_realtime", Domain: "analytics", Provider: Provider, Title: "GA4 realtime report",
		Description: "GA4 active users and events of the last 30 minutes by realtime dimensions (country, deviceCategory, minutesAgo…).",
		Actions: []gtmgate.Action{{Name: "run_realtime_report", Description: "run a realtime report",
			Category: gtmgate.CategoryAnalyticsReport, List: true}},
		Properties: map[string]*jsonschema.Schema{
			"dimensions": stringList(0, 9),
			"metrics":    stringList(0, 10),
			"minute_ranges": {Type: "array", MaxItems: jsonschema.Ptr(2),
				Items: &jsonschema.Schema{Type: "object", AdditionalProperties: registry.Closed(), Properties: map[string]*jsonschema.Schema{
					"start_minutes_ago": minutes(), "end_minutes_ago": minutes(), "name": {Type: "string"}}}},
			"dimension_filter": rawFilterSchema(),
			"metric_filter":    rawFilterSchema(),
			"order_by": {Type: "array", MaxItems: jsonschema.Ptr(4),
				Items: &jsonschema.Schema{Type: "object", Required: []string{"field"}, AdditionalProperties: registry.Closed(), Properties: map[string]*jsonschema.Schema{
					"field": {Type: "string"}, "desc": {Type: "boolean"}}}},
		},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) { return runRealtime(ctx, c, call) },
	}
}

func runRealtime(ctx context.Context, c *upstream.Client, call *gtmgate.Call) (any, error) {
	var in realtimeInput
	if err := call.Bind(&in); err != nil {
		return nil, err
	}
	prop, err := propertyID(call.Account)
	if err != nil {
		return nil, err
	}
	if call.Cursor != "" {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "ga4_realtime does not page: the API has no offset for realtime reports").
			WithHint("drop cursor and raise limit, or narrow with filter")
	}
	if len(in.Metrics) == 0 {
		in.Metrics = []string{"activeUsers"}
	}
	req := runRealtimeRequest{Dimensions: names(in.Dimensions), Metrics: names(in.Metrics),
		OrderBys: orderBys(in.OrderBy, in.Metrics), Limit: fmt.Sprint(call.Limit)}
	for _, m := range in.MinuteRanges {
		req.MinuteRanges = append(req.MinuteRanges, minuteRange{StartMinutesAgo: m.StartMinutesAgo, EndMinutesAgo: m.EndMinutesAgo, Name: m.Name})
	}
	if req.DimensionFilter, req.MetricFilter, err = filters(call, in.Metrics, in.DimensionFilter, in.MetricFilter); err != nil {
		return nil, err
	}
	var resp reportResponse
	if err := c.Do(ctx, &upstream.Request{Method: http.MethodPost, Path: "/" + c.APIVersion() + "/properties/" + prop + ":runRealtimeReport",
		JSON: req, Token: call.Token}, &resp); err != nil {
		return nil, fmt.Errorf("ga4: run realtime report on property %s: %w", prop, err)
	}
	return toReport(&resp), nil
}
