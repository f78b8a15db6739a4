package webfetch

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"
)

// noise are elements that carry no page content for a reader: scripts,
// styles, navigation, page chrome and embedded frames. Forms stay: some
// sites wrap their whole page in one.
var noise = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Footer: true, atom.Iframe: true, atom.Svg: true,
	atom.Button: true,
}

// decode turns body into UTF-8 text using the charset the server declared,
// else (for HTML) a <meta> declaration or a BOM, else UTF-8.
func decode(body []byte, mediaType string, params map[string]string) string {
	ct := mediaType
	if cs := params["charset"]; cs != "" {
		ct += "; charset=" + cs
	}
	var text []byte
	if enc, name, _ := charset.DetermineEncoding(body, ct); name != "utf-8" && enc != nil {
		if b, err := enc.NewDecoder().Bytes(body); err == nil {
			text = b
		}
	}
	if text == nil {
		text = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	}
	if !utf8.Valid(text) {
		// A cut in the middle of a rune (truncation) or a lying charset.
		return strings.ToValidUTF8(string(text), "")
	}
	return string(text)
}

// render converts decoded text of the given media type to a title and markdown.
func render(mediaType, text string, base *url.URL) (string, string, error) {
	switch mediaType {
	case "text/html", "application/xhtml+xml":
		return htmlToMarkdown(text, base)
	case "text/markdown":
		return markdownTitle(text), strings.TrimSpace(text), nil
	default:
		return "", strings.TrimSpace(text), nil
	}
}

func htmlToMarkdown(text string, base *url.URL) (string, string, error) {
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return "", "", fmt.Errorf("parse html: %w", err)
	}
	title := textOf(find(doc, atom.Title))
	removeNoise(doc)
	if title == "" {
		title = textOf(find(doc, atom.H1))
	}
	root := find(doc, atom.Main)
	if root == nil {
		root = find(doc, atom.Article)
	}
	if root == nil {
		root = find(doc, atom.Body)
	}
	if root == nil {
		root = doc
	}
	md, err := htmltomarkdown.ConvertNode(root, converter.WithDomain(base.Scheme+"://"+base.Host))
	if err != nil {
		return "", "", fmt.Errorf("convert html to markdown: %w", err)
	}
	return title, strings.TrimSpace(string(md)), nil
}

// removeNoise deletes noise elements and anything marked as navigation or hidden.
func removeNoise(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && (noise[c.DataAtom] || isChrome(c)) {
			n.RemoveChild(c)
		} else {
			removeNoise(c)
		}
		c = next
	}
}

func isChrome(n *html.Node) bool {
	for _, a := range n.Attr {
		switch {
		case a.Key == "role" && (a.Val == "navigation" || a.Val == "banner" || a.Val == "contentinfo"):
			return true
		case a.Key == "hidden", a.Key == "aria-hidden" && a.Val == "true":
			return true
		}
	}
	return false
}

// find returns the first element of the given kind, depth first.
func find(n *html.Node, a atom.Atom) *html.Node {
	if n.Type == html.ElementNode && n.DataAtom == a {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := find(c, a); f != nil {
			return f
		}
	}
	return nil
}

// textOf returns n's text with whitespace collapsed.
func textOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// markdownTitle returns the first ATX level-one heading of a markdown text.
func markdownTitle(text string) string {
	for line := range strings.Lines(text) {
		if t, ok := strings.CutPrefix(strings.TrimSpace(line), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}
