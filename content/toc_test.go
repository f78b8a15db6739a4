package content

import (
	"reflect"
	"testing"

	"github.com/yuin/goldmark/text"
)

func TestTableOfContents(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []tocEntry
	}{
		{"two h2 are not enough", "## One\n\n## Two\n", nil},
		{"three h2 with h3 under them",
			"# Title\n\n## One\n\n### One a\n\n### One b\n\n## Two\n\n#### Deep\n\n## Three\n",
			[]tocEntry{{ID: "one", Text: "One", Children: []tocEntry{{ID: "one-a", Text: "One a"}, {ID: "one-b", Text: "One b"}}},
				{ID: "two", Text: "Two"}, {ID: "three", Text: "Three"}}},
		{"h3 before the first h2 left out", "### Lead\n\n## A\n\n## B\n\n## C\n",
			[]tocEntry{{ID: "a", Text: "A"}, {ID: "b", Text: "B"}, {ID: "c", Text: "C"}}},
		{"markup dropped from the text, ids as goldmark makes them (ASCII only)",
			"## The `search` *tool*\n\n## Each person's own accounts\n\n## Gesamtübersicht — ünïcode\n",
			[]tocEntry{{ID: "the-search-tool", Text: "The search tool"}, {ID: "each-persons-own-accounts", Text: "Each person's own accounts"},
				{ID: "gesamtbersicht--ncode", Text: "Gesamtübersicht — ünïcode"}}},
		{"repeated headings get distinct ids", "## Example\n\n## Example\n\n## Example\n",
			[]tocEntry{{ID: "example", Text: "Example"}, {ID: "example-1", Text: "Example"}, {ID: "example-2", Text: "Example"}}},
		{"headings inside a list or quote are not sections", "> ## Quoted\n\n- ## Listed\n\n## A\n\n## B\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(tc.src)
			got := tableOfContents(markdown.Parser().Parse(text.NewReader(src)), src)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("tableOfContents =\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
}
