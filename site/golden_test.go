package site

import (
	"strings"
	"testing"
)

// TestGolden pins the wire formats generated from the fixture tree.
func TestGolden(t *testing.T) {
	h := newHandler(t, "testdata/tree")
	for _, tc := range []struct{ path, file string }{
		{"/llms.txt", "llms.txt"},
		{"/sitemap.xml", "sitemap.xml"},
		{"/.well-known/agent-skills/index.json", "skills.json"},
		{"/.well-known/mcp/server-card.json", "server-card.json"},
		{"/insights.md", "insights.md"},
		{"/.well-known/agent-skills/gtm-crm/SKILL.md", "gtm-crm.SKILL.md"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := get(t, h, "GET", tc.path)
			if r.StatusCode != 200 {
				t.Fatalf("status %d", r.StatusCode)
			}
			golden(t, tc.file, body(t, r))
		})
	}
	if r := get(t, h, "GET", "/who"); r.StatusCode != 301 || r.Header.Get("Location") != "/about" {
		t.Errorf("alias: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	if r := get(t, h, "GET", "/insights/draft.md"); r.StatusCode != 404 {
		t.Errorf("draft served: %d", r.StatusCode)
	}
	if b := body(t, get(t, h, "GET", "/services.md")); strings.Count(b, "# Services") != 1 {
		t.Errorf("duplicate H1:\n%s", b)
	}
}

func BenchmarkServeAboutMD(b *testing.B) {
	h := newHandler(b, "")
	b.ReportAllocs()
	for b.Loop() {
		if r := get(b, h, "GET", "/about.md", "Accept-Encoding", "br, gzip"); r.StatusCode != 200 {
			b.Fatal(r.StatusCode)
		}
	}
}

func BenchmarkServeLLMSFull(b *testing.B) {
	h := newHandler(b, "")
	b.ReportAllocs()
	for b.Loop() {
		if r := get(b, h, "GET", "/llms-full.txt", "Accept-Encoding", "br, gzip"); r.StatusCode != 200 {
			b.Fatal(r.StatusCode)
		}
	}
}
