package site

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/content"
	"github.com/gtmgate/gtmgate/openapi"
)

// PathOpenAPI is the site's API description.
const PathOpenAPI = "/openapi.json"

// APIVersion is the version the site's specification gives its description.
const APIVersion = "1.1.0"

// generatedOperations describes each generated resource by path: its
// operationId and summary. A resource missing here fails the tree's load, so
// the description cannot lag behind the routes.
var generatedOperations = map[string]struct{ id, summary string }{
	PathLLMS:       {"getLlmsIndex", "Curated index for agents (llmstxt.org)"},
	PathLLMSFull:   {"getLlmsFullCorpus", "The whole site in one markdown document"},
	PathSitemap:    {"getSitemap", "XML sitemap of all indexable URLs"},
	PathRobots:     {"getRobots", "Crawler rules and content signals"},
	PathSkills:     {"getAgentSkillsIndex", "Catalog of skills offered to agents"},
	PathServerCard: {"getMcpServerCard", "MCP server card: the tenant-authenticated endpoint and the public read-only one"},
	PathMCPCard:    {"getPublicMcpServerCard", "The same server card, beside the public MCP endpoint"},
}

var (
	markdown = map[string]openapi.MediaType{"text/markdown": {Schema: openapi.Schema{"type": "string"}}}
	html     = map[string]openapi.MediaType{"text/html": {Schema: openapi.Schema{"type": "string"}}}
	notFound = &openapi.Response{Description: "No such page: short markdown pointing to the sitemap, the curated index and the home page",
		Content: markdown}
)

// apiDescription renders /openapi.json: every page (HTML and .md), the
// pages under a section as one templated path per section, the generated
// resources of res, the public MCP endpoint and the search page.
func apiDescription(t *content.Tree, opts Options, res []content.Resource) ([]byte, error) {
	d := &openapi.Document{
		OpenAPI: "3.1.0",
		Info: openapi.Info{Title: t.SiteName(), Version: APIVersion,
			Description: "The public read surface of " + t.SiteName() + ": every page as HTML and as markdown, the files for agents, " +
				"and a public read-only MCP server. No operation needs authentication."},
		Servers:  []openapi.Server{{URL: opts.SiteURL}},
		Paths:    map[string]*openapi.PathItem{},
		Security: []map[string][]string{},
		Components: &openapi.Components{SecuritySchemes: map[string]openapi.SecurityScheme{
			"tenantBearer": {Type: "http", Scheme: "bearer", Description: "The separate tenant-bound MCP endpoint at " +
				opts.GatewayURL + "/mcp takes a bearer token issued by the operator on request. No operation here uses it."},
		}},
	}
	// Pages one level below a section collapse into one templated path.
	children := map[string][]string{}
	for _, p := range t.Pages() {
		if parent := p.Parent(); parent != "/" && parent != "" {
			children[parent] = append(children[parent], p.Path[len(parent)+1:])
			continue
		}
		name := pascal(strings.TrimPrefix(p.Path, "/"))
		if p.Path == "/" {
			name = "Home"
		}
		addPage(d, p.Path, p.MarkdownPath(), name, p.Title, nil)
	}
	for _, parent := range slices.Sorted(maps.Keys(children)) {
		slug := openapi.Parameter{Name: "slug", In: "path", Required: true, Schema: openapi.Schema{"type": "string", "enum": children[parent]}}
		name := strings.TrimSuffix(pascal(strings.TrimPrefix(parent, "/")), "s")
		addPage(d, parent+"/{slug}", parent+"/{slug}.md", name, "One page of "+parent, []openapi.Parameter{slug})
	}
	var skills []string
	for _, r := range res {
		if name, ok := strings.CutPrefix(r.Path, skillsDirectory); ok && strings.HasSuffix(name, "/SKILL.md") {
			skills = append(skills, strings.TrimSuffix(name, "/SKILL.md"))
			continue
		}
		op, ok := generatedOperations[r.Path]
		if !ok {
			return nil, fmt.Errorf("site: generated resource %s has no description in the API document", r.Path)
		}
		ct, _, _ := strings.Cut(r.ContentType, ";")
		d.Paths[r.Path] = &openapi.PathItem{"get": {OperationID: op.id, Summary: op.summary,
			Responses: map[string]*openapi.Response{"200": {Description: "OK", Content: map[string]openapi.MediaType{ct: {Schema: schemaOf(ct)}}}}}}
	}
	if len(skills) > 0 {
		d.Paths[skillsDirectory+"{skill}/SKILL.md"] = &openapi.PathItem{"get": {OperationID: "getAgentSkill", Summary: "One skill's SKILL.md",
			Parameters: []openapi.Parameter{{Name: "skill", In: "path", Required: true, Schema: openapi.Schema{"type": "string", "enum": skills}}},
			Responses:  map[string]*openapi.Response{"200": {Description: "OK", Content: markdown}, "404": notFound}}}
	}
	d.Paths[PathOpenAPI] = &openapi.PathItem{"get": {OperationID: "getOpenApiDescription", Summary: "This document",
		Responses: map[string]*openapi.Response{"200": {Description: "OK", Content: map[string]openapi.MediaType{"application/json": {Schema: openapi.Schema{"type": "object"}}}}}}}
	d.Paths[PathSearchPage] = &openapi.PathItem{"get": {OperationID: "searchSite", Summary: "Full-text search of the pages",
		Parameters: []openapi.Parameter{{Name: "q", In: "query", Description: "Search terms.", Schema: openapi.Schema{"type": "string"}}},
		Responses:  map[string]*openapi.Response{"200": {Description: "Results as HTML, or markdown with Accept: text/markdown", Content: mergeContent(html, markdown)}}}}
	d.Paths[PathMCP] = &openapi.PathItem{"post": {OperationID: "callPublicMcp", Summary: "Public read-only MCP server (streamable HTTP, POST only)",
		Description: "JSON-RPC 2.0 over MCP streamable HTTP, stateless. Tools: search, get_page, list_pages. It holds no tenant data.",
		RequestBody: &openapi.RequestBody{Required: true, Content: map[string]openapi.MediaType{"application/json": {Schema: openapi.Schema{
			"type": "object", "required": []string{"jsonrpc", "method"}}}}},
		Responses: map[string]*openapi.Response{
			"200": {Description: "JSON-RPC response", Content: map[string]openapi.MediaType{"application/json": {Schema: openapi.Schema{"type": "object"}}}},
			"202": {Description: "Notification accepted"},
			"403": {Description: "Origin not allowed"},
		}}}
	return d.JSON()
}

// addPage describes a page's HTML and markdown paths.
func addPage(d *openapi.Document, htmlPath, mdPath, name, title string, params []openapi.Parameter) {
	d.Paths[mdPath] = &openapi.PathItem{"get": {OperationID: "get" + name, Summary: title + " (markdown)", Parameters: params,
		Responses: map[string]*openapi.Response{"200": {Description: "OK", Content: markdown}, "404": notFound}}}
	d.Paths[htmlPath] = &openapi.PathItem{"get": {OperationID: "get" + name + "Page", Summary: title + " (HTML; markdown with Accept: text/markdown)",
		Parameters: params, Responses: map[string]*openapi.Response{
			"200": {Description: "OK", Content: mergeContent(html, markdown)},
			"404": {Description: "No such page", Content: mergeContent(html, markdown)},
		}}}
}

func schemaOf(contentType string) openapi.Schema {
	if contentType == "application/json" {
		return openapi.Schema{"type": "object"}
	}
	return openapi.Schema{"type": "string"}
}

func mergeContent(a, b map[string]openapi.MediaType) map[string]openapi.MediaType {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// pascal turns "how-i-work" into "HowIWork".
func pascal(s string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '/' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
