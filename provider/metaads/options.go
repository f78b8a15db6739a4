package metaads

import (
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Meta ad accounts and tokens.
const Provider = "meta_ads"

// DefaultBaseURL is the Graph API root.
const DefaultBaseURL = "https://graph.facebook.com"

// Options returns the upstream client options for the Marketing API at
// version ("v26.0"), the catalogue's default when empty or not shaped like a
// Graph API version (the configuration refuses such a value before it gets
// here). The token travels in the Authorization header, never in the URL.
// Graph's error codes, sent with HTTP 400, are read by classify.
func Options(baseURL, version string) upstream.Options {
	if cat := catalogue(); !cat.Pattern.MatchString(version) {
		version = cat.Default
	}
	return upstream.Options{Provider: Provider, BaseURL: baseURL, APIVersion: version, Classify: classify}
}

// catalogue is the Marketing API's entry in the version catalogue.
func catalogue() apiversion.Provider { return apiversion.MustOf(Provider) }

// AccountID normalises an ad account id to Meta's path form: "123" → "act_123".
func AccountID(id string) string {
	return "act_" + strings.TrimPrefix(strings.TrimSpace(id), "act_")
}

// Tools returns the Meta Ads tools bound to c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	a := &api{c: c}
	return []gtmgate.Tool{insightsTool(a), campaignsTool(a)}
}
