package content

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestServeBodyHeaders(t *testing.T) {
	modified := time.Date(2026, 10, 1, 9, 30, 0, 0, time.UTC)
	big, err := NewBody(http.StatusOK, TypeMarkdown, []byte(strings.Repeat("# Title\n\nSome prose. ", 100)), modified,
		http.Header{"x-markdown-tokens": {"42"}})
	if err != nil {
		t.Fatal(err)
	}
	small, err := NewBody(http.StatusNotFound, TypeMarkdown, []byte("# Not found\n"), time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		body       *Body
		method     string
		reqHeader  http.Header
		earlier    http.Header // set on the response before ServeBody
		wantStatus int
		want       map[string]string // "" means absent
	}{
		{"identity", big, "GET", nil, nil, 200, map[string]string{
			"Content-Type": TypeMarkdown, "Vary": "Accept, Accept-Encoding", "Content-Encoding": "",
			"Last-Modified": "Thu, 01 Oct 2026 09:30:00 GMT", "X-Markdown-Tokens": "42", "Cache-Control": CacheControl,
			"Content-Length": "2100"}},
		{"brotli", big, "GET", http.Header{"Accept-Encoding": {"gzip, br"}}, nil, 200, map[string]string{
			"Content-Encoding": "br", "Vary": "Accept, Accept-Encoding"}},
		{"gzip only", big, "GET", http.Header{"Accept-Encoding": {"gzip"}}, nil, 200, map[string]string{"Content-Encoding": "gzip"}},
		{"not modified", big, "GET", http.Header{"If-None-Match": {big.ETag()}}, nil, 304, map[string]string{
			"Content-Type": "", "Content-Length": "", "Content-Encoding": "", "ETag": big.ETag(), "Vary": "Accept, Accept-Encoding"}},
		{"not modified since", big, "GET", http.Header{"If-Modified-Since": {"Thu, 01 Oct 2026 09:30:00 GMT"}}, nil, 304, nil},
		{"modified since", big, "GET", http.Header{"If-Modified-Since": {"Thu, 01 Oct 2026 09:29:59 GMT"}}, nil, 200, nil},
		{"earlier Vary merged", big, "GET", nil, http.Header{"Vary": {"Origin, accept"}}, 200, map[string]string{
			"Vary": "Origin, accept, Accept-Encoding"}},
		{"error body has no validators", small, "GET", nil, nil, 404, map[string]string{
			"ETag": "", "Last-Modified": "", "Vary": "Accept", "Content-Length": "12"}},
		{"HEAD", big, "HEAD", nil, nil, 200, map[string]string{"Content-Length": "2100"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "/x.md", nil)
			for k, vs := range tc.reqHeader {
				r.Header[k] = vs
			}
			w := httptest.NewRecorder()
			for k, vs := range tc.earlier {
				w.Header()[k] = vs
			}
			ServeBody(w, r, tc.body)
			if w.Code != tc.wantStatus {
				t.Fatalf("status %d, want %d", w.Code, tc.wantStatus)
			}
			for k, want := range tc.want {
				if got := w.Header().Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if (tc.method == "HEAD" || w.Code == 304) && w.Body.Len() != 0 {
				t.Errorf("%d body bytes for %s %d", w.Body.Len(), tc.method, w.Code)
			}
		})
	}
	// Serving must not change the body's shared header values.
	w := httptest.NewRecorder()
	w.Header().Set("Vary", "Origin")
	ServeBody(w, httptest.NewRequest("GET", "/x.md", nil), big)
	w = httptest.NewRecorder()
	ServeBody(w, httptest.NewRequest("GET", "/x.md", nil), big)
	if got := w.Header().Get("Vary"); got != "Accept, Accept-Encoding" {
		t.Fatalf("Vary after an earlier merge = %q", got)
	}
}
