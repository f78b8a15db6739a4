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

// navLink is a navigation entry; Group is its heading ("" when the
// navigation is not grouped).
type navLink struct {
	Link
	Group string
}

type navItem struct {
	Title, Path string
	Active      bool
}

// navigation is one row of entries (Flat) or entries under headings
// (Groups).
type navigation struct {
	Flat   []navItem
	Groups []navGroup
}

// navGroup is a heading of the navigation and its entries.
type navGroup struct {
	Title string
	Items []navItem
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
	Nav          navigation
	// TOC lists the page's headings ("On this page").
	TOC         []tocEntry
	FooterLinks []Link
	Content     template.HTML
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

// navFor marks the nav entry of the page at path, or of its section; entries
// with a group go under its heading, and the first group's (getting
// started) also in the header's row, so every page leads to them at once.
func navFor(nav []navLink, path string) navigation {
	var out navigation
	for _, l := range nav {
		active := l.Path == path || (l.Path != "/" && len(path) > len(l.Path) && path[:len(l.Path)+1] == l.Path+"/")
		item := navItem{Title: l.Title, Path: l.Path, Active: active}
		if l.Group == "" || l.Group == nav[0].Group {
			out.Flat = append(out.Flat, item)
		}
		if l.Group == "" {
			continue
		}
		if n := len(out.Groups); n == 0 || out.Groups[n-1].Title != l.Group {
			out.Groups = append(out.Groups, navGroup{Title: l.Group})
		}
		g := &out.Groups[len(out.Groups)-1]
		g.Items = append(g.Items, item)
	}
	return out
}
