package site

import (
	"encoding/json"
	"fmt"

	"github.com/gtmgate/gtmgate/content"
)

// serverCardSchema is the MCP Server Card schema URL.
const serverCardSchema = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"

type serverCardDoc struct {
	Schema      string   `json:"$schema"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Version     string   `json:"version"`
	Description string   `json:"description"`
	WebsiteURL  string   `json:"websiteUrl,omitempty"`
	Remotes     []remote `json:"remotes"`
	// Meta carries extensions under reverse-DNS keys, as server.json allows.
	Meta map[string]any `json:"_meta,omitempty"`
}

type remote struct {
	Type    string   `json:"type"`
	URL     string   `json:"url"`
	Headers []header `json:"headers,omitempty"`
}

type header struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	IsRequired  bool   `json:"isRequired"`
	IsSecret    bool   `json:"isSecret"`
}

// serverCard renders the MCP server card: the tenant-authenticated gateway
// endpoint first, then the public read-only one.
func serverCard(t *content.Tree, opts Options) ([]byte, error) {
	card := serverCardDoc{
		Schema: serverCardSchema, Name: opts.ServerName, Title: t.SiteName(), Version: opts.Version,
		Description: "Go-to-market tools for tenants (bearer token) and read-only access to the public site.",
		WebsiteURL:  opts.SiteURL,
		Remotes: []remote{
			{Type: "streamable-http", URL: opts.GatewayURL + "/mcp", Headers: []header{{
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
