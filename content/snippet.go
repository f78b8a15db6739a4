package content

import (
	"cmp"
	"html"
	"html/template"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search"
)

// snippetText is a snippet with its matches as byte offsets into text.
type snippetText struct {
	text  string
	marks [][2]int
}

// snippet is the window of the page's text holding the most matched terms;
// else the start of its description or text, with nothing marked.
func snippet(terms search.TermLocationMap, p *Page) snippetText {
	if s, ok := markSnippet(p.Text, terms); ok {
		return s
	}
	s := strings.Join(strings.Fields(cmpOr(p.Description, p.Text)), " ")
	if len(s) > snippetLength {
		s = s[:runeStart(s, snippetLength)] + "…"
	}
	return snippetText{text: s}
}

// snippetLead is how far before its first match a snippet starts.
const snippetLead = 40

// markSnippet cuts about snippetLength bytes of text around the matches in
// terms (byte offsets into text, as indexed): the window starting shortly
// before a match that holds the most matches, widened to word boundaries,
// its runs of white space made one space, with "…" where text was cut. The
// matches come back as byte offsets into the snippet, overlapping and
// touching ones merged, since a reader sees one marked word either way.
// Offsets come from bleve's term locations: the text is never searched
// again.
func markSnippet(text string, terms search.TermLocationMap) (snippetText, bool) {
	var spans [][2]int
	for _, locs := range terms {
		for _, l := range locs {
			if l.End <= l.Start || l.End > uint64(len(text)) {
				continue
			}
			start, end := int(l.Start), int(l.End)
			if utf8.RuneStart(text[start]) && (end == len(text) || utf8.RuneStart(text[end])) {
				spans = append(spans, [2]int{start, end})
			}
		}
	}
	if len(spans) == 0 {
		return snippetText{}, false
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(b[1], a[1])) })
	spans = mergeSpans(spans)
	best, most := 0, 0
	for i := range spans {
		n := 0
		for j := i; j < len(spans) && spans[j][1] <= spans[i][0]+snippetLength-snippetLead; j++ {
			n++
		}
		if n > most {
			best, most = i, n
		}
	}
	start := max(spans[best][0]-snippetLead, 0)
	if start > 0 {
		// Start after a space when one is near, else on a rune boundary.
		if sp := strings.IndexAny(text[start:spans[best][0]], " \n\t"); sp >= 0 {
			start += sp + 1
		} else {
			start = runeStart(text, start)
		}
	}
	end := min(max(start+snippetLength, spans[best][1]), len(text))
	if end < len(text) {
		if sp := strings.LastIndexAny(text[spans[best][1]:end], " \n\t"); sp >= 0 {
			end = spans[best][1] + sp
		} else {
			end = runeStart(text, end)
		}
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	lead := b.Len()
	// at[i] is where text[start+i] lands in the snippet; a run of white space
	// is written as one space only once text follows it.
	at := make([]int, end-start+1)
	space := false
	for i := start; i < end; {
		r, size := utf8.DecodeRuneInString(text[i:])
		at[i-start] = b.Len()
		if unicode.IsSpace(r) {
			space = true
			i += size
			continue
		}
		if space && b.Len() > lead {
			b.WriteByte(' ')
		}
		space = false
		at[i-start] = b.Len()
		b.WriteString(text[i : i+size])
		i += size
	}
	at[end-start] = b.Len()
	var marks [][2]int
	for _, sp := range spans {
		if sp[0] < start || sp[1] > end {
			continue // outside the window
		}
		if m := [2]int{at[sp[0]-start], at[sp[1]-start]}; m[0] < m[1] {
			marks = append(marks, m) // not white space alone
		}
	}
	if end < len(text) {
		b.WriteString("…")
	}
	return snippetText{text: b.String(), marks: marks}, true
}

// mergeSpans joins spans (sorted by start) that overlap or touch.
func mergeSpans(spans [][2]int) [][2]int {
	out := spans[:1]
	for _, sp := range spans[1:] {
		if last := &out[len(out)-1]; sp[0] <= last[1] {
			last[1] = max(last[1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// utf16Spans converts byte offsets into s to UTF-16 code unit offsets.
func utf16Spans(s string, spans [][2]int) [][2]int {
	out := make([][2]int, 0, len(spans))
	units, at := 0, 0 // UTF-16 units of s[:at]
	count := func(to int) int {
		for _, r := range s[at:to] {
			units += utf16Len(r)
		}
		at = to
		return units
	}
	for _, sp := range spans {
		out = append(out, [2]int{count(sp[0]), count(sp[1])})
	}
	return out
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// markHTML escapes s and wraps the marked byte ranges in <mark>.
func markHTML(s string, marks [][2]int) template.HTML {
	return template.HTML(markWith(s, marks, "<mark>", "</mark>", html.EscapeString))
}

// markMarkdown makes the marked byte ranges of s bold.
func markMarkdown(s string, marks [][2]int) string {
	return markWith(s, marks, "**", "**", func(s string) string { return s })
}

func markWith(s string, marks [][2]int, open, close string, escape func(string) string) string {
	var b strings.Builder
	at := 0
	for _, m := range marks {
		if m[0] < at || m[1] > len(s) || m[0] >= m[1] {
			continue
		}
		b.WriteString(escape(s[at:m[0]]))
		b.WriteString(open + escape(s[m[0]:m[1]]) + close)
		at = m[1]
	}
	b.WriteString(escape(s[at:]))
	return b.String()
}

// runeStart moves i back to the start of the rune it falls in.
func runeStart(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
