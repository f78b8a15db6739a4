// Package docs serves the documentation host (seed 001, "Documentation
// host"): the docs tree and a tool reference generated from the registry, as
// HTML and markdown, /llms.txt, /llms-full.txt, the sitemap, a read-only MCP
// server at /mcp and full-text search at /api/search.
package docs

import (
	"cmp"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gtmgate/gtmgate/content"
	"github.com/gtmgate/gtmgate/favicon"
	"github.com/gtmgate/gtmgate/registry"
)

// Options configure New.
type Options struct {
	// Tree is the docs content; default content.DocsFS(), the embedded tree.
	Tree fs.FS
	// DocsURL is this surface's public base URL.
	DocsURL string
	// GatewayURL is the gateway's public base URL, named in the tool reference.
	GatewayURL string
	// Registry generates the tool reference; nil leaves it out.
	Registry *registry.Registry
	// Version is the build version shown by the MCP server.
	Version string
	// GatewayAPI returns the gateway's OpenAPI document, published at
	// /openapi.json; it is called the first time the document is asked
	// for, so the caller may hold it compressed. nil leaves it out.
	GatewayAPI func() ([]byte, error)
	// Watch reloads the tree when its files change (development).
	Watch  bool
	Logger *slog.Logger
}

// Paths of the generated resources and endpoints.
const (
	PathLLMS     = "/llms.txt"
	PathLLMSFull = "/llms-full.txt"
	PathSitemap  = "/sitemap.xml"
	PathRobots   = "/robots.txt"
	PathOpenAPI  = "/openapi.json"
	PathMCP      = "/mcp"
	PathSearch   = "/api/search"
	// PathSearchPage is the search page for people (HTML; markdown on request).
	PathSearchPage = "/search"
)

// New loads the docs tree and returns the docs host's handler.
func New(opts Options) (http.Handler, error) {
	if opts.DocsURL == "" {
		return nil, fmt.Errorf("docs: DocsURL is required")
	}
	opts.DocsURL = strings.TrimSuffix(opts.DocsURL, "/")
	opts.GatewayURL = strings.TrimSuffix(cmp.Or(opts.GatewayURL, opts.DocsURL), "/")
	opts.Version = cmp.Or(opts.Version, "0.0.0-dev")
	if opts.Tree == nil {
		opts.Tree = content.DocsFS()
	}
	src, err := content.NewSource(opts.Tree, content.Options{
		BaseURL:   opts.DocsURL,
		SiteName:  "",
		Generated: toolReference(opts.Registry, opts.GatewayURL),
		Resources: generator(opts.GatewayAPI),
		PageLinks: []string{
			`</llms.txt>; rel="describedby"; type="text/markdown"; title="llms.txt"`,
			`</llms-full.txt>; rel="describedby"; type="text/markdown"; title="llms-full.txt"`,
		},
		FooterLinks: []content.Link{{Title: "llms.txt", Path: PathLLMS}, {Title: "Sitemap", Path: PathSitemap}},
		SearchPath:  PathSearchPage,
		// The headings of the index page's "Where to go next".
		NavGroups: []content.NavGroup{
			{Title: "Getting started", Sections: []string{"getting-started"}},
			{Title: "Using the gateway", Sections: []string{"gateway"}},
			{Title: "Operating it", Sections: []string{"operations"}},
			{Title: "The site and development", Sections: []string{"site", "development"}},
		},
		TableOfContents: true,
	}, content.SourceOptions{Watch: opts.Watch, Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("docs: %w", err)
	}
	return routes(src, opts), nil
}

// routes lists every route of the docs host.
func routes(src *content.Source, opts Options) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(PathMCP, content.NewMCPHandler(src, content.MCPOptions{
		Name: "gtmgate-docs", Title: src.Tree().SiteName(), Version: opts.Version, Logger: opts.Logger,
		AllowedOrigins: []string{opts.DocsURL},
		Instructions:   "Read-only access to the gtmgate documentation: search it, list pages by section and read any page as markdown. It does not reach live gateway data.",
	}))
	mux.Handle("GET "+PathSearch, searchHandler(src))
	mux.Handle("GET "+favicon.Path, favicon.Handler())
	mux.Handle("/", src)
	return src.Guard(mux)
}

// generator adds llms.txt, llms-full.txt, the sitemap, robots.txt and the
// gateway's API description.
func generator(gatewayAPI func() ([]byte, error)) func(t *content.Tree) ([]content.Resource, error) {
	return func(t *content.Tree) ([]content.Resource, error) {
		sitemap, newest, err := content.Sitemap(t)
		if err != nil {
			return nil, err
		}
		res := []content.Resource{
			{Path: PathLLMS, ContentType: content.TypeMarkdown, Data: llmsIndex(t, gatewayAPI != nil), LastModified: newest},
			{Path: PathLLMSFull, ContentType: content.TypeMarkdown, LastModified: newest,
				// Built on first request: the whole corpus again, which few read.
				Build: func() ([]byte, error) { return content.FullCorpus(t, t.SiteName(), summary(t)), nil }},
			{Path: PathSitemap, ContentType: content.TypeXML, Data: sitemap, LastModified: newest},
			{Path: PathRobots, ContentType: content.TypeText, Data: content.Robots(t)},
		}
		if gatewayAPI != nil {
			res = append(res, content.Resource{Path: PathOpenAPI, ContentType: content.TypeJSON, Build: gatewayAPI})
		}
		return res, nil
	}
}

func summary(t *content.Tree) string {
	if h, ok := t.Page("/"); ok {
		return h.Description
	}
	return "Documentation of gtmgate."
}

// llmsIndex renders /llms.txt: the docs name and summary, then one line per
// page — its absolute markdown URL with a short description — grouped by
// section in reading order.
func llmsIndex(t *content.Tree, withAPI bool) []byte {
	var b strings.Builder
	b.WriteString("# " + t.SiteName() + "\n\n> " + summary(t) + "\n\n")
	b.WriteString("Every page is markdown at its URL plus .md. Search: " + t.URL(PathSearch) + "?q=…; MCP (read-only): " + t.URL(PathMCP) + ".\n")
	section := "\x00"
	for _, p := range t.Pages() {
		if p.Section != section {
			section = p.Section
			title := "Pages"
			if idx, ok := t.Page("/" + section); ok && section != "" {
				title = idx.Title
			} else if section != "" {
				title = strings.ToUpper(section[:1]) + section[1:]
			}
			b.WriteString("\n## " + title + "\n\n")
		}
		b.WriteString(content.LLMSLine(p.Title, t.URL(p.MarkdownPath()), p.Description))
	}
	b.WriteString("\n## Optional\n\n")
	b.WriteString(content.LLMSLine("Full documentation", t.URL(PathLLMSFull), "every page in one markdown document"))
	b.WriteString(content.LLMSLine("Sitemap", t.URL(PathSitemap), "XML sitemap of every page"))
	if withAPI {
		b.WriteString(content.LLMSLine("Gateway OpenAPI description", t.URL(PathOpenAPI), "OpenAPI 3.1 document of the gateway's REST proxy, chat, OAuth, health and admin API"))
	}
	return []byte(b.String())
}
