package ga4

import (
	"context"
	"fmt"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// DimensionMetadata describes one dimension, with the API's field names.
type DimensionMetadata struct {
	APIName          string `json:"apiName"`
	UIName           string `json:"uiName"`
	Description      string `json:"description"`
	Category         string `json:"category,omitempty"`
	CustomDefinition bool   `json:"customDefinition,omitempty"`
}

// MetricMetadata describes one metric; Type is TYPE_INTEGER, TYPE_FLOAT,
// TYPE_CURRENCY, TYPE_SECONDS…
type MetricMetadata struct {
	APIName          string `json:"apiName"`
	UIName           string `json:"uiName"`
	Description      string `json:"description"`
	Type             string `json:"type"`
	Category         string `json:"category,omitempty"`
	CustomDefinition bool   `json:"customDefinition,omitempty"`
}

// Metadata is the result of ga4_metadata and the API's Metadata resource.
type Metadata struct {
	Name       string              `json:"name,omitempty"`
	Dimensions []DimensionMetadata `json:"dimensions"`
	Metrics    []MetricMetadata    `json:"metrics"`
}

func metadataTool(c *upstream.Client) gtmgate.Tool {
	return gtmgate.Tool{
		Name: "ga4_metadata", Domain: "analytics", Provider: Provider, Title: "GA4 dimensions and metrics",
		Description: "List the dimensions and metrics (custom ones too) a GA4 property reports on; use it when unsure of a ga4_report name.",
		Actions:     []gtmgate.Action{{Name: "get_metadata", Description: "list dimensions and metrics", Category: gtmgate.CategoryAnalyticsReport}},
		Run: func(ctx context.Context, call *gtmgate.Call) (any, error) {
			prop, err := propertyID(call.Account)
			if err != nil {
				return nil, err
			}
			var md Metadata
			if err := c.Do(ctx, &upstream.Request{Method: http.MethodGet, Path: "/" + c.APIVersion() + "/properties/" + prop + "/metadata",
				Token: call.Token}, &md); err != nil {
				return nil, fmt.Errorf("ga4: metadata of property %s: %w", prop, err)
			}
			if md.Dimensions == nil {
				md.Dimensions = []DimensionMetadata{}
			}
			if md.Metrics == nil {
				md.Metrics = []MetricMetadata{}
			}
			return md, nil
		},
	}
}
