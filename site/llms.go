package site

import (
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/content"
)

// facts are the home page front matter fields llms.txt states up front, with
// their labels, in order. Content authors curate them; nothing is written here.
var facts = []struct{ key, label string }{
	{"principal", "Principal"},
	{"positioning", "Positioning"},
	{"icp", "Ideal customer"},
	{"methodology", "Methodology"},
	{"entry_point", "Entry point"},
}

// llmsIndex renders /llms.txt (llmstxt.org format) from the tree:
//
//   - H1: the site name; blockquote: the home page description;
//   - the curated facts of the home page front matter (see facts), then the
//     body of "_llms.md" when the tree has one;
//   - one H2 per section in reading order (title: the section index page's
//     title, else the section name), listing every page's absolute markdown
//     URL with its description, and the section's distinct "prices";
//   - "## Optional": the full corpus, sitemap, skills, server card, MCP.
func llmsIndex(t *content.Tree) []byte {
	var b strings.Builder
	b.WriteString("# " + t.SiteName() + "\n\n")
	if d := homeDescription(t); d != "" {
		b.WriteString("> " + d + "\n\n")
	}
	if home, ok := t.Page("/"); ok {
		n := 0
		for _, f := range facts {
			if v := home.Meta.String(f.key); v != "" {
				b.WriteString("- " + f.label + ": " + v + "\n")
				n++
			}
		}
		if n > 0 {
			b.WriteString("\n")
		}
	}
	b.WriteString(usageTerms(t.Signal()) + " Every page is markdown at its URL plus .md, or with Accept: text/markdown.\n\n")
	if sp, ok := t.Special("_llms.md"); ok && strings.TrimSpace(sp.Body) != "" {
		b.WriteString(strings.TrimSpace(sp.Body) + "\n\n")
	}
	for _, g := range groups(t) {
		b.WriteString("## " + g.title + "\n\n")
		for _, p := range g.pages {
			b.WriteString(content.LLMSLine(p.Title, t.URL(p.MarkdownPath()), p.Description))
		}
		if len(g.prices) > 0 {
			b.WriteString("\nPrices:\n\n")
			for _, pr := range g.prices {
				b.WriteString("- " + pr + "\n")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("## Optional\n\n")
	b.WriteString(content.LLMSLine("Full corpus", t.URL(PathLLMSFull), "the whole site in one markdown document, for deep grounding"))
	b.WriteString(content.LLMSLine("Sitemap", t.URL(PathSitemap), "XML sitemap of every HTML page"))
	b.WriteString(content.LLMSLine("Agent skills", t.URL(PathSkills), "skills for agents: reading this site (public) and the tenant-bound gateway tools"))
	b.WriteString(content.LLMSLine("OpenAPI description", t.URL(PathOpenAPI), "OpenAPI 3.1 description of every read path of this site"))
	b.WriteString(content.LLMSLine("MCP server card", t.URL(PathServerCard), "the tenant-authenticated MCP endpoint and the public read-only one"))
	b.WriteString("\nA public read-only MCP server (streamable HTTP, POST only) answers at " + t.URL(PathMCP) + " with the tools search, get_page and list_pages.\n")
	return []byte(b.String())
}

// usageTerms states the site's content usage signal in a sentence.
func usageTerms(s content.Signal) string {
	if s.PermitsAll() {
		return "All content is free to use: Content-Signal " + s.String() + "."
	}
	return "Content-Signal " + s.String() + ": the content may not be used for " + orList(s.Withheld()) + "."
}

// orList joins items as "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

type group struct {
	title  string
	pages  []*content.Page
	prices []string
}

// groups splits the pages by section, in reading order.
func groups(t *content.Tree) []*group {
	var out []*group
	by := map[string]*group{}
	for _, p := range t.Pages() {
		key := p.Section
		g, ok := by[key]
		if !ok {
			g = &group{title: sectionTitle(key)}
			by[key] = g
			out = append(out, g)
		}
		if p.SectionIndex {
			g.title = p.Title
		}
		g.pages = append(g.pages, p)
		for _, pr := range p.Meta.List("prices") {
			if !slices.Contains(g.prices, pr) {
				g.prices = append(g.prices, pr)
			}
		}
	}
	return out
}

func sectionTitle(s string) string {
	if s == "" {
		return "Pages"
	}
	s = strings.ReplaceAll(s, "-", " ")
	return strings.ToUpper(s[:1]) + s[1:]
}
