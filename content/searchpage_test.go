package content

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
)

func searchPageTree(t *testing.T, opts Options) *Tree {
	t.Helper()
	opts.BaseURL = "https://x.test"
	tree, err := Load(fstest.MapFS{
		"index.md":   page("Home", "", "Welcome to the practice."),
		"pricing.md": page("Pricing", "", "Our prices are fixed. Each sprint has one price."),
		"faq.md":     page("FAQ & <answers>", "", "Ask about the price of a sprint."),
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func TestSearchPage(t *testing.T) {
	tree := searchPageTree(t, Options{SearchPath: "/search"})
	tests := []struct {
		name, query, accept string
		status              int
		want, wantNot       []string
	}{
		{"results", "q=pricing", "", 200,
			[]string{`<a href="/pricing">Pricing</a>`, "<mark>", `<meta name="robots" content="noindex">`, `value="pricing"`, "2 pages match"},
			[]string{"No page matches"}},
		{"markdown for agents", "q=pricing", "text/markdown", 200,
			[]string{"# Search\n", "(https://x.test/pricing.md)", "**"}, []string{"<mark>", "<html"}},
		{"titles are escaped", "q=answers", "", 200, []string{"FAQ &amp; &lt;answers&gt;"}, []string{"<answers>"}},
		{"no query shows the form and the help", "", "", 200, []string{`<form class="search"`, "put &#34;a phrase&#34; in quotes"}, []string{`<ol class="results">`}},
		{"nothing found", "q=zebra", "", 200, []string{"No page matches <strong>zebra</strong>"}, nil},
		{"the query is escaped", "q=" + url.QueryEscape(`<script>alert(1)</script>`), "", 200,
			[]string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script>"}},
		{"overlong query", "q=" + strings.Repeat("a", MaxQueryLen+1), "", 400, []string{"longer than 256 bytes"}, nil},
		{"section filter", "q=price&section=nope", "", 200, []string{"No page matches"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/search?"+tc.query, nil)
			if tc.accept != "" {
				r.Header.Set("Accept", tc.accept)
			}
			w := httptest.NewRecorder()
			tree.ServeHTTP(w, r)
			body := w.Body.String()
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d\n%s", w.Code, tc.status, body)
			}
			if cc, vary := w.Header().Get("Cache-Control"), w.Header().Get("Vary"); cc != "no-store" || !strings.Contains(vary, "Accept") {
				t.Errorf("Cache-Control %q, Vary %q", cc, vary)
			}
			for _, s := range tc.want {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %q\n%s", s, body)
				}
			}
			for _, s := range tc.wantNot {
				if strings.Contains(body, s) {
					t.Errorf("body has %q\n%s", s, body)
				}
			}
		})
	}
}

func TestSearchPageHeadAndForm(t *testing.T) {
	tree := searchPageTree(t, Options{SearchPath: "/search"})
	w := httptest.NewRecorder()
	tree.ServeHTTP(w, httptest.NewRequest("HEAD", "/search?q=pricing", nil))
	if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") == "0" {
		t.Errorf("HEAD: status %d, %d body bytes, Content-Length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
	}
	for _, p := range []string{"/pricing", "/no-such-page"} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", p, nil)
		r.Header.Set("Accept", "text/html")
		tree.ServeHTTP(w, r)
		if !strings.Contains(w.Body.String(), `<form class="search" role="search" action="/search" method="get">`) {
			t.Errorf("%s has no search form", p)
		}
	}
	if robots := string(Robots(tree)); !strings.Contains(robots, "Disallow: /search\n") {
		t.Errorf("robots.txt does not keep crawlers off /search:\n%s", robots)
	}
}

func TestSearchPageOff(t *testing.T) {
	tree := searchPageTree(t, Options{SearchPath: "/search", NoSearch: true})
	if res := get(tree, "/search?q=pricing"); res.StatusCode != http.StatusNotFound {
		t.Errorf("without search, /search answered %d", res.StatusCode)
	}
	body, _ := io.ReadAll(get(tree, "/pricing").Body)
	if strings.Contains(string(body), `class="search"`) {
		t.Error("a search form without search")
	}
}

func TestSearchPathCollision(t *testing.T) {
	_, err := Load(fstest.MapFS{"index.md": page("Home", "", "x"), "search.md": page("Search", "", "x")},
		Options{BaseURL: "https://x.test", SearchPath: "/search"})
	if err == nil || !strings.Contains(err.Error(), "collides") {
		t.Fatalf("err %v, want a collision", err)
	}
}

func get(h http.Handler, target string) *http.Response {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
	return w.Result()
}

// FuzzSearchPage sends arbitrary queries to the search page: every answer is
// a 200 or a 400 with the query escaped, never a panic, a 500 or markup
// taken from the query.
func FuzzSearchPage(f *testing.F) {
	tree, err := Load(fstest.MapFS{
		"index.md":   page("Home", "", "Welcome to the practice. Pricing is fixed."),
		"a/b.md":     page("B <b>", "", "Tokens, bearer tokens and \"phrases\"."),
		"a/index.md": page("A", "", "Section a."),
	}, Options{BaseURL: "https://x.test", SearchPath: "/search"})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"pricing", `"bearer tokens"`, "tok*", "*", `"`, "a AND b", "+x -y", "title:b", "<script>", "\xff", "~2", "x^3", strings.Repeat("a ", 130)} {
		f.Add(s, "")
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, q, section string) {
		for _, accept := range []string{"text/html", "text/markdown"} {
			r := httptest.NewRequest("GET", "/search?"+url.Values{"q": {q}, "section": {section}}.Encode(), nil)
			r.Header.Set("Accept", accept)
			w := httptest.NewRecorder()
			tree.ServeHTTP(w, r)
			if w.Code != http.StatusOK && w.Code != http.StatusBadRequest {
				t.Fatalf("q %q section %q (%s): status %d\n%s", q, section, accept, w.Code, w.Body.String())
			}
			// The layout has no script; one in the page came from the query.
			if accept == "text/html" && strings.Contains(strings.ToLower(w.Body.String()), "<script") {
				t.Fatalf("q %q put a script into the page", q)
			}
		}
	})
}
