// Package ga4 adapts the Google Analytics 4 Data API (v1beta) as three
// read-only tools of the "analytics" domain: ga4_report (runReport),
// ga4_realtime (runRealtimeReport) and ga4_metadata (the property's
// dimensions and metrics). The account id is the GA4 property id (digits;
// "properties/123" is accepted too).
//
// Report results: {"items": [{dimension: "value", metric: number}…],
// "dimension_headers", "metric_headers" (name and type; dimensions are always
// STRING), "row_count", "next_cursor" (a row offset), "currency_code",
// "time_zone"}. Metric values are JSON numbers.
package ga4

import (
	"regexp"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of GA4 accounts and tokens.
const Provider = "ga4"

// DefaultBaseURL is the GA4 Data API root.
const DefaultBaseURL = "https://analyticsdata.googleapis.com"

// Options returns the upstream client options for the GA4 Data API at baseURL:
// OAuth bearer token, and Google's usage limits (sent as 403 as well as 429)
// read as RATE_LIMITED rather than a refused token.
func Options(baseURL string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Classify: googleapi.Classify}
}

// Tools returns the GA4 tools calling the API through c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	return []gtmgate.Tool{reportTool(c), realtimeTool(c), metadataTool(c)}
}

var propertyDigits = regexp.MustCompile(`^[0-9]{1,20}$`)

// propertyID returns the numeric property id of the call's account.
func propertyID(acct gtmgate.Account) (string, error) {
	id := strings.TrimPrefix(acct.ID, "properties/")
	if !propertyDigits.MatchString(id) {
		return "", gtmgate.Errorf(gtmgate.EValidation, "ga4: account %q is not a GA4 property id", acct.ID).
			WithHint("GA4 account ids are the numeric property id, for example 412345678")
	}
	return id, nil
}

func stringList(minItems, maxItems int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "array", MinItems: jsonschema.Ptr(minItems), MaxItems: jsonschema.Ptr(maxItems),
		Items: &jsonschema.Schema{Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(200)}}
}

// rawFilterSchema is a GA4 FilterExpression passed through as written.
func rawFilterSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Description: "A GA4 FilterExpression, ANDed with filter."}
}
