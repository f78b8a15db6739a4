package app

import (
	"context"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/apispec"
	"github.com/gtmgate/gtmgate/provider/bigquery"
	"github.com/gtmgate/gtmgate/provider/brave"
	"github.com/gtmgate/gtmgate/provider/ga4"
	"github.com/gtmgate/gtmgate/provider/gcalendar"
	"github.com/gtmgate/gtmgate/provider/gmail"
	"github.com/gtmgate/gtmgate/provider/googleads"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/linkedinads"
	"github.com/gtmgate/gtmgate/provider/metaads"
	"github.com/gtmgate/gtmgate/provider/searchconsole"
	"github.com/gtmgate/gtmgate/provider/sheets"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/provider/webfetch"
	"github.com/gtmgate/gtmgate/providercheck"
)

// providerSpec is how one provider family is wired: its key, real API root,
// client options, tools, and the sandbox that stands in for it in the demo.
type providerSpec struct {
	key     string
	baseURL string
	options func(cfg *config.Config, baseURL string) upstream.Options
	tools   func(c *upstream.Client) []gtmgate.Tool
	sandbox func() gtmgate.ProviderSandbox
	// probe is the harmless read `gtmgate providers check` runs per account.
	probe providercheck.Probe
	// spec is the provider's facts, with the OAuth scopes each operation
	// accepts; nil for a provider without OAuth scopes (Brave's API key).
	spec func() *apispec.Spec
	// granted reads a credential's scopes with the provider's own call; nil
	// when the provider does not say, or for Google's APIs (googleScopes).
	granted grantedScopes
	// googleScopes: the credential's scopes come from Google's tokeninfo
	// endpoint, through its own client.
	googleScopes bool
	// scopesNote says why a provider with neither reports no scopes.
	scopesNote string
}

// grantedScopes reads the scopes a credential holds with the provider's client.
type grantedScopes func(ctx context.Context, c *upstream.Client, ts gtmgate.TokenSource) ([]string, error)

// plain adapts a provider's Options(baseURL) constructor.
func plain(f func(string) upstream.Options) func(*config.Config, string) upstream.Options {
	return func(_ *config.Config, baseURL string) upstream.Options { return f(baseURL) }
}

// providers lists every provider family the gateway speaks to.
func providers() []providerSpec {
	return []providerSpec{
		{key: hubspot.Provider, spec: hubspot.Spec, granted: hubspot.GrantedScopes, probe: providercheck.Probe{Tool: "crm_contacts", Input: `{"action":"list","limit":1}`}, baseURL: hubspot.DefaultBaseURL,
			options: func(cfg *config.Config, baseURL string) upstream.Options {
				return hubspot.Options(baseURL, cfg.APIVersion(hubspot.Provider))
			}, tools: hubspot.Tools, sandbox: hubspot.NewSandbox},
		{key: googleads.Provider, spec: googleads.Spec, googleScopes: true, probe: providercheck.Probe{Tool: "google_ads_campaigns", Input: `{"action":"list","limit":1}`}, baseURL: googleads.DefaultBaseURL, options: googleAdsOptions, tools: googleads.Tools, sandbox: googleads.NewSandbox},
		{key: metaads.Provider, spec: metaads.Spec, granted: metaads.GrantedScopes, probe: providercheck.Probe{Tool: "meta_ads_campaigns", Input: `{"action":"list","limit":1}`}, baseURL: metaads.DefaultBaseURL, options: func(cfg *config.Config, baseURL string) upstream.Options {
			return metaads.Options(baseURL, cfg.APIVersion(metaads.Provider))
		}, tools: metaads.Tools, sandbox: metaads.NewSandbox},
		{key: linkedinads.Provider, spec: linkedinads.Spec,
			scopesNote: "LinkedIn reports a token's scopes only through token introspection with the OAuth app's client id and secret, which gtmgate does not hold", probe: providercheck.Probe{Tool: "linkedin_ads_campaigns", Input: `{"action":"list","limit":1}`}, baseURL: linkedinads.DefaultBaseURL, tools: linkedinads.Tools, sandbox: linkedinads.NewSandbox,
			options: func(cfg *config.Config, baseURL string) upstream.Options {
				return linkedinads.Options(baseURL, cfg.APIVersion(linkedinads.Provider))
			}},
		{key: ga4.Provider, spec: ga4.Spec, googleScopes: true, probe: providercheck.Probe{Tool: "ga4_metadata", Input: `{}`}, baseURL: ga4.DefaultBaseURL, options: plain(ga4.Options), tools: ga4.Tools, sandbox: ga4.NewSandbox},
		{key: searchconsole.Provider, spec: searchconsole.Spec, googleScopes: true, probe: providercheck.Probe{Tool: "search_console_query", Input: `{"limit":1}`}, baseURL: searchconsole.DefaultBaseURL, options: plain(searchconsole.Options), tools: searchconsole.Tools, sandbox: searchconsole.NewSandbox},
		{key: gmail.Provider, spec: gmail.Spec, googleScopes: true, probe: providercheck.Probe{Tool: "email_messages", Input: `{"action":"list","limit":1}`}, baseURL: gmail.DefaultBaseURL, options: plain(gmail.Options), tools: gmail.Tools, sandbox: gmail.NewSandbox},
		{key: gcalendar.Provider, spec: gcalendar.Spec, googleScopes: true, probe: providercheck.Probe{Tool: "calendar_events", Input: `{"action":"list","limit":1}`}, baseURL: gcalendar.DefaultBaseURL, options: plain(gcalendar.Options), tools: gcalendar.Tools, sandbox: gcalendar.NewSandbox},
		{key: brave.Provider, probe: providercheck.Probe{Tool: "web_search", Input: `{"query":"gtmgate","limit":1}`}, baseURL: brave.DefaultBaseURL, options: plain(brave.Options), tools: brave.Tools,
			sandbox: func() gtmgate.ProviderSandbox { return brave.NewSandbox().ProviderSandbox }},
		{key: bigquery.Provider, spec: bigquery.Spec, googleScopes: true, probe: providercheck.Probe{Tool: "bigquery_schema", Input: `{"action":"datasets"}`}, baseURL: bigquery.DefaultBaseURL, options: plain(bigquery.Options),
			tools:   func(c *upstream.Client) []gtmgate.Tool { return bigquery.Tools(c, nil) },
			sandbox: func() gtmgate.ProviderSandbox { return bigquery.NewSandbox().ProviderSandbox }},
		{key: sheets.Provider, spec: sheets.Spec, googleScopes: true, baseURL: sheets.DefaultBaseURL, options: plain(sheets.Options), tools: sheets.Tools,
			sandbox: func() gtmgate.ProviderSandbox { return sheets.NewSandbox().ProviderSandbox }},
	}
}

// extraTools are tools that need no provider client.
func (a *App) extraTools() []gtmgate.Tool {
	return webfetch.Tools(webfetch.Options{AllowLoopback: a.cfg.WebFetchAllowLoopback, Timeout: a.cfg.UpstreamTimeout})
}

// googleAdsOptions adds the deployment's developer token; the demo sandbox
// accepts any, so --demo works without one.
func googleAdsOptions(cfg *config.Config, baseURL string) upstream.Options {
	token := cfg.GoogleAdsDeveloperToken
	if token == "" && cfg.Demo {
		token = "sandbox-developer-token"
	}
	return googleads.Options(baseURL, token, cfg.APIVersion(googleads.Provider))
}
