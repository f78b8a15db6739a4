package linkedinads

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of LinkedIn ad accounts and tokens.
const Provider = "linkedin_ads"

// DefaultBaseURL is the LinkedIn API root.
const DefaultBaseURL = "https://api.linkedin.com"

// DefaultVersion is the Marketing API version (LinkedIn-Version, YYYYMM) sent when none is configured.
const DefaultVersion = "202410"

var versionPattern = regexp.MustCompile(`^[0-9]{6}(\.[0-9]{2})?$`)

// Options returns the upstream client options for LinkedIn. version is the
// LinkedIn-Version (YYYYMM); DefaultVersion when empty or malformed.
func Options(baseURL, version string) upstream.Options {
	if !versionPattern.MatchString(version) {
		version = DefaultVersion
	}
	h := http.Header{}
	h.Set("LinkedIn-Version", version)
	h.Set("X-Restli-Protocol-Version", "2.0.0")
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Header: h}
}

// AccountID normalises a sponsored account id: "urn:li:sponsoredAccount:123" → "123".
func AccountID(id string) string {
	return strings.TrimPrefix(strings.TrimSpace(id), "urn:li:sponsoredAccount:")
}

// Tools returns the LinkedIn Ads tools bound to c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	a := &api{c: c}
	return []gtmgate.Tool{analyticsTool(a), campaignsTool(a)}
}
