package content

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type searchIn struct {
	Query   string `json:"query"`
	Section string `json:"section,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

type getPageIn struct {
	Path string `json:"path"`
}

type listPagesIn struct {
	Section string `json:"section,omitempty"`
}

// PageInfo describes a page in list_pages and get_page results.
type PageInfo struct {
	Path        string `json:"path"`
	URL         string `json:"url"`
	MarkdownURL string `json:"markdown_url"`
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Section     string `json:"section"`
}

type pageOut struct {
	PageInfo
	Markdown string `json:"markdown"`
}

type listPagesOut struct {
	Pages    []PageInfo `json:"pages"`
	Sections []string   `json:"sections"`
}

func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}
}

func objectSchema(required []string, props map[string]*jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
}

// addTools registers search, get_page and list_pages over t.
func addTools(s *mcp.Server, t *Tree) {
	section := &jsonschema.Schema{Type: "string", MaxLength: jsonschema.Ptr(128), Description: "Only pages of this section (see list_pages for the sections)."}
	if t.index != nil {
		mcp.AddTool(s, &mcp.Tool{Name: "search", Annotations: readOnly("Search pages"),
			Description: "Full-text search over " + t.siteName + ". Words are stemmed; use \"quotes\" for a phrase and a trailing * for a prefix. Returns ranked pages with a snippet; read one with get_page.",
			InputSchema: objectSchema([]string{"query"}, map[string]*jsonschema.Schema{
				"query":   {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(MaxQueryLen), Description: "What to look for."},
				"section": section,
				"limit":   {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(float64(MaxLimit)), Description: "Most results to return (default 10)."},
			})},
			func(_ context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, *Results, error) {
				res, err := t.index.Search(in.Query, in.Section, in.Limit)
				return nil, res, err
			})
	}
	mcp.AddTool(s, &mcp.Tool{Name: "get_page", Annotations: readOnly("Read a page"),
		Description: "Return one page of " + t.siteName + " as markdown, by path (\"/about\", \"/about.md\") or absolute URL.",
		InputSchema: objectSchema([]string{"path"}, map[string]*jsonschema.Schema{
			"path": {Type: "string", MinLength: jsonschema.Ptr(1), MaxLength: jsonschema.Ptr(MaxPathLen), Description: "Page path or URL."},
		})},
		func(_ context.Context, _ *mcp.CallToolRequest, in getPageIn) (*mcp.CallToolResult, *pageOut, error) {
			p, ok := t.Page(in.Path)
			if !ok {
				return nil, nil, fmt.Errorf("no page at %q; list_pages lists every page", in.Path)
			}
			out := &pageOut{PageInfo: t.pageInfo(p), Markdown: p.markdown()}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.Markdown}}}, out, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list_pages", Annotations: readOnly("List pages"),
		Description: "List the pages of " + t.siteName + " (path, URL, title, description), optionally only one section.",
		InputSchema: objectSchema(nil, map[string]*jsonschema.Schema{"section": section})},
		func(_ context.Context, _ *mcp.CallToolRequest, in listPagesIn) (*mcp.CallToolResult, *listPagesOut, error) {
			out := &listPagesOut{Pages: []PageInfo{}, Sections: t.Sections()}
			for _, p := range t.pages {
				if in.Section == "" || p.Section == in.Section {
					out.Pages = append(out.Pages, t.pageInfo(p))
				}
			}
			if out.Sections == nil {
				out.Sections = []string{}
			}
			return nil, out, nil
		})
}

// readResource serves a page resource by its markdown URL.
func readResource(t *Tree) mcp.ResourceHandler {
	return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		p, ok := t.Page(req.Params.URI)
		if !ok {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: p.markdown()}}}, nil
	}
}

func (t *Tree) pageInfo(p *Page) PageInfo {
	return PageInfo{Path: p.Path, URL: t.URL(p.Path), MarkdownURL: t.URL(p.MarkdownPath()), Title: p.Title, Description: p.Description, Section: p.Section}
}
