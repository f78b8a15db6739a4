package content

import (
	"bytes"
	"html/template"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"unsafe"
)

// TestLazyBodiesServeAsEagerOnes: a page's HTML and markdown, made on first
// request, are served with the same bytes, ETags and headers as the bodies
// Load used to make for every page up front, in every encoding.
func TestLazyBodiesServeAsEagerOnes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Words enough to be compressed, and then some more. ", 20)
	fsys := fstest.MapFS{
		"index.md":          page("Home", "description: The home\n", "# Home\n\n"+long+"\n\n## One\n\n## Two\n\n## Three\n"),
		"guide/index.md":    page("Guide", "", "The guide.\n\n"+long),
		"guide/a.md":        page("A", "date: 2025-03-01\ndescription: First\n", "a "+long+"\n\n```go\n# not a heading\n```\n"),
		"guide/b.md":        page("B", "list: false\n", "b"),
		"short.md":          page("Short", "", "tiny"),
		"windows.md":        {Data: []byte("---\r\ntitle: Win\r\n---\r\n# Win\r\n\r\nbody  \r\n\r\n")},
		"untrimmed-tail.md": page("Tail", "", "body \t "),
	}
	opts := Options{BaseURL: "https://x.test", PageLinks: []string{`</llms.txt>; rel="describedby"`},
		TableOfContents: true, SearchPath: "/search", FooterLinks: []Link{{Title: "Docs", Path: "/"}}}
	tree, err := Load(fsys, opts)
	if err != nil {
		t.Fatal(err)
	}
	nav := tree.nav()
	for _, p := range tree.Pages() {
		htmlSrc, mdSrc := p.Body, p.Body
		if list, _ := p.Meta.Bool("list", true); p.SectionIndex && list {
			htmlSrc += tree.sectionList(p, false)
			mdSrc += tree.sectionList(p, true)
		}
		md := []byte("# " + p.Title + "\n\n" + mdSrc)
		r, err := renderDocument([]byte(htmlSrc))
		if err != nil {
			t.Fatal(err)
		}
		if p.Text != r.text {
			t.Errorf("%s: text %q, rendering gives %q", p.Path, p.Text, r.text)
		}
		if got := p.Markdown(); !bytes.Equal(got, md) || p.markdownLen() != len(md) {
			t.Errorf("%s: markdown %q (len %d), want %q", p.Path, got, p.markdownLen(), md)
		}
		d := layoutData{SiteName: tree.siteName, Title: p.Title, Description: p.Description, Canonical: tree.URL(p.Path),
			MarkdownPath: p.MarkdownPath(), IsHome: p.Path == "/", Nav: navFor(nav, p.Path), TOC: r.toc,
			FooterLinks: opts.FooterLinks, Content: template.HTML(r.html), SearchPath: "/search"}
		if !p.Date.IsZero() && p.Depth() > 1 {
			d.Date = &p.Date
		}
		html, err := renderLayout(d)
		if err != nil {
			t.Fatal(err)
		}
		eagerHTML, _ := tree.newBody(http.StatusOK, TypeHTML, html, p.LastModified(), tree.pageLinks(p))
		eagerMD, _ := tree.newBody(http.StatusOK, TypeMarkdown, md, p.LastModified(), markdownHeader(md))
		for _, enc := range []string{"", "gzip", "br, gzip"} {
			compareServed(t, tree, p.Path, "text/html", enc, eagerHTML)
			compareServed(t, tree, p.Path, "text/markdown", enc, eagerMD)
			compareServed(t, tree, p.MarkdownPath(), "*/*", enc, eagerMD)
		}
	}
}

// compareServed checks that the tree serves path as ServeBody serves want.
func compareServed(t *testing.T, tree *Tree, path, accept, acceptEncoding string, want *Body) {
	t.Helper()
	req := func() *http.Request {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Accept", accept)
		if acceptEncoding != "" {
			r.Header.Set("Accept-Encoding", acceptEncoding)
		}
		return r
	}
	got, exp := httptest.NewRecorder(), httptest.NewRecorder()
	tree.ServeHTTP(got, req())
	ServeBody(exp, req(), want)
	if got.Code != exp.Code || !reflect.DeepEqual(got.Header(), exp.Header()) || !bytes.Equal(got.Body.Bytes(), exp.Body.Bytes()) {
		t.Errorf("GET %s (Accept %s, Accept-Encoding %q): got %d %v (%d bytes), want %d %v (%d bytes)", path, accept, acceptEncoding,
			got.Code, got.Header(), got.Body.Len(), exp.Code, exp.Header(), exp.Body.Len())
	}
}

// TestBuiltResourceServesAsData: a resource made on first request (Build)
// is served as the same resource given as Data.
func TestBuiltResourceServesAsData(t *testing.T) {
	t.Parallel()
	data := []byte(strings.Repeat("# Corpus\n\nAll of it.\n", 40))
	mod := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	built := 0
	tree, err := Load(fstest.MapFS{"index.md": page("Home", "", "home")}, Options{NoSearch: true,
		Resources: func(*Tree) ([]Resource, error) {
			return []Resource{
				{Path: "/data.md", ContentType: TypeMarkdown, Data: data, LastModified: mod},
				{Path: "/built.md", ContentType: TypeMarkdown, LastModified: mod, Build: func() ([]byte, error) { built++; return data, nil }},
				{Path: "/data.json", ContentType: TypeJSON, Data: data, Header: http.Header{"Access-Control-Allow-Origin": {"*"}}},
				{Path: "/built.json", ContentType: TypeJSON, Header: http.Header{"Access-Control-Allow-Origin": {"*"}}, Build: func() ([]byte, error) { return data, nil }},
			}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if built != 0 {
		t.Fatalf("built %d times at load", built)
	}
	for _, ext := range []string{".md", ".json"} {
		want, _ := tree.Body("/data" + ext)
		for _, enc := range []string{"", "gzip", "br"} {
			compareServed(t, tree, "/built"+ext, "*/*", enc, want)
		}
	}
	if built != 1 {
		t.Errorf("built %d times, want once", built)
	}
}

// TestStripLeadingH1 pins the trimming and checks the result shares the
// source's memory when it can.
func TestStripLeadingH1(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "body\n", "body\n"},
		{"h1", "# Title\n\nbody\n\nmore\n", "body\n\nmore\n"},
		{"surrounding space", "\n\n  # Title\nbody  \n\n", "body\n"},
		{"no newline at end", "# Title\nbody", "body\n"},
		{"space before newline", "body \n", "body\n"},
		{"only h1", "# Title\n", "\n"},
		{"empty", "", "\n"},
		{"h2 kept", "## Sub\nbody\n", "## Sub\nbody\n"},
		{"text repeats title", "# body\nbody\n", "body\n"},
		{"crlf left", "body\r\n", "body\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stripLeadingH1(tc.in); got != tc.want {
				t.Errorf("stripLeadingH1(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	src := strings.Repeat("x", 1) + "# Title\n\nbody\n"
	got := stripLeadingH1(src[1:])
	start := uintptr(unsafe.Pointer(unsafe.StringData(src)))
	if p := uintptr(unsafe.Pointer(unsafe.StringData(got))); p < start || p >= start+uintptr(len(src)) {
		t.Error("the body was copied, not sliced from the source")
	}
}

// TestWatchReloadsLazyBodies: a tree swapped out by a reload still renders
// its own pages on first request, and the new tree renders the new files.
func TestWatchReloadsLazyBodies(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string, mod time.Time) {
		t.Helper()
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	write("index.md", "---\ntitle: Home\n---\nfirst edition", now)
	src, err := NewSource(os.DirFS(dir), Options{NoSearch: true}, SourceOptions{Watch: true, Interval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	first := src.Tree()
	write("index.md", "---\ntitle: Home\n---\nsecond edition", now.Add(time.Second))
	time.Sleep(2 * time.Millisecond)
	get := func(h http.Handler, path, accept string) string {
		t.Helper()
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Accept", accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, rec.Code)
		}
		return rec.Body.String()
	}
	if html := get(src, "/", "text/html"); !strings.Contains(html, "second edition") {
		t.Errorf("reloaded tree serves:\n%s", html)
	}
	if src.Tree() == first {
		t.Fatal("tree not reloaded")
	}
	if html := get(first, "/", "text/html"); !strings.Contains(html, "first edition") || strings.Contains(html, "second") {
		t.Errorf("the previous tree rendered:\n%s", html)
	}
	if md := get(first, "/index.md", "text/markdown"); md != "# Home\n\nfirst edition\n" {
		t.Errorf("the previous tree's markdown: %q", md)
	}
}
