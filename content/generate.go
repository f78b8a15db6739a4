package content

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"
)

// sitemapNS is the sitemaps.org namespace.
const sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"

type urlset struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

// Sitemap renders the sitemaps.org XML sitemap of t: one entry per page, the
// canonical HTML URL (the markdown rendition is its alternate, advertised by
// the page's Link header and listed in llms.txt), lastmod from the page's
// updated/date front matter or file mtime, omitted when unknown.
func Sitemap(t *Tree) ([]byte, time.Time, error) {
	set := urlset{NS: sitemapNS}
	var newest time.Time
	for _, p := range t.pages {
		u := sitemapURL{Loc: t.URL(p.Path)}
		if lm := p.LastModified(); !lm.IsZero() {
			u.LastMod = lm.UTC().Format("2006-01-02")
			if lm.After(newest) {
				newest = lm
			}
		}
		set.URLs = append(set.URLs, u)
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(set); err != nil {
		return nil, time.Time{}, fmt.Errorf("content: sitemap: %w", err)
	}
	buf.WriteString("\n")
	return buf.Bytes(), newest, nil
}

// Robots renders robots.txt: everything allowed but the search results page,
// the tree's content usage signal, and the sitemap's absolute URL.
func Robots(t *Tree) []byte {
	var disallow string
	if sp := t.searchPath(); sp != "" {
		disallow = "Disallow: " + sp + "\n" // results pages: thin, endless, not worth a crawl
	}
	return []byte("User-agent: *\nContent-Signal: " + t.opts.Signal.String() + "\nAllow: /\n" + disallow + "\nSitemap: " + t.URL("/sitemap.xml") + "\n")
}

// FullCorpus renders every page in reading order in one markdown document:
// a heading per page with its URL, then the page's body with its headings
// moved one level down so the document keeps one H1.
func FullCorpus(t *Tree, title, summary string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	if summary != "" {
		fmt.Fprintf(&b, "> %s\n\n", summary)
	}
	for _, p := range t.pages {
		fmt.Fprintf(&b, "## %s\n\nURL: %s\nMarkdown: %s\n", p.Title, t.URL(p.Path), t.URL(p.MarkdownPath()))
		if p.Description != "" {
			fmt.Fprintf(&b, "Summary: %s\n", p.Description)
		}
		b.WriteString("\n")
		b.WriteString(demoteHeadings(p.Body))
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// demoteHeadings adds one # to every ATX heading outside code fences.
func demoteHeadings(md string) string {
	lines := strings.Split(md, "\n")
	fence := ""
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case strings.HasPrefix(l, "#") && strings.TrimLeft(l, "#") != l && len(l)-len(strings.TrimLeft(l, "#")) < 6:
			if rest := strings.TrimLeft(l, "#"); rest == "" || rest[0] == ' ' {
				lines[i] = "#" + l
			}
		}
	}
	return strings.Join(lines, "\n")
}

// LLMSLine renders one llms.txt link line: "- [Title](url): description".
func LLMSLine(title, url, description string) string {
	line := "- [" + escapeLinkText(title) + "](" + url + ")"
	if description = strings.Join(strings.Fields(description), " "); description != "" {
		line += ": " + description
	}
	return line + "\n"
}
