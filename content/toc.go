package content

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// tocEntry is an h2 of a page and the h3s under it, linked by their ids.
type tocEntry struct {
	ID, Text string
	Children []tocEntry
}

// tocMinH2 is how many h2 headings a page needs before it lists them: a
// page of two sections is read faster than its table of contents.
const tocMinH2 = 3

// tableOfContents lists the h2 and h3 headings of a parsed document by the
// ids goldmark gave them (parser.WithAutoHeadingID), or nil when it has
// fewer than tocMinH2 h2 headings. An h3 before the first h2, or a heading
// without an id, is left out: there is nothing to hang or link it to.
func tableOfContents(doc ast.Node, src []byte) []tocEntry {
	var out []tocEntry
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || (h.Level != 2 && h.Level != 3) {
			continue
		}
		id, ok := h.AttributeString("id")
		idb, isBytes := id.([]byte)
		if !ok || !isBytes || len(idb) == 0 {
			continue
		}
		e := tocEntry{ID: string(idb), Text: headingText(h, src)}
		switch {
		case h.Level == 2:
			out = append(out, e)
		case len(out) > 0:
			out[len(out)-1].Children = append(out[len(out)-1].Children, e)
		}
	}
	if len(out) < tocMinH2 {
		return nil
	}
	return out
}

// headingText is a heading's text without its markup ("`code` and *em*"
// reads "code and em").
func headingText(h ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(h, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			if n.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil // dropped when rendered too
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}
