package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSeedEndpoints fetches every endpoint of seed 000's table.
func TestSeedEndpoints(t *testing.T) {
	h := newHandler(t, "")
	md := []string{"/index.md", "/about.md", "/services.md", "/resume.md", "/pricing.md", "/faq.md", "/how-i-work.md",
		"/portfolio.md", "/tools.md", "/brand.md", "/privacy.md", "/insights.md", "/contact.md", "/shipping.md",
		"/insights/why-gtm-initiatives-fail.md", "/insights/the-30-day-install-playbook.md", "/insights/why-we-dont-measure-mqls.md",
		"/llms.txt", "/llms-full.txt"}
	tests := []struct {
		path, mediaType string
	}{
		{"/sitemap.xml", "application/xml"},
		{"/.well-known/agent-skills/index.json", "application/json"},
		{"/.well-known/mcp/server-card.json", "application/json"},
		{"/public-mcp/server-card", "application/json"},
		{"/robots.txt", "text/plain"},
		{"/", "text/html"},
		{"/about", "text/html"},
		{"/insights/why-we-dont-measure-mqls", "text/html"},
	}
	for _, p := range md {
		tests = append(tests, struct{ path, mediaType string }{p, "text/markdown"})
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			r := get(t, h, "GET", tc.path)
			b := body(t, r)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("status %d, body %q", r.StatusCode, b)
			}
			if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, tc.mediaType) {
				t.Errorf("Content-Type %q, want %s", ct, tc.mediaType)
			}
			if r.Header.Get("ETag") == "" || r.Header.Get("Cache-Control") == "" {
				t.Errorf("missing ETag or Cache-Control: %v", r.Header)
			}
			if r.Header.Get("Content-Signal") != defaultSignal {
				t.Errorf("Content-Signal %q, want %q on every site response", r.Header.Get("Content-Signal"), defaultSignal)
			}
			switch tc.mediaType {
			case "text/markdown":
				if r.Header.Get("Content-Signal") != "search=yes, ai-train=yes, ai-input=yes" || r.Header.Get("X-Markdown-Tokens") == "" {
					t.Errorf("markdown headers missing: %v", r.Header)
				}
				if !strings.HasPrefix(b, "# ") {
					t.Errorf("markdown does not start with an H1: %.80q", b)
				}
				if strings.HasPrefix(b, "---") {
					t.Error("front matter leaked")
				}
			case "application/json":
				var v map[string]any
				if err := json.Unmarshal([]byte(b), &v); err != nil {
					t.Errorf("not a JSON object: %v", err)
				}
			case "text/html":
				if !slices.ContainsFunc(r.Header.Values("Link"), func(l string) bool { return strings.Contains(l, "/llms.txt") }) {
					t.Errorf("Link headers %v lack llms.txt", r.Header.Values("Link"))
				}
				if strings.Contains(b, "<script") {
					t.Error("HTML has script")
				}
			}
		})
	}
}

func TestUnknownPages404(t *testing.T) {
	h := newHandler(t, "")
	for _, p := range []string{"/nope.md", "/insights/nope.md", "/insights/nope", "/../etc/passwd", "/about/../../x", "/a%2Fb", "/a\\b", "/%00", "/" + strings.Repeat("a", 600)} {
		r := get(t, h, "GET", strings.ReplaceAll(p, "\\", "%5C"))
		b := body(t, r)
		if r.StatusCode != 404 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/markdown") {
			t.Errorf("%s: %d %s", p, r.StatusCode, r.Header.Get("Content-Type"))
		}
		for _, want := range []string{"/sitemap.xml", "/llms.txt", "(/)"} {
			if !strings.Contains(b, want) {
				t.Errorf("%s: 404 body lacks %s", p, want)
			}
		}
	}
	r := get(t, h, "GET", "/nope", "Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	if r.StatusCode != 404 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("browser 404: %d %s", r.StatusCode, r.Header.Get("Content-Type"))
	}
}

var llmsLink = regexp.MustCompile(`\]\((https?://[^)\s]+)\)`)

// TestLLMSLinksResolve follows every link of llms.txt and checks every page's
// markdown URL is listed and every page's HTML URL is in the sitemap.
func TestLLMSLinksResolve(t *testing.T) {
	h := newHandler(t, "")
	llms := body(t, get(t, h, "GET", "/llms.txt"))
	links := llmsLink.FindAllStringSubmatch(llms, -1)
	if len(links) < 20 {
		t.Fatalf("only %d links in llms.txt", len(links))
	}
	var sm struct {
		XMLName xml.Name
		URLs    []struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal([]byte(body(t, get(t, h, "GET", "/sitemap.xml"))), &sm); err != nil {
		t.Fatal(err)
	}
	if sm.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" || sm.XMLName.Local != "urlset" {
		t.Fatalf("sitemap root %v", sm.XMLName)
	}
	inSitemap := map[string]bool{}
	for _, u := range sm.URLs {
		inSitemap[u.Loc] = true
		if u.LastMod == "" {
			t.Errorf("%s has no lastmod", u.Loc)
		}
	}
	mdLinks := 0
	for _, l := range links {
		path := strings.TrimPrefix(l[1], testSiteURL)
		if r := get(t, h, "GET", path); r.StatusCode != 200 {
			t.Errorf("llms.txt link %s: %d", l[1], r.StatusCode)
		}
		if strings.HasSuffix(path, ".md") {
			mdLinks++
			html := strings.TrimSuffix(strings.TrimSuffix(l[1], ".md"), "/index")
			if html == testSiteURL {
				html += "/"
			}
			if !inSitemap[html] {
				t.Errorf("%s: HTML URL %s not in sitemap", l[1], html)
			}
		}
	}
	if mdLinks != len(sm.URLs) {
		t.Errorf("llms.txt lists %d .md pages, sitemap %d pages", mdLinks, len(sm.URLs))
	}
}

func TestSkillsDigests(t *testing.T) {
	h := newHandler(t, "")
	var idx struct {
		Schema string `json:"$schema"`
		Skills []struct {
			Name, Type, Description, URL, Digest, Access string
			Auth                                         map[string]any
			Tools                                        []string
		}
	}
	if err := json.Unmarshal([]byte(body(t, get(t, h, "GET", "/.well-known/agent-skills/index.json"))), &idx); err != nil {
		t.Fatal(err)
	}
	if idx.Schema != "https://schemas.agentskills.io/discovery/0.2.0/schema.json" {
		t.Errorf("$schema %q", idx.Schema)
	}
	access := map[string]int{}
	for _, s := range idx.Skills {
		access[s.Access]++
		r := get(t, h, "GET", strings.TrimPrefix(s.URL, testSiteURL))
		b := body(t, r)
		sum := sha256.Sum256([]byte(b))
		if r.StatusCode != 200 || s.Digest != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("%s: status %d, digest %s does not match served bytes", s.Name, r.StatusCode, s.Digest)
		}
		if s.Type != "skill-md" || !strings.HasPrefix(b, "---\nname: "+s.Name+"\ndescription: ") || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/markdown") {
			t.Errorf("%s: type %q, SKILL.md starts %.60q", s.Name, s.Type, b)
		}
		if s.Access == "tenant" && (s.Auth["mcp"] != "https://gw.test/mcp" || len(s.Tools) == 0) {
			t.Errorf("%s: tenant skill without auth or tools: %+v", s.Name, s)
		}
	}
	if access["public"] < 1 || access["tenant"] != 2 {
		t.Errorf("access counts %v, want public ≥1 and one tenant skill per domain (2)", access)
	}
}

func TestServerCard(t *testing.T) {
	h := newHandler(t, "")
	a := body(t, get(t, h, "GET", "/.well-known/mcp/server-card.json"))
	if b := body(t, get(t, h, "GET", "/public-mcp/server-card")); a != b {
		t.Error("the two server card URLs differ")
	}
	var card struct {
		Schema, Name, Version, Description string
		Remotes                            []struct {
			Type, URL string
			Headers   []struct {
				Name                 string
				IsRequired, IsSecret bool
			}
		}
	}
	if err := json.Unmarshal([]byte(strings.Replace(a, `"$schema"`, `"schema"`, 1)), &card); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(card.Schema, "server-card") || card.Name != "io.gtmgate/site" || card.Version != "1.2.3" || len(card.Description) > 100 {
		t.Errorf("card %+v", card)
	}
	if len(card.Remotes) != 2 || card.Remotes[0].URL != "https://gw.test/mcp" || card.Remotes[1].URL != testSiteURL+"/public-mcp" {
		t.Fatalf("remotes %+v", card.Remotes)
	}
	if hd := card.Remotes[0].Headers; len(hd) != 1 || hd[0].Name != "Authorization" || !hd[0].IsRequired || !hd[0].IsSecret {
		t.Errorf("gateway headers %+v", hd)
	}
	if card.Remotes[0].Type != "streamable-http" || card.Remotes[1].Type != "streamable-http" {
		t.Errorf("remote types %+v", card.Remotes)
	}
}

func TestRobots(t *testing.T) {
	b := body(t, get(t, newHandler(t, ""), "GET", "/robots.txt"))
	for _, want := range []string{"User-agent: *\n", "Content-Signal: search=yes, ai-train=yes, ai-input=yes\n", "Allow: /\n", "Disallow: /search\n", "Sitemap: " + testSiteURL + "/sitemap.xml\n"} {
		if !strings.Contains(b, want) {
			t.Errorf("robots.txt lacks %q:\n%s", want, b)
		}
	}
}
