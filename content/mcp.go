package content

import (
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/gtmgate/gtmgate/mcpcapability"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpCapabilities are what the content servers declare (the SDK copies
// them, nothing changes them): their tools and page resources, and logging
// (the SDK's default, kept; they send no log messages). No prompts, no
// completions, no resource subscriptions.
var mcpCapabilities = mcp.ServerCapabilities{
	Logging:   &mcp.LoggingCapabilities{},
	Tools:     &mcp.ToolCapabilities{ListChanged: true},
	Resources: &mcp.ResourceCapabilities{ListChanged: true},
}

// MCPOptions configure NewMCPHandler.
type MCPOptions struct {
	// Name is the server's implementation name ("gtmgate-site").
	Name    string
	Title   string
	Version string
	// Instructions tell connecting clients what the server offers.
	Instructions string
	// AllowedOrigins are browser origins ("https://example.com") accepted
	// besides the request's own origin; any other Origin gets 403.
	AllowedOrigins []string
	Logger         *slog.Logger
}

// NewMCPHandler returns a read-only MCP server over the source's current tree,
// on the streamable HTTP transport in stateless mode (every POST stands
// alone, so any number of replicas can serve it). It offers the tools
// search, get_page and list_pages, and every page as a text/markdown resource
// whose URI is the page's absolute markdown URL. DNS-rebinding protection is
// on: the SDK rejects a non-localhost Host arriving on a loopback address, and
// a browser Origin other than the request's own or an allowed one gets 403.
func NewMCPHandler(src *Source, opts MCPOptions) http.Handler {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	servers := &serverCache{src: src, opts: opts}
	h := mcp.NewStreamableHTTPHandler(servers.get, &mcp.StreamableHTTPOptions{
		Stateless:    true,
		JSONResponse: true,
		Logger:       opts.Logger,
	})
	return checkOrigin(opts.AllowedOrigins, withServerInfo(src, opts, h))
}

// serverCache builds one *mcp.Server per loaded tree and reuses it until the
// tree is replaced.
type serverCache struct {
	src  *Source
	opts MCPOptions
	mu   sync.Mutex
	tree *Tree
	srv  *mcp.Server
}

func (c *serverCache) get(*http.Request) *mcp.Server {
	t := c.src.Tree()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tree != t {
		c.tree, c.srv = t, newMCPServer(t, c.opts)
	}
	return c.srv
}

// newMCPServer registers the tools and page resources of one tree.
func newMCPServer(t *Tree, opts MCPOptions) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: opts.Name, Title: opts.Title, Version: opts.Version, WebsiteURL: t.BaseURL()},
		&mcp.ServerOptions{Instructions: opts.Instructions, Logger: opts.Logger, Capabilities: &mcpCapabilities})
	s.AddReceivingMiddleware(mcpcapability.DeclaredOnly(&mcpCapabilities))
	addTools(s, t)
	for _, p := range t.pages {
		s.AddResource(&mcp.Resource{URI: t.URL(p.MarkdownPath()), Name: strings.TrimPrefix(p.MarkdownPath(), "/"),
			Title: p.Title, Description: p.Description, MIMEType: "text/markdown", Size: int64(p.markdownLen())},
			readResource(t))
	}
	return s
}

// checkOrigin rejects cross-origin browser requests: an Origin header must be
// the request's own origin or one of allowed.
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	ok := map[string]bool{}
	for _, o := range allowed {
		ok[strings.TrimSuffix(strings.ToLower(o), "/")] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !ok[strings.ToLower(origin)] && !sameOrigin(origin, r) {
			http.Error(w, "Forbidden: cross-origin request rejected", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}
