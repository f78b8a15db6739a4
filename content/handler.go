package content

import (
	"net/http"
)

// ServeHTTP serves the tree from memory: pages (HTML, or markdown when Accept
// prefers text/markdown), their ".md" renditions, generated resources,
// redirects for aliases and the 404 body for everything else. Only GET and
// HEAD are allowed.
func (t *Tree) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	key, ok := CleanPath(r.URL.EscapedPath())
	if ok && key == t.searchPath() && key != "" {
		t.serveSearch(w, r)
		return
	}
	rt := t.routes[key]
	if !ok || rt == nil {
		t.ServeNotFound(w, r)
		return
	}
	if rt.redirect != "" {
		http.Redirect(w, r, rt.redirect, http.StatusMovedPermanently)
		return
	}
	// Every body varies on Accept (ServeBody says so): HTML URLs negotiate
	// markdown, and caches in front of .md URLs must not mix them with the
	// HTML of the same page.
	b := rt.body
	if rt.markdown != nil {
		if prefersMarkdown(r.Header.Get("Accept")) {
			b = rt.markdown
		}
	}
	ServeBody(w, r, b)
}

// ServeNotFound writes the 404 body: markdown, or HTML when Accept ranks
// text/html above text/markdown (a browser) and the path is not a ".md" URL.
func (t *Tree) ServeNotFound(w http.ResponseWriter, r *http.Request) {
	b := t.notFound[0]
	if prefersHTML(r.Header.Get("Accept")) && !isMarkdownPath(r.URL.Path) {
		b = t.notFound[1]
	}
	ServeBody(w, r, b)
}

// GuardPath answers unsafe or malformed paths with the 404 body before they
// reach next (a ServeMux would otherwise redirect "/a/../b" to "/b").
func GuardPath(src *Source, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := CleanPath(r.URL.EscapedPath()); !ok {
			src.Tree().ServeNotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func isMarkdownPath(p string) bool { return len(p) > 3 && p[len(p)-3:] == ".md" }
