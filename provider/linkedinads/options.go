package linkedinads

import (
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of LinkedIn ad accounts and tokens.
const Provider = "linkedin_ads"

// DefaultBaseURL is the LinkedIn API root.
const DefaultBaseURL = "https://api.linkedin.com"

// Options returns the upstream client options for LinkedIn at version, the
// LinkedIn-Version (YYYYMM) sent on every call: the catalogue's default when
// empty or malformed (the configuration refuses a malformed one before it
// gets here).
func Options(baseURL, version string) upstream.Options {
	if cat := catalogue(); !cat.Pattern.MatchString(version) {
		version = cat.Default
	}
	h := http.Header{}
	h.Set("LinkedIn-Version", version)
	h.Set("X-Restli-Protocol-Version", "2.0.0")
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Header: h, APIVersion: version}
}

// catalogue is the Marketing API's entry in the version catalogue.
func catalogue() apiversion.Provider { return apiversion.MustOf(Provider) }

// AccountID normalises a sponsored account id: "urn:li:sponsoredAccount:123" → "123".
func AccountID(id string) string {
	return strings.TrimPrefix(strings.TrimSpace(id), "urn:li:sponsoredAccount:")
}

// Tools returns the LinkedIn Ads tools bound to c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	a := &api{c: c}
	return []gtmgate.Tool{analyticsTool(a), campaignsTool(a)}
}
