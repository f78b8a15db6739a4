// Package site serves the public website (seed 000): every page as HTML and
// markdown, llms.txt and llms-full.txt, the sitemap, robots.txt, the
// agent-skills index with one SKILL.md per skill, the MCP server card and the
// read-only MCP server at /public-mcp. Everything is generated from the
// content tree and the tool registry when the tree loads.
package site

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
	// Tree is the content; default content.SiteFS(), the embedded tree.
	Tree fs.FS
	// SiteURL is this surface's public base URL ("https://example.com").
	SiteURL string
	// GatewayURL is the gateway's public base URL, for the tenant-bound MCP
	// endpoint and the REST proxy named in skills and the server card.
	GatewayURL string
	// DocsURL is the docs host's public base URL, linked from skills.
	DocsURL string
	// Registry lists the gateway's tools; one tenant-bound skill per domain.
	// Nil publishes only the public skills.
	Registry *registry.Registry
	// Version is the build version shown in the server card and MCP.
	Version string
	// ServerName is the server card's reverse-DNS name; default "io.gtmgate/site".
	ServerName string
	// ContentSignal is the site's content usage signal, sent with every
	// response and stated in robots.txt, llms.txt and the read-site skill
	// (GTMGATE_CONTENT_SIGNAL); the zero value permits search, AI input and
	// AI training.
	ContentSignal content.Signal
	// Watch reloads the tree when its files change (development).
	Watch  bool
	Logger *slog.Logger
}

// Paths of the generated resources.
const (
	PathLLMS        = "/llms.txt"
	PathLLMSFull    = "/llms-full.txt"
	PathSitemap     = "/sitemap.xml"
	PathRobots      = "/robots.txt"
	PathSkills      = "/.well-known/agent-skills/index.json"
	PathServerCard  = "/.well-known/mcp/server-card.json"
	PathMCP         = "/public-mcp"
	PathMCPCard     = "/public-mcp/server-card"
	PathSearchPage  = "/search"
	skillsDirectory = "/.well-known/agent-skills/"
)

// New loads the tree and returns the site's handler.
func New(opts Options) (http.Handler, error) {
	if opts.SiteURL == "" {
		return nil, fmt.Errorf("site: SiteURL is required")
	}
	opts.SiteURL = strings.TrimSuffix(opts.SiteURL, "/")
	opts.GatewayURL = strings.TrimSuffix(cmp.Or(opts.GatewayURL, opts.SiteURL), "/")
	opts.DocsURL = strings.TrimSuffix(cmp.Or(opts.DocsURL, opts.SiteURL), "/")
	opts.Version = cmp.Or(opts.Version, "0.0.0-dev")
	opts.ServerName = cmp.Or(opts.ServerName, "io.gtmgate/site")
	if opts.Tree == nil {
		opts.Tree = content.SiteFS()
	}
	src, err := content.NewSource(opts.Tree, content.Options{
		BaseURL:   opts.SiteURL,
		Resources: generator(opts),
		PageLinks: []string{
			`</llms.txt>; rel="describedby"; type="text/markdown"; title="llms.txt"`,
			`</llms-full.txt>; rel="describedby"; type="text/markdown"; title="llms-full.txt"`,
			`<` + PathServerCard + `>; rel="service-desc"; type="application/json"; title="MCP server card"`,
			`<` + PathSkills + `>; rel="service-doc"; type="application/json"; title="Agent skills"`,
			`<` + PathOpenAPI + `>; rel="service-desc"; type="application/openapi+json"; title="OpenAPI description"`,
		},
		FooterLinks: []content.Link{{Title: "llms.txt", Path: PathLLMS}, {Title: "Sitemap", Path: PathSitemap}, {Title: "Agent skills", Path: PathSkills}},
		SearchPath:  PathSearchPage,
		Signal:      opts.ContentSignal,
	}, content.SourceOptions{Watch: opts.Watch, Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	return routes(src, opts), nil
}

// routes lists every route of the site. The tree answers every GET it holds
// (pages, .md, generated files, 404); the MCP handler takes /public-mcp.
func routes(src *content.Source, opts Options) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(PathMCP, content.NewMCPHandler(src, content.MCPOptions{
		Name: "gtmgate-site", Title: src.Tree().SiteName(), Version: opts.Version, Logger: opts.Logger,
		AllowedOrigins: []string{opts.SiteURL},
		Instructions:   "Read-only access to the public website: search it, list its pages and read any page as markdown. It holds no tenant data.",
	}))
	mux.Handle("GET "+favicon.Path, favicon.Handler())
	mux.Handle("/", src)
	return src.Guard(mux)
}

// generator returns the content.Options.Resources func of the site.
func generator(opts Options) func(*content.Tree) ([]content.Resource, error) {
	return func(t *content.Tree) ([]content.Resource, error) {
		sitemap, newest, err := content.Sitemap(t)
		if err != nil {
			return nil, err
		}
		card, err := serverCard(t, opts)
		if err != nil {
			return nil, err
		}
		res := []content.Resource{
			{Path: PathLLMS, ContentType: content.TypeMarkdown, Data: llmsIndex(t), LastModified: newest},
			{Path: PathLLMSFull, ContentType: content.TypeMarkdown, LastModified: newest,
				// Built on first request: the whole corpus again, which few read.
				Build: func() ([]byte, error) { return content.FullCorpus(t, t.SiteName(), homeDescription(t)), nil }},
			{Path: PathSitemap, ContentType: content.TypeXML, Data: sitemap, LastModified: newest},
			{Path: PathRobots, ContentType: content.TypeText, Data: content.Robots(t)},
			{Path: PathServerCard, ContentType: content.TypeJSON, Data: card},
			{Path: PathMCPCard, ContentType: content.TypeJSON, Data: card},
		}
		skills, err := skillResources(t, opts)
		if err != nil {
			return nil, err
		}
		res = append(res, skills...)
		api, err := apiDescription(t, opts, res)
		if err != nil {
			return nil, err
		}
		return append(res, content.Resource{Path: PathOpenAPI, ContentType: content.TypeJSON, Data: append(api, '\n')}), nil
	}
}

func homeDescription(t *content.Tree) string {
	if h, ok := t.Page("/"); ok {
		return h.Description
	}
	return ""
}
