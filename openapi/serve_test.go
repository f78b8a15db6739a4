package openapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestPublishedServesGzipOrIdentity(t *testing.T) {
	t.Parallel()
	doc := bytes.Repeat([]byte(`{"openapi":"3.1.0","paths":{}}`), 100)
	var p Published
	if rec := get(t, &p, ""); rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("before Set: status %d", rec.Code)
	}
	p.Set(doc)
	if got, err := p.Bytes(); err != nil || !bytes.Equal(got, doc) {
		t.Fatalf("Bytes: %v, same=%v", err, bytes.Equal(got, doc))
	}
	for _, tc := range []struct {
		name, accept string
		gzipped      bool
	}{
		{"none", "", false},
		{"gzip", "gzip, deflate, br", true},
		{"star", "*", true},
		{"refused", "gzip;q=0, br", false},
		{"refused over star", "*, gzip;q=0", false},
		{"other", "br", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := get(t, &p, tc.accept)
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("Vary") != "Accept-Encoding" {
				t.Fatalf("status %d, headers %v", rec.Code, rec.Header())
			}
			body := rec.Body.Bytes()
			if got := rec.Header().Get("Content-Encoding") == "gzip"; got != tc.gzipped {
				t.Fatalf("gzipped %v, want %v", got, tc.gzipped)
			}
			if tc.gzipped {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(body, doc) {
				t.Errorf("body differs from the document set")
			}
		})
	}
}

func get(t *testing.T, h http.Handler, acceptEncoding string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/openapi.json", nil)
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}
