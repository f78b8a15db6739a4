package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestConditionalAndHead(t *testing.T) {
	h := newHandler(t, "")
	r := get(t, h, "GET", "/about.md")
	full := body(t, r)
	etag, lm := r.Header.Get("ETag"), r.Header.Get("Last-Modified")
	if !strings.HasPrefix(etag, `"`) || lm == "" {
		t.Fatalf("ETag %q Last-Modified %q", etag, lm)
	}
	tests := []struct {
		name   string
		header []string
		want   int
	}{
		{"matching etag", []string{"If-None-Match", etag}, 304},
		{"weak form matches", []string{"If-None-Match", "W/" + etag}, 304},
		{"list with match", []string{"If-None-Match", `"x", ` + etag}, 304},
		{"star", []string{"If-None-Match", "*"}, 304},
		{"other etag", []string{"If-None-Match", `"nope"`}, 200},
		{"if-modified-since", []string{"If-Modified-Since", lm}, 304},
		{"older if-modified-since", []string{"If-Modified-Since", "Mon, 02 Jan 2006 15:04:05 GMT"}, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := get(t, h, "GET", "/about.md", tc.header...)
			b := body(t, r)
			if r.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", r.StatusCode, tc.want)
			}
			if tc.want == 304 && b != "" {
				t.Error("304 with a body")
			}
		})
	}
	hr := get(t, h, "HEAD", "/about.md")
	if b := body(t, hr); hr.StatusCode != 200 || b != "" || hr.Header.Get("Content-Length") != itoa(len(full)) {
		t.Errorf("HEAD: %d, body %d bytes, Content-Length %s want %d", hr.StatusCode, len(b), hr.Header.Get("Content-Length"), len(full))
	}
	if r := get(t, h, "POST", "/about.md"); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", r.StatusCode)
	}
}

func TestEncodings(t *testing.T) {
	h := newHandler(t, "")
	plain := body(t, get(t, h, "GET", "/llms-full.txt"))
	tests := []struct {
		accept, want string
	}{
		{"gzip", "gzip"},
		{"br", "br"},
		{"gzip, deflate, br", "br"},
		{"br;q=0.5, gzip", "gzip"},
		{"br;q=0, gzip;q=0", ""},
		{"identity", ""},
		{"", ""},
		{"*", "br"},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			r := get(t, h, "GET", "/llms-full.txt", "Accept-Encoding", tc.accept)
			raw := body(t, r)
			if got := r.Header.Get("Content-Encoding"); got != tc.want {
				t.Fatalf("Content-Encoding %q, want %q", got, tc.want)
			}
			if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
				t.Errorf("Vary %q", r.Header.Get("Vary"))
			}
			var rd io.Reader = strings.NewReader(raw)
			switch tc.want {
			case "gzip":
				zr, err := gzip.NewReader(rd)
				if err != nil {
					t.Fatal(err)
				}
				rd = zr
			case "br":
				rd = brotli.NewReader(rd)
			}
			got, err := io.ReadAll(rd)
			if err != nil || !bytes.Equal(got, []byte(plain)) {
				t.Fatalf("decoded body differs (err %v, %d vs %d bytes)", err, len(got), len(plain))
			}
		})
	}
}

func TestAcceptMarkdown(t *testing.T) {
	h := newHandler(t, "")
	md := body(t, get(t, h, "GET", "/about.md"))
	tests := []struct {
		accept, wantType string
	}{
		{"text/markdown", "text/markdown"},
		{"text/markdown, text/html;q=0.9", "text/markdown"},
		{"text/html,application/xhtml+xml,*/*;q=0.8", "text/html"},
		{"*/*", "text/html"},
		{"", "text/html"},
	}
	for _, tc := range tests {
		r := get(t, h, "GET", "/about", "Accept", tc.accept)
		b := body(t, r)
		if !strings.HasPrefix(r.Header.Get("Content-Type"), tc.wantType) || !strings.Contains(r.Header.Get("Vary"), "Accept") {
			t.Errorf("Accept %q: %s, Vary %q", tc.accept, r.Header.Get("Content-Type"), r.Header.Get("Vary"))
		}
		if tc.wantType == "text/markdown" && b != md {
			t.Errorf("Accept %q: markdown differs from /about.md", tc.accept)
		}
	}
	links := strings.Join(get(t, h, "GET", "/about").Header.Values("Link"), ", ")
	for _, want := range []string{`</about.md>; rel="alternate"; type="text/markdown"`, "/llms.txt", "/llms-full.txt", "/.well-known/mcp/server-card.json", "/.well-known/agent-skills/index.json"} {
		if !strings.Contains(links, want) {
			t.Errorf("Link lacks %s: %s", want, links)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
