package content

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// renderPages builds each page's text, and its markdown and HTML bodies,
// which are made the first time they are asked for: a tree holds the
// renditions clients have read, not every page twice more.
func (t *Tree) renderPages() error {
	nav := t.nav()
	for _, p := range t.pages {
		htmlSrc := p.Body
		if list, _ := p.Meta.Bool("list", true); p.SectionIndex && list {
			p.sectionList = t.sectionList(p, true)
			htmlSrc += t.sectionList(p, false)
		}
		p.Text = documentText([]byte(htmlSrc))
		md := t.newLazyBody(http.StatusOK, TypeMarkdown, p.LastModified(), nil, func() ([]byte, error) { return p.Markdown(), nil })
		hb := t.newLazyBody(http.StatusOK, TypeHTML, p.LastModified(), t.pageLinks(p), func() ([]byte, error) {
			return t.pageHTML(p, htmlSrc, nav)
		})
		t.routes[p.Path] = &route{body: hb, markdown: md}
		t.routes[p.MarkdownPath()] = &route{body: md}
	}
	return nil
}

// pageHTML renders a page's HTML: htmlSrc (its body and section list) in
// the layout.
func (t *Tree) pageHTML(p *Page, htmlSrc string, nav []navLink) ([]byte, error) {
	r, err := renderDocument([]byte(htmlSrc))
	if err != nil {
		return nil, fmt.Errorf("content: %s: %w", p.File, err)
	}
	d := layoutData{SiteName: t.siteName, Title: p.Title, Description: p.Description, Canonical: t.URL(p.Path),
		MarkdownPath: p.MarkdownPath(), IsHome: p.Path == "/", Nav: navFor(nav, p.Path),
		FooterLinks: t.opts.FooterLinks, Content: template.HTML(r.html), SearchPath: t.searchPath()}
	if t.opts.TableOfContents {
		d.TOC = r.toc
	}
	if !p.Date.IsZero() && p.Depth() > 1 {
		d.Date = &p.Date
	}
	return renderLayout(d)
}

// sectionList renders the direct children of a section index as a markdown
// list, linking .md renditions (for agents) or HTML pages (for people).
func (t *Tree) sectionList(idx *Page, markdown bool) string {
	var b strings.Builder
	for _, c := range t.pages {
		if c == idx || c.Parent() != idx.Path {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("\n## In this section\n\n")
		}
		target := c.Path
		if markdown {
			target = c.MarkdownPath()
		}
		fmt.Fprintf(&b, "- [%s](%s)", escapeLinkText(c.Title), target)
		if c.Description != "" {
			b.WriteString(": " + c.Description)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// pageLinks are the Link headers of an HTML page.
func (t *Tree) pageLinks(p *Page) http.Header {
	h := http.Header{}
	h.Add("Link", "<"+p.MarkdownPath()+`>; rel="alternate"; type="text/markdown"`)
	for _, l := range t.opts.PageLinks {
		h.Add("Link", l)
	}
	return h
}

// markdownHeader carries a token estimate.
func markdownHeader(md []byte) http.Header {
	h := http.Header{}
	h.Set("X-Markdown-Tokens", strconv.Itoa(tokenEstimate(md)))
	return h
}

// newBody is NewBody with the tree's usage signal: every response of a tree
// states its usage terms, not only the markdown ones, since crawlers read
// them on the sitemap and skills index too.
func (t *Tree) newBody(status int, contentType string, data []byte, lastModified time.Time, header http.Header) (*Body, error) {
	return NewBody(status, contentType, data, lastModified, t.signalled(header))
}

// newLazyBody is newLazyBody with the tree's usage signal (see newBody).
func (t *Tree) newLazyBody(status int, contentType string, lastModified time.Time, header http.Header, build func() ([]byte, error)) *Body {
	return newLazyBody(status, contentType, lastModified, t.signalled(header), build)
}

// signalled is a copy of header (the caller's map may be shared) with the
// tree's Content-Signal.
func (t *Tree) signalled(header http.Header) http.Header {
	header = header.Clone()
	if header == nil {
		header = http.Header{}
	}
	header.Set("Content-Signal", t.opts.Signal.String())
	return header
}

// addResource precomputes a generated body.
func (t *Tree) addResource(r Resource) error {
	if _, ok := CleanPath(r.Path); !ok || !strings.HasPrefix(r.Path, "/") {
		return fmt.Errorf("content: resource path %q is not clean", r.Path)
	}
	if _, taken := t.routes[r.Path]; taken {
		return fmt.Errorf("content: resource %s collides with a page or another resource", r.Path)
	}
	if r.Build != nil {
		t.routes[r.Path] = &route{body: t.newLazyBody(http.StatusOK, r.ContentType, r.LastModified, r.Header, r.Build)}
		return nil
	}
	h := r.Header
	if r.ContentType == TypeMarkdown {
		h = markdownHeader(r.Data)
		for k, v := range r.Header {
			h[k] = v
		}
	}
	b, err := t.newBody(http.StatusOK, r.ContentType, r.Data, r.LastModified, h)
	if err != nil {
		return err
	}
	t.routes[r.Path] = &route{body: b}
	return nil
}

// addBuiltins adds the stylesheet and the two 404 bodies.
func (t *Tree) addBuiltins() error {
	css, err := t.newBody(http.StatusOK, "text/css; charset=utf-8", stylesheet(), time.Time{}, nil)
	if err != nil {
		return err
	}
	t.routes[StylePath] = &route{body: css}
	md := []byte(notFoundMarkdown)
	if t.notFound[0], err = t.newBody(http.StatusNotFound, TypeMarkdown, md, time.Time{}, markdownHeader(md)); err != nil {
		return err
	}
	frag, _, err := renderMarkdown([]byte(notFoundMarkdown[strings.Index(notFoundMarkdown, "\n\n")+2:]))
	if err != nil {
		return err
	}
	html, err := renderLayout(layoutData{SiteName: t.siteName, Title: "Page not found", Nav: navFor(t.nav(), ""),
		FooterLinks: t.opts.FooterLinks, Content: template.HTML(frag), SearchPath: t.searchPath()})
	if err != nil {
		return err
	}
	t.notFound[1], err = t.newBody(http.StatusNotFound, TypeHTML, html, time.Time{}, nil)
	return err
}

// notFoundMarkdown is the 404 body: where to go next.
const notFoundMarkdown = `# Not found

There is no page at this address. These will help you find what you need:

- [/sitemap.xml](/sitemap.xml): every page of the site
- [/llms.txt](/llms.txt): the site map for agents, with a markdown URL for each page
- [/](/): the home page
`

func escapeLinkText(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
