package docs

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// embeddedHandler serves the embedded docs tree, the one people read.
func embeddedHandler(t *testing.T) http.Handler {
	t.Helper()
	h, err := New(Options{DocsURL: testDocsURL})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// parsePage fetches path and parses its HTML.
func parsePage(t *testing.T, h http.Handler, path string) *html.Node {
	t.Helper()
	r, b := fetch(t, h, path)
	if r.StatusCode != 200 {
		t.Fatalf("%s: %d", path, r.StatusCode)
	}
	doc, err := html.Parse(strings.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasClass(n *html.Node, class string) bool {
	return n.Type == html.ElementNode && strings.Contains(" "+attr(n, "class")+" ", " "+class+" ")
}

// find returns the first element below n that match reports.
func find(n *html.Node, match func(*html.Node) bool) *html.Node {
	for n := range n.Descendants() {
		if n.Type == html.ElementNode && match(n) {
			return n
		}
	}
	return nil
}

func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

// TestGroupedNav: every docs page lists the pages under the index page's
// headings, each group in order, the page itself marked.
func TestGroupedNav(t *testing.T) {
	h := embeddedHandler(t)
	for _, tc := range []struct{ path, group string }{
		{"/approvals", "Using the gateway"},
		{"/quickstart", "Getting started"},
		{"/site-publishing", "The site and development"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			nav := find(parsePage(t, h, tc.path), func(n *html.Node) bool { return n.Data == "nav" && hasClass(n, "sections") })
			if nav == nil {
				t.Fatal("no grouped navigation")
			}
			type entry struct{ group, path string }
			var entries []entry
			var current []entry
			group := ""
			for n := range nav.Descendants() {
				switch {
				case n.Type == html.ElementNode && n.Data == "h2":
					group = textOf(n)
				case n.Type == html.ElementNode && n.Data == "a":
					e := entry{group, attr(n, "href")}
					entries = append(entries, e)
					if attr(n, "aria-current") == "page" {
						current = append(current, e)
					}
				}
			}
			if len(current) != 1 || current[0] != (entry{tc.group, tc.path}) {
				t.Errorf("current %v, want %s under %q", current, tc.path, tc.group)
			}
			var groups []string
			for _, e := range entries {
				if len(groups) == 0 || groups[len(groups)-1] != e.group {
					groups = append(groups, e.group)
				}
			}
			want := []string{"Getting started", "Using the gateway", "Operating it", "The site and development"}
			if strings.Join(groups, "|") != strings.Join(want, "|") {
				t.Errorf("groups %q, want %q", groups, want)
			}
			// Pages in order: quickstart (10) before configuration (20),
			// the site (85) before sandbox (90).
			index := map[string]int{}
			for i, e := range entries {
				index[e.path] = i
			}
			for _, pair := range [][2]string{{"/quickstart", "/configuration"}, {"/rest-proxy", "/mcp"}, {"/site-publishing", "/sandbox"}, {"/sandbox", "/contributing"}} {
				if index[pair[0]] >= index[pair[1]] {
					t.Errorf("%s listed after %s", pair[0], pair[1])
				}
			}
			// The header's row keeps the getting-started pages.
			header := find(parsePage(t, h, tc.path), func(n *html.Node) bool { return n.Data == "header" })
			var row []string
			for n := range header.Descendants() {
				if n.Type == html.ElementNode && n.Data == "a" {
					row = append(row, attr(n, "href"))
				}
			}
			for _, want := range []string{"/quickstart", "/connect", "/configuration", "#pages"} {
				if !slices.Contains(row, want) {
					t.Errorf("the header's links %v lack %s", row, want)
				}
			}
		})
	}
}

// TestTableOfContentsLinks: a page of several sections lists them at its
// top, each link reaching a heading of the page; a page of one section has
// none.
func TestTableOfContentsLinks(t *testing.T) {
	h := embeddedHandler(t)
	doc := parsePage(t, h, "/approvals")
	toc := find(doc, func(n *html.Node) bool { return n.Data == "nav" && hasClass(n, "toc") })
	if toc == nil {
		t.Fatal("/approvals has no table of contents")
	}
	ids := map[string]string{} // heading id → level
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && (n.Data == "h2" || n.Data == "h3") && attr(n, "id") != "" {
			ids[attr(n, "id")] = n.Data
		}
	}
	links, h2 := 0, 0
	for a := range toc.Descendants() {
		if a.Type != html.ElementNode || a.Data != "a" {
			continue
		}
		links++
		id, ok := strings.CutPrefix(attr(a, "href"), "#")
		if !ok || ids[id] == "" {
			t.Errorf("table of contents links %q, no heading of the page", attr(a, "href"))
		}
		if ids[id] == "h2" {
			h2++
		}
	}
	if h2 < 3 || links < h2 {
		t.Errorf("table of contents has %d links, %d to h2", links, h2)
	}
	// /oauth has two sections: no table of contents.
	if oauth := parsePage(t, h, "/oauth"); countH2(oauth) != 2 || find(oauth, func(n *html.Node) bool { return hasClass(n, "toc") }) != nil {
		t.Errorf("/oauth: %d sections; a table of contents only from three", countH2(oauth))
	}
}

func countH2(doc *html.Node) int {
	n := 0
	for d := range doc.Descendants() {
		if d.Type == html.ElementNode && d.Data == "h2" && attr(d, "id") != "" {
			n++
		}
	}
	return n
}
