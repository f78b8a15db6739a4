package content

import (
	"net/http"
	"time"
)

// Options configure Load.
type Options struct {
	// BaseURL is the absolute public URL of the surface, without a trailing
	// slash ("https://example.com"); used for canonical links and by
	// generators.
	BaseURL string
	// SiteName names the site in the layout; default: the home page's
	// front matter "site_name", else its title.
	SiteName string
	// Generated are markdown files added to the tree as if they were in it
	// (name → source with front matter), e.g. the docs' tool reference.
	Generated map[string][]byte
	// Resources, when set, is called once the pages are loaded and returns
	// further bodies to serve (llms.txt, sitemap…), made once like pages.
	Resources func(*Tree) ([]Resource, error)
	// PageLinks are Link header values sent with every HTML page, for example
	// `</llms.txt>; rel="describedby"; type="text/markdown"`. Each page also
	// links its own markdown rendition.
	PageLinks []string
	// FooterLinks appear in every page's footer.
	FooterLinks []Link
	// IncludeDrafts serves pages whose front matter says draft: true.
	IncludeDrafts bool
	// NoSearch skips building the search index.
	NoSearch bool
	// SearchPath, when set (and search is on), is where people search the
	// tree: every HTML page gets a search form in its header, and GET
	// SearchPath?q=… answers a results page (markdown to Accept:
	// text/markdown). Results are rendered per request, never cached.
	SearchPath string
	// NavGroups, when set, group the navigation by section under headings,
	// in this order, each group's pages by order then title; top-level
	// pages of sections no group names follow under their section's name.
	// Without it the navigation is one row of top-level pages.
	NavGroups []NavGroup
	// TableOfContents adds an "On this page" list of a page's h2 and h3
	// headings to pages with more than two h2 headings.
	TableOfContents bool
	// Signal is the content usage signal of the tree, sent as the
	// Content-Signal header of every response and in robots.txt; the zero
	// value permits search, AI input and AI training.
	Signal Signal
}

// NavGroup is a heading of the navigation and the sections under it.
type NavGroup struct {
	Title    string
	Sections []string
}

// Resource is a generated response served at an exact path.
type Resource struct {
	Path        string
	ContentType string
	Data        []byte
	// Build, when set, makes Data the first time the resource is asked for
	// (Data is then ignored): for large bodies few clients read, such as
	// llms-full.txt. It must not fail for a tree that loaded.
	Build func() ([]byte, error)
	// LastModified is sent when not zero.
	LastModified time.Time
	// Header holds extra headers. Every resource gets the tree's
	// Content-Signal, markdown ones (ContentType TypeMarkdown) also
	// x-markdown-tokens.
	Header http.Header
}

// Special is an underscore file of the tree ("_llms.md"): front matter and
// body, not served as a page.
type Special struct {
	Meta FrontMatter
	Body string
}

// Tree is a loaded, immutable content tree; each response is made once, at
// load or on its first request (see Load).
type Tree struct {
	opts     Options
	siteName string
	pages    []*Page
	byPath   map[string]*Page
	specials map[string]Special
	routes   map[string]*route
	notFound [2]*Body // markdown, HTML
	index    *Index
	loadedAt time.Time
}

// route is what one request path serves: a body, optionally a markdown
// alternative chosen by Accept, or a redirect.
type route struct {
	body     *Body
	markdown *Body
	redirect string
}

// Pages returns the pages in reading order: home, then each top-level page
// followed by the pages under it (section index first, then by order, newest
// date, title).
func (t *Tree) Pages() []*Page { return t.pages }

// Page returns the page at a URL path ("/about"); markdown paths ("/about.md")
// and absolute URLs under BaseURL are accepted too.
func (t *Tree) Page(path string) (*Page, bool) {
	p, ok := t.byPath[normalizePageRef(t.opts.BaseURL, path)]
	return p, ok
}

// Section returns the pages of a section (front matter "section" or first
// path segment), section index first.
func (t *Tree) Section(name string) []*Page {
	var out []*Page
	for _, p := range t.pages {
		if p.Section == name {
			out = append(out, p)
		}
	}
	return out
}

// Sections lists the distinct non-empty sections in reading order.
func (t *Tree) Sections() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range t.pages {
		if p.Section != "" && !seen[p.Section] {
			seen[p.Section] = true
			out = append(out, p.Section)
		}
	}
	return out
}

// Special returns an underscore file by name ("_llms.md").
func (t *Tree) Special(name string) (Special, bool) {
	s, ok := t.specials[name]
	return s, ok
}

// SiteName returns the site's name.
func (t *Tree) SiteName() string { return t.siteName }

// Signal returns the tree's content usage signal (Options.Signal).
func (t *Tree) Signal() Signal { return t.opts.Signal }

// BaseURL returns Options.BaseURL.
func (t *Tree) BaseURL() string { return t.opts.BaseURL }

// URL returns the absolute URL of a path.
func (t *Tree) URL(path string) string { return t.opts.BaseURL + path }

// Body returns the body served at an exact path (for a page path, its HTML).
func (t *Tree) Body(path string) (*Body, bool) {
	r, ok := t.routes[path]
	if !ok || r.body == nil {
		return nil, false
	}
	return r.body, true
}

// Search returns the tree's search index (nil when Options.NoSearch).
func (t *Tree) Search() *Index { return t.index }

// LoadedAt is when the tree was built.
func (t *Tree) LoadedAt() time.Time { return t.loadedAt }
