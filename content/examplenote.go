package content

import (
	"bytes"
	"html"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// notRunMark is how a page marks a shell example the docs tests do not run
// (internal/docexamples): "```sh not-run: <reason>".
var notRunMark = []byte(" not-run:")

// exampleNotes renders fenced code as goldmark does, with a line above an
// example marked not-run saying why the docs tests do not run it: the
// reason is part of the page, not only of its source.
type exampleNotes struct{ code renderer.NodeRendererFunc }

func newExampleNotes() renderer.NodeRenderer {
	n := &exampleNotes{}
	gmhtml.NewRenderer().RegisterFuncs(registerFunc(func(k ast.NodeKind, f renderer.NodeRendererFunc) {
		if k == ast.KindFencedCodeBlock {
			n.code = f
		}
	}))
	return n
}

type registerFunc func(ast.NodeKind, renderer.NodeRendererFunc)

func (r registerFunc) Register(k ast.NodeKind, f renderer.NodeRendererFunc) { r(k, f) }

func (n *exampleNotes) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, n.render)
}

func (n *exampleNotes) render(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if fc := node.(*ast.FencedCodeBlock); entering && fc.Info != nil {
		if _, reason, ok := bytes.Cut(fc.Info.Segment.Value(source), notRunMark); ok {
			w.WriteString(`<p class="example-note">Not run by the docs tests: `)
			w.WriteString(html.EscapeString(string(bytes.TrimSpace(reason))))
			w.WriteString("</p>\n")
		}
	}
	return n.code(w, source, node, entering)
}
