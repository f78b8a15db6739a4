package content

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"time"
)

//go:embed layout/page.html layout/style.css
var layoutFS embed.FS

var pageTemplate = template.Must(template.ParseFS(layoutFS, "layout/page.html"))

// StylePath is where the layout's stylesheet is served.
const StylePath = "/assets/style.css"

// Link is a titled URL path, used for navigation and footers.
type Link struct {
	Title string
	Path  string
}

type navItem struct {
	Title, Path string
	Active      bool
}

// layoutData is what page.html renders.
type layoutData struct {
	SiteName     string
	Title        string
	Description  string
	Canonical    string
	MarkdownPath string
	StylePath    string
	IsHome       bool
	Date         *time.Time
	Nav          []navItem
	FooterLinks  []Link
	Content      template.HTML
	// SearchPath shows the search form; Query fills it in on results pages,
	// which NoIndex keeps out of search engines.
	SearchPath string
	Query      string
	NoIndex    bool
}

// stylesheet returns the embedded CSS.
func stylesheet() []byte {
	b, err := layoutFS.ReadFile("layout/style.css")
	if err != nil {
		panic(err) // embedded at build time
	}
	return b
}

// renderLayout executes the page template.
func renderLayout(d layoutData) ([]byte, error) {
	d.StylePath = StylePath
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("content: layout %q: %w", d.Title, err)
	}
	return buf.Bytes(), nil
}

// navFor marks the nav entry of the page at path, or of its section.
func navFor(nav []Link, path string) []navItem {
	out := make([]navItem, len(nav))
	for i, l := range nav {
		active := l.Path == path || (l.Path != "/" && len(path) > len(l.Path) && path[:len(l.Path)+1] == l.Path+"/")
		out[i] = navItem{Title: l.Title, Path: l.Path, Active: active}
	}
	return out
}
