package content

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"
)

func TestPathForFile(t *testing.T) {
	tests := []struct {
		file, slug, want string
		index            bool
	}{
		{"index.md", "", "/", false},
		{"about.md", "", "/about", false},
		{"insights/why-x.md", "", "/insights/why-x", false},
		{"insights/index.md", "", "/insights", true},
		{"insights.md", "", "/insights", false},
		{"insights/old-name.md", "new-name", "/insights/new-name", false},
		{"about.md", "team", "/team", false},
	}
	for _, tc := range tests {
		got, idx := pathForFile(tc.file, tc.slug)
		if got != tc.want || idx != tc.index {
			t.Errorf("%s (slug %q) → %s %v, want %s %v", tc.file, tc.slug, got, idx, tc.want, tc.index)
		}
	}
}

func TestCleanPath(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"/", "/", true},
		{"", "/", true},
		{"/about", "/about", true},
		{"/about/", "/about", true},
		{"/insights/why%2Dx", "/insights/why-x", true},
		{"/caf%C3%A9", "/café", true},
		{"/../etc/passwd", "", false},
		{"/a/./b", "", false},
		{"/a//b", "", false},
		{"/a%2Fb", "", false},
		{"/a%2fb", "", false},
		{"/a%5Cb", "", false},
		{"/a\\b", "", false},
		{"/a%00b", "", false},
		{"/a%zz", "", false},
		{"/a%ff", "", false},
		{"/a%0Ab", "", false},
		{"relative", "", false},
		{"/" + strings.Repeat("a", MaxPathLen), "", false},
	}
	for _, tc := range tests {
		got, ok := CleanPath(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("CleanPath(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNormalizePageRef(t *testing.T) {
	for in, want := range map[string]string{
		"/about": "/about", "about": "/about", "/about.md": "/about", "/index.md": "/", "/": "/",
		"https://x.test/about.md": "/about", "https://other.test/a/b?q=1#f": "/a/b", "/../x": "",
	} {
		if got := normalizePageRef("https://x.test", in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

// FuzzServePath throws arbitrary paths at a tree: every answer is either a
// known route or the 404 body, never a panic or a file outside the index.
func FuzzServePath(f *testing.F) {
	tree, err := Load(fstest.MapFS{
		"index.md": {Data: []byte("---\ntitle: Home\n---\nhi")},
		"a/b.md":   {Data: []byte("---\ntitle: B\n---\nb")},
	}, Options{BaseURL: "https://x.test", NoSearch: true})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"/", "/a/b", "/a/b.md", "/../a/b.md", "/a%2Fb", "/%ff", "/a/./b", "//", "/a\\b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, ok := CleanPath(p)
		if ok {
			if !strings.HasPrefix(got, "/") || strings.Contains(got, "..") && strings.Contains("/"+got+"/", "/../") ||
				strings.ContainsAny(got, "\\\x00") || !utf8.ValidString(got) {
				t.Fatalf("CleanPath(%q) accepted %q", p, got)
			}
		}
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.RawPath, req.URL.Path = "", ""
		req.URL.Opaque = ""
		req.URL.Path = p
		rec := httptest.NewRecorder()
		tree.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK && rec.Code != http.StatusNotFound {
			t.Fatalf("%q: status %d", p, rec.Code)
		}
		if rec.Code == http.StatusOK {
			if _, known := tree.routes[got]; !ok || !known {
				t.Fatalf("%q served 200 without a route", p)
			}
		}
	})
}
