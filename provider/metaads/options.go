package metaads

import (
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Meta ad accounts and tokens.
const Provider = "meta_ads"

// DefaultBaseURL is the Graph API root.
const DefaultBaseURL = "https://graph.facebook.com"

// APIVersion is the Graph API version in every path.
const APIVersion = "v21.0"

// Options returns the upstream client options for the Marketing API. The
// token travels in the Authorization header, never in the URL.
func Options(baseURL string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL}
}

// AccountID normalises an ad account id to Meta's path form: "123" → "act_123".
func AccountID(id string) string {
	return "act_" + strings.TrimPrefix(strings.TrimSpace(id), "act_")
}

// Tools returns the Meta Ads tools bound to c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	a := &api{c: c}
	return []gtmgate.Tool{insightsTool(a), campaignsTool(a)}
}
