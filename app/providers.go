package app

import (
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/upstream"
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

func bearerOptions(key string) func(*config.Config, string) upstream.Options {
	return func(_ *config.Config, baseURL string) upstream.Options {
		return upstream.Options{Provider: key, BaseURL: baseURL}
	}
}

// providers lists every provider family the gateway speaks to.
func providers() []providerSpec {
	return []providerSpec{
		{key: hubspot.Provider, baseURL: hubspot.DefaultBaseURL, options: bearerOptions(hubspot.Provider), tools: hubspot.Tools, sandbox: hubspot.NewSandbox},
	}
}
