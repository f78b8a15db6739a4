package content

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// TestBodyEncodingsRoundTrip makes bodies of many sizes one after another,
// as a tree load does, and decodes every compressed variant: compressors
// are reused between bodies, so state left over from one would corrupt the
// next.
func TestBodyEncodingsRoundTrip(t *testing.T) {
	for i, size := range []int{300, 5000, 300, 70000, 4999, 70001, 1 << 20, 2000, 5000} {
		var sb strings.Builder
		for n := 0; sb.Len() < size; n++ {
			fmt.Fprintf(&sb, "line %d of body %d, %x; ", n, i, n*n*2654435761)
		}
		data := []byte(sb.String()[:size])
		b, err := NewBody(http.StatusOK, TypeText, data, time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Encodings(); len(got) != 2 {
			t.Fatalf("body %d (%d bytes): encodings %v, want br and gzip", i, size, got)
		}
		for _, v := range b.variants() {
			var rd io.Reader = bytes.NewReader(v.data)
			if v.encoding == "gzip" {
				if rd, err = gzip.NewReader(rd); err != nil {
					t.Fatal(err)
				}
			} else {
				rd = brotli.NewReader(rd)
			}
			got, err := io.ReadAll(rd)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("body %d (%d bytes), %s: decoded %d bytes, err %v", i, size, v.encoding, len(got), err)
			}
		}
	}
}

// TestBodyCompressesOnFirstAsk: a body holds only its identity bytes until a
// client accepts a compressed encoding; then concurrent first requests all
// get the same variant, and it is kept.
func TestBodyCompressesOnFirstAsk(t *testing.T) {
	data := []byte(strings.Repeat("a body worth compressing; ", 100))
	b, err := NewBody(http.StatusOK, TypeMarkdown, data, time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	serve := func(accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/x.md", nil)
		if accept != "" {
			req.Header.Set("Accept-Encoding", accept)
		}
		w := httptest.NewRecorder()
		ServeBody(w, req, b)
		return w
	}
	if w := serve(""); w.Body.Len() != len(data) || w.Header().Get("Vary") != "Accept, Accept-Encoding" {
		t.Fatalf("identity: %d bytes, Vary %q", w.Body.Len(), w.Header().Get("Vary"))
	}
	if b.compressed != nil {
		t.Fatal("a client without Accept-Encoding made the body compress")
	}
	var wg sync.WaitGroup
	etags := make([]string, 8)
	for i := range etags {
		wg.Go(func() {
			w := serve("gzip, br")
			if w.Header().Get("Content-Encoding") != "br" {
				t.Errorf("Content-Encoding %q, want br", w.Header().Get("Content-Encoding"))
			}
			etags[i] = w.Header().Get("ETag")
		})
	}
	wg.Wait()
	for _, e := range etags {
		if e != etags[0] || e == b.ETag() {
			t.Fatalf("ETags of the br variant differ or equal identity's: %v", etags)
		}
	}
	// A fresh body answers a conditional request with a compressed variant's
	// ETag without having served that variant before.
	fresh, _ := NewBody(http.StatusOK, TypeMarkdown, data, time.Time{}, nil)
	req := httptest.NewRequest("GET", "/x.md", nil)
	req.Header.Set("If-None-Match", etags[0])
	w := httptest.NewRecorder()
	ServeBody(w, req, fresh)
	if w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match with the br ETag: %d", w.Code)
	}
	small, _ := NewBody(http.StatusOK, TypeMarkdown, []byte("tiny"), time.Time{}, nil)
	if small.Encodings() != nil || small.identity.header == nil {
		t.Error("a body under minCompress has compressed variants")
	}
}
