package site

import (
	"encoding/json"
	"fmt"

	"github.com/gtmgate/gtmgate/content"
)

// serverCard renders the MCP server card: the tenant-authenticated gateway
// endpoint first, then the public read-only one.
func serverCard(t *content.Tree, opts Options) ([]byte, error) {
	card := content.ServerCard{
		Schema: content.ServerCardSchema, Name: opts.ServerName, Title: t.SiteName(), Version: opts.Version,
		Description: "Go-to-market tools for tenants (bearer token) and read-only access to the public site.",
		WebsiteURL:  opts.SiteURL,
		Remotes: []content.Remote{
			{Type: "streamable-http", URL: opts.GatewayURL + "/mcp", Headers: []content.RemoteHeader{{
				Name: "Authorization", Description: "Bearer <tenant token>, issued by the operator on request (OAuth 2.1 is also supported).",
				IsRequired: true, IsSecret: true,
			}}},
			{Type: "streamable-http", URL: opts.SiteURL + PathMCP},
		},
		Meta: map[string]any{"io.gtmgate/openapi": map[string]string{
			"url": opts.SiteURL + PathOpenAPI, "description": "OpenAPI 3.1 description of the site's read surface"}},
	}
	b, err := json.MarshalIndent(card, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("site: server card: %w", err)
	}
	return append(b, '\n'), nil
}
