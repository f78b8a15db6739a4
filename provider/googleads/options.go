package googleads

import (
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Google Ads accounts and tokens.
const Provider = "google_ads"

// DefaultBaseURL is the Google Ads REST API root.
const DefaultBaseURL = "https://googleads.googleapis.com"

// DefaultVersion returns the Google Ads API version used when none is configured.
func DefaultVersion() string { return apiversion.MustOf(Provider).Default }

// Options returns the upstream client options for Google Ads. version is the
// API version put in every path ("v25"); empty means DefaultVersion.
// developerToken is the operator's developer token; it is sent when set.
// Google sunset developer tokens on 2026-09-09 and documents the header as
// optional and ignored since, but requests without one were refused before
// (and reportedly for a while after), so an operator who has one keeps
// sending it. The manager account a tenant reaches a client through is per
// account (gtmgate.Account.LoginCustomerID), sent by each call. Google's
// errors are read by classify: its retry signal, and the errors that concern
// the operator's developer token or Cloud project rather than the tenant.
func Options(baseURL, developerToken, version string) upstream.Options {
	if version == "" {
		version = DefaultVersion()
	}
	h := http.Header{}
	if developerToken != "" {
		h.Set("developer-token", developerToken)
	}
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Header: h, APIVersion: version, Classify: classify}
}

// CustomerID normalises a customer id: "123-456-7890" → "1234567890".
func CustomerID(id string) string {
	return strings.ReplaceAll(strings.TrimSpace(id), "-", "")
}

// Tools returns the Google Ads tools bound to c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	a := &api{c: c}
	return []gtmgate.Tool{reportTool(a), campaignsTool(a), keywordsTool(a)}
}
