// Package bigquery adapts the BigQuery REST API v2 to the read-only
// bigquery_query and bigquery_schema tools, and provides a sandbox of it.
// The account id is the GCP project id the jobs run and are billed in.
package bigquery

import (
	"net/url"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of BigQuery accounts and tokens.
const Provider = "bigquery"

// DefaultBaseURL is the root of the real BigQuery API.
const DefaultBaseURL = "https://bigquery.googleapis.com"

// Defaults of Limits.
const (
	DefaultMaxBytesBilled    int64   = 1 << 30  // 1 GiB per query unless the call asks for more
	DefaultMaxBytesBilledCap int64   = 50 << 30 // the most a call may ask for
	DefaultPricePerTiB       float64 = 6.25     // USD, on-demand analysis, US multi-region
)

// Options returns the upstream client options for BigQuery at baseURL
// (OAuth bearer token). Queries wait up to 10 s server-side, so the
// per-attempt time-out leaves room above that. BigQuery sends its rate
// limits and quotas as 403 (rateLimitExceeded, quotaExceeded): googleapi's
// Classify reads them as RATE_LIMITED rather than a refused token.
func Options(baseURL string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Timeout: 30 * time.Second, Classify: googleapi.Classify}
}

// Limits bounds what a query may cost. Zero fields take the defaults.
type Limits struct {
	// DefaultMaxBytesBilled is maximumBytesBilled when the call gives none.
	DefaultMaxBytesBilled int64
	// MaxBytesBilledCap is the largest max_bytes_billed a call may ask for.
	MaxBytesBilledCap int64
	// PricePerTiB is the on-demand price in USD used by estimate.
	PricePerTiB float64
}

func (l *Limits) withDefaults() Limits {
	var out Limits
	if l != nil {
		out = *l
	}
	if out.DefaultMaxBytesBilled <= 0 {
		out.DefaultMaxBytesBilled = DefaultMaxBytesBilled
	}
	if out.MaxBytesBilledCap <= 0 {
		out.MaxBytesBilledCap = DefaultMaxBytesBilledCap
	}
	out.DefaultMaxBytesBilled = min(out.DefaultMaxBytesBilled, out.MaxBytesBilledCap)
	if out.PricePerTiB <= 0 {
		out.PricePerTiB = DefaultPricePerTiB
	}
	return out
}

// Tools returns bigquery_query and bigquery_schema calling BigQuery through
// c; lim may be nil for the defaults.
func Tools(c *upstream.Client, lim *Limits) []gtmgate.Tool {
	return []gtmgate.Tool{queryTool(c, lim.withDefaults()), schemaTool(c)}
}

// projectPath returns /bigquery/{version}/projects/{project} plus escaped segments.
func projectPath(version, project string, segments ...string) string {
	p := "/bigquery/" + version + "/projects/" + url.PathEscape(project)
	for _, s := range segments {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// needProject refuses a call without a project (the account id).
func needProject(call *gtmgate.Call) (string, error) {
	if call.Account.ID == "" {
		return "", gtmgate.Errorf(gtmgate.EValidation, "no BigQuery project: set account_id to a GCP project id")
	}
	return call.Account.ID, nil
}
