package content

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func page(title, extra, body string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("---\ntitle: " + title + "\n" + extra + "---\n" + body)}
}

func TestLoadMapping(t *testing.T) {
	tree, err := Load(fstest.MapFS{
		"index.md":          page("Home", "", "home"),
		"about.md":          page("About", "order: 2\n", "# About\n\nabout"),
		"guide/index.md":    page("Guide", "order: 1\n", "guide"),
		"guide/b.md":        page("B", "order: 2\n", "b"),
		"guide/a.md":        page("A", "order: 1\n", "a"),
		"guide/renamed.md":  page("R", "slug: new\norder: 3\n", "r"),
		"_llms.md":          page("LLMS", "", "curated"),
		".hidden/secret.md": page("Secret", "", "no"),
		"notes.txt":         {Data: []byte("not markdown")},
	}, Options{BaseURL: "https://x.test/"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range tree.Pages() {
		got = append(got, fmt.Sprintf("%s[%s]", p.Path, p.Section))
	}
	want := "/[] /guide[guide] /guide/a[guide] /guide/b[guide] /guide/new[guide] /about[]"
	if strings.Join(got, " ") != want {
		t.Errorf("pages %v\nwant %s", got, want)
	}
	if sp, ok := tree.Special("_llms.md"); !ok || !strings.Contains(sp.Body, "curated") {
		t.Error("special file missing")
	}
	about, _ := tree.Page("/about.md")
	if string(about.Markdown()) != "# About\n\nabout\n" {
		t.Errorf("markdown %q", about.Markdown())
	}
	guide, _ := tree.Page("https://x.test/guide")
	if !guide.SectionIndex || !strings.Contains(string(guide.Markdown()), "- [A](/guide/a.md)") {
		t.Errorf("section index markdown %q", guide.Markdown())
	}
	rec := httptest.NewRecorder()
	tree.ServeHTTP(rec, httptest.NewRequest("GET", "/guide/a", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<a href="/guide" aria-current="page">Guide</a>`) {
		t.Errorf("nav not marked: %d\n%s", rec.Code, rec.Body.String())
	}
}

// TestLoadAssets: images in the tree are served as they are at their path;
// other files are not.
func TestLoadAssets(t *testing.T) {
	png := append([]byte("\x89PNG\r\n\x1a\n"), strings.Repeat("x", 600)...)
	tree, err := Load(fstest.MapFS{
		"index.md":           page("Home", "", "![The console](/images/console.png)"),
		"images/console.png": {Data: png},
		"images/diagram.SVG": {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
		"images/notes.txt":   {Data: []byte("not served")},
		".drafts/unseen.png": {Data: png},
	}, Options{NoSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, accept, wantType string
		status                 int
	}{
		{"/images/console.png", "image/*", "image/png", 200},
		{"/images/diagram.SVG", "*/*", "image/svg+xml", 200},
		{"/images/notes.txt", "*/*", TypeMarkdown, 404},
		{"/.drafts/unseen.png", "*/*", TypeMarkdown, 404},
	} {
		req := httptest.NewRequest("GET", tc.path, nil)
		req.Header.Set("Accept", tc.accept)
		req.Header.Set("Accept-Encoding", "br, gzip")
		rec := httptest.NewRecorder()
		tree.ServeHTTP(rec, req)
		if rec.Code != tc.status || rec.Header().Get("Content-Type") != tc.wantType {
			t.Errorf("%s: %d %s, want %d %s", tc.path, rec.Code, rec.Header().Get("Content-Type"), tc.status, tc.wantType)
		}
		if tc.status == 200 && rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: an image sent %s-encoded", tc.path, rec.Header().Get("Content-Encoding"))
		}
	}
	rec := httptest.NewRecorder()
	tree.ServeHTTP(rec, httptest.NewRequest("GET", "/images/console.png", nil))
	if rec.Body.String() != string(png) || rec.Header().Get("ETag") == "" {
		t.Errorf("png body or ETag wrong: %d bytes, etag %q", rec.Body.Len(), rec.Header().Get("ETag"))
	}
	rec = httptest.NewRecorder()
	tree.ServeHTTP(rec, httptest.NewRequest("GET", "/images/diagram.SVG", nil))
	if !strings.Contains(rec.Header().Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("svg without a sandboxing CSP: %v", rec.Header())
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		fs   fstest.MapFS
		want string
	}{
		{"two files one path", fstest.MapFS{"a.md": page("A", "", ""), "a/index.md": page("A2", "", "")}, "both map to /a"},
		{"no title", fstest.MapFS{"a.md": {Data: []byte("---\ndescription: x\n---\n")}}, "needs a title"},
		{"bad date", fstest.MapFS{"a.md": page("A", "date: soon\n", "")}, "date"},
		{"bad slug", fstest.MapFS{"a.md": page("A", "slug: a/b\n", "")}, "slug"},
		{"alias over page", fstest.MapFS{"a.md": page("A", "aliases: [/b]\n", ""), "b.md": page("B", "", "")}, "is a page"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(tc.fs, Options{NoSearch: true})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func TestWatchReloads(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "index.md")
	write := func(title string, mod time.Time) {
		if err := os.WriteFile(file, []byte("---\ntitle: "+title+"\n---\nbody"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(file, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	write("One", now)
	src, err := NewSource(os.DirFS(dir), Options{NoSearch: true}, SourceOptions{Watch: true, Interval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	first := src.Tree()
	write("Two", now.Add(time.Second))
	time.Sleep(2 * time.Millisecond)
	if p, _ := src.Tree().Page("/"); p.Title != "Two" {
		t.Fatalf("title %q after change", p.Title)
	}
	if p, _ := first.Page("/"); p.Title != "One" {
		t.Error("old tree was mutated")
	}
	if err := os.WriteFile(file, []byte("---\nbroken"), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(file, now.Add(2*time.Second), now.Add(2*time.Second))
	time.Sleep(2 * time.Millisecond)
	if p, _ := src.Tree().Page("/"); p.Title != "Two" {
		t.Error("a broken edit replaced the tree")
	}
}
