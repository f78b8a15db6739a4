package app

import (
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/bigquery"
	"github.com/gtmgate/gtmgate/provider/brave"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/sheets"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/provider/webfetch"
)

// providerSpec is how one provider family is wired: its key, real API root,
// client options, tools, and the sandbox that stands in for it in the demo.
type providerSpec struct {
	key     string
	baseURL string
	options func(cfg *config.Config, baseURL string) upstream.Options
	tools   func(c *upstream.Client) []gtmgate.Tool
	sandbox func() gtmgate.ProviderSandbox
}

// plain adapts a provider's Options(baseURL) constructor.
func plain(f func(string) upstream.Options) func(*config.Config, string) upstream.Options {
	return func(_ *config.Config, baseURL string) upstream.Options { return f(baseURL) }
}

func bearer(key string) func(*config.Config, string) upstream.Options {
	return func(_ *config.Config, baseURL string) upstream.Options {
		return upstream.Options{Provider: key, BaseURL: baseURL}
	}
}

// providers lists every provider family the gateway speaks to.
func providers() []providerSpec {
	return []providerSpec{
		{key: hubspot.Provider, baseURL: hubspot.DefaultBaseURL, options: bearer(hubspot.Provider), tools: hubspot.Tools, sandbox: hubspot.NewSandbox},
		{key: brave.Provider, baseURL: brave.DefaultBaseURL, options: plain(brave.Options), tools: brave.Tools,
			sandbox: func() gtmgate.ProviderSandbox { return brave.NewSandbox().ProviderSandbox }},
		{key: bigquery.Provider, baseURL: bigquery.DefaultBaseURL, options: plain(bigquery.Options),
			tools:   func(c *upstream.Client) []gtmgate.Tool { return bigquery.Tools(c, nil) },
			sandbox: func() gtmgate.ProviderSandbox { return bigquery.NewSandbox().ProviderSandbox }},
		{key: sheets.Provider, baseURL: sheets.DefaultBaseURL, options: plain(sheets.Options), tools: sheets.Tools,
			sandbox: func() gtmgate.ProviderSandbox { return sheets.NewSandbox().ProviderSandbox }},
	}
}

// extraTools are tools that need no provider client.
func (a *App) extraTools() []gtmgate.Tool {
	return webfetch.Tools(webfetch.Options{AllowLoopback: a.cfg.WebFetchAllowLoopback, Timeout: a.cfg.UpstreamTimeout})
}
