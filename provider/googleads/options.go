package googleads

import (
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Google Ads accounts and tokens.
const Provider = "google_ads"

// DefaultBaseURL is the Google Ads REST API root.
const DefaultBaseURL = "https://googleads.googleapis.com"

// APIVersion is the Google Ads API version in every path.
const APIVersion = "v21"

// Options returns the upstream client options for Google Ads. developerToken
// is the operator's API developer token (required by Google on every call);
// loginCustomerID, when not empty, is the manager account through which the
// tenant's OAuth user reaches client accounts.
func Options(baseURL, developerToken, loginCustomerID string) upstream.Options {
	h := http.Header{}
	h.Set("developer-token", developerToken)
	if id := CustomerID(loginCustomerID); id != "" {
		h.Set("login-customer-id", id)
	}
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Header: h}
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
