package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/gtmgate/gtmgate/jsonapi"
)

// wantsEventStream reports whether a GET asks for the transport's SSE stream
// (text/event-stream listed with q above 0).
func wantsEventStream(accept string) bool {
	q, ok := quality(accept, "text/event-stream")
	return ok && q > 0
}

// prefersJSON reports whether Accept ranks application/json above both
// text/html and text/markdown.
func prefersJSON(accept string) bool {
	j, ok := quality(accept, "application/json")
	if !ok || j == 0 {
		return false
	}
	h, _ := quality(accept, "text/html")
	md, _ := quality(accept, "text/markdown")
	return j > h && j > md
}

// withServerInfo sends the tree's Content-Signal with every answer of an MCP
// endpoint, and answers a GET that does not ask for an event stream with a
// short description of the server and how to connect: the server card for
// JSON, markdown for agents, a page for people. GETs for text/event-stream
// and every other method go to the transport, which answers 405 to a GET
// (no standalone stream on a stateless server).
func withServerInfo(src *Source, opts MCPOptions, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := src.Tree()
		h := w.Header()
		// Tool results and resources are the tree's pages: the transport's
		// answers carry its usage terms as much as the description does.
		h.Set("Content-Signal", t.Signal().String())
		accept := r.Header.Get("Accept")
		if (r.Method != http.MethodGet && r.Method != http.MethodHead) || wantsEventStream(accept) {
			next.ServeHTTP(w, r)
			return
		}
		info := mcpInfo{opts: opts, url: t.URL(r.URL.Path), tree: t}
		var body []byte
		var err error
		switch {
		case prefersJSON(accept):
			body, err = info.card()
			h.Set("Content-Type", TypeJSON)
		case prefersMarkdown(accept):
			body = []byte(info.markdown())
			h.Set("Content-Type", TypeMarkdown)
		default:
			body, err = info.html()
			h.Set("Content-Type", TypeHTML)
		}
		if err != nil {
			jsonapi.LoggerFrom(r.Context()).Error("content: MCP server description", "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		addVary(h, "Accept")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(body)
		}
	})
}

type mcpInfo struct {
	opts MCPOptions
	url  string
	tree *Tree
}

func (m mcpInfo) title() string {
	if m.opts.Title != "" {
		return m.opts.Title + " MCP server"
	}
	return m.opts.Name
}

// card is the server's MCP server card: a public streamable HTTP remote.
func (m mcpInfo) card() ([]byte, error) {
	card := ServerCard{Schema: ServerCardSchema, Name: m.opts.Name, Title: m.title(), Version: m.opts.Version,
		Description: m.opts.Instructions, WebsiteURL: m.tree.BaseURL(), Remotes: []Remote{{Type: "streamable-http", URL: m.url}}}
	b, err := json.MarshalIndent(card, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("content: server card: %w", err)
	}
	return append(b, '\n'), nil
}

func (m mcpInfo) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", m.title(), m.opts.Instructions)
	fmt.Fprintf(&b, "This is a read-only MCP server (streamable HTTP, protocol 2025-11-25). Connect an MCP client to `%s`: "+
		"it answers `POST` requests with JSON-RPC, no credential needed. Tools: %s. Every page is also a resource whose URI is its markdown URL.\n\n",
		m.url, strings.Join(m.tree.mcpToolNames(), ", "))
	fmt.Fprintf(&b, "Try it:\n\n```sh\ncurl -s %s -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n"+
		"  -d '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}'\n```\n\n", m.url)
	fmt.Fprintf(&b, "Send `Accept: application/json` to this URL with `GET` for the server card.\n")
	return b.String()
}

var mcpInfoTemplate = template.Must(template.New("mcp").Parse(`<p>{{.Instructions}}</p>
<p>This is a read-only MCP server (streamable HTTP, protocol 2025-11-25). Connect an MCP client to <code>{{.URL}}</code>: it answers <code>POST</code> requests with JSON-RPC, no credential needed. Tools: {{range $i, $t := .Tools}}{{if $i}}, {{end}}<code>{{$t}}</code>{{end}}. Every page is also a resource whose URI is its markdown URL.</p>
<p>Try it:</p>
<pre><code>curl -s {{.URL}} -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'</code></pre>
<p>A <code>GET</code> with <code>Accept: application/json</code> returns the server card.</p>`))

func (m mcpInfo) html() ([]byte, error) {
	var frag bytes.Buffer
	err := mcpInfoTemplate.Execute(&frag, struct {
		Instructions, URL string
		Tools             []string
	}{m.opts.Instructions, m.url, m.tree.mcpToolNames()})
	if err != nil {
		return nil, fmt.Errorf("content: MCP server page: %w", err)
	}
	t := m.tree
	return renderLayout(layoutData{SiteName: t.siteName, Title: m.title(), Nav: navFor(t.nav(), ""),
		FooterLinks: t.opts.FooterLinks, Content: template.HTML(frag.String()), SearchPath: t.searchPath()})
}

// mcpToolNames lists the tools addTools registers for t.
func (t *Tree) mcpToolNames() []string {
	if t.index == nil {
		return []string{"get_page", "list_pages"}
	}
	return []string{"search", "get_page", "list_pages"}
}
