package content

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown is the one goldmark configuration: GitHub Flavored Markdown
// (tables, strikethrough, autolinks, task lists) and heading ids. Raw HTML in
// the source is not passed through, so a page cannot inject script.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(newExampleNotes(), 100))),
)

// HTML renders markdown from anywhere (a daily brief on the console) with
// the same configuration as pages: raw HTML in it is dropped and links to
// javascript:, vbscript:, file: or data: are left out, so the result is safe
// to put in a page.
func HTML(src []byte) ([]byte, error) {
	html, _, err := renderMarkdown(src)
	return html, err
}

// renderMarkdown returns the HTML fragment and plain text of a markdown body.
func renderMarkdown(src []byte) (html []byte, plain string, err error) {
	r, err := renderDocument(src)
	return r.html, r.text, err
}

// rendered is a markdown body as HTML, as plain text and its headings.
type rendered struct {
	html []byte
	text string
	toc  []tocEntry
}

// renderDocument parses src once and renders everything read from it.
func renderDocument(src []byte) (rendered, error) {
	doc := markdown.Parser().Parse(text.NewReader(src))
	var buf bytes.Buffer
	if err := markdown.Renderer().Render(&buf, src, doc); err != nil {
		return rendered{}, fmt.Errorf("render markdown: %w", err)
	}
	return rendered{html: buf.Bytes(), text: plainText(doc, src), toc: tableOfContents(doc, src)}, nil
}

// documentText returns the plain text of a markdown body without rendering
// its HTML.
func documentText(src []byte) string {
	return plainText(markdown.Parser().Parse(text.NewReader(src)), src)
}

// plainText collects the text of a document, one line per block, for the
// search index and snippets (markup, link targets and code fences dropped
// markers, code content kept).
func plainText(doc ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Text:
			if entering {
				b.Write(n.Segment.Value(src))
				if n.SoftLineBreak() || n.HardLineBreak() {
					b.WriteByte(' ')
				}
			}
		case *ast.String:
			if entering {
				b.Write(n.Value)
			}
		case *ast.CodeBlock, *ast.FencedCodeBlock:
			if entering {
				lines := n.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					b.Write(seg.Value(src))
				}
			}
		case *ast.AutoLink:
			if entering {
				b.Write(n.Label(src))
			}
		default:
			if !entering && n.Type() == ast.TypeBlock && b.Len() > 0 {
				b.WriteByte('\n')
			}
		}
		return ast.WalkContinue, nil
	})
	return collapseBlankLines(b.String())
}

func collapseBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
