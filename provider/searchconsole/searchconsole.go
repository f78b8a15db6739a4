// Package searchconsole adapts the Google Search Console API (webmasters v3)
// as the read-only tool search_console_query of the "analytics" domain. The
// account id is the Search Console property: "sc-domain:example.com" for a
// domain property or a URL-prefix property such as "https://www.example.com/".
//
// Results: {"items": [{"query": …, "page": …, "clicks", "impressions",
// "ctr", "position"}…], "next_cursor", "response_aggregation_type"}: each
// row's keys are named after the requested dimensions; next_cursor is the
// next startRow, given while a page comes back full.
package searchconsole

import (
	"net/url"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
)

// Provider is the provider key of Search Console accounts and tokens.
const Provider = "search_console"

// DefaultBaseURL is the Search Console API root.
const DefaultBaseURL = "https://searchconsole.googleapis.com"

// Options returns the upstream client options for the Search Console at baseURL:
// OAuth bearer token, and Google's usage limits (sent as 403 as well as 429)
// read as RATE_LIMITED rather than a refused token.
func Options(baseURL string) upstream.Options {
	return upstream.Options{Provider: Provider, BaseURL: baseURL, Classify: googleapi.Classify}
}

// Tools returns the Search Console tools calling the API through c.
func Tools(c *upstream.Client) []gtmgate.Tool {
	return []gtmgate.Tool{queryTool(c)}
}

// Dimensions the Search Analytics API groups by.
var Dimensions = []string{"query", "page", "country", "device", "date", "searchAppearance"}

// sitePath returns the API path of a site: the whole site URL is one path
// segment, so its slashes and colon are escaped.
func sitePath(version string, acct gtmgate.Account) (string, error) {
	site := acct.ID
	valid := strings.HasPrefix(site, "sc-domain:") && len(site) > len("sc-domain:")
	if u, err := url.Parse(site); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && strings.HasSuffix(site, "/") {
		valid = true
	}
	if !valid || strings.ContainsAny(site, " \t\r\n") {
		return "", gtmgate.Errorf(gtmgate.EValidation, "search_console: account %q is not a Search Console property", site).
			WithHint(`use "sc-domain:example.com" for a domain property or "https://www.example.com/" (with the trailing slash) for a URL-prefix property`)
	}
	return "/webmasters/" + version + "/sites/" + url.QueryEscape(site), nil
}
