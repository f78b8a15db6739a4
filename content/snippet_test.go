package content

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search"
)

// at returns the locations of each word's occurrences in text, as the index
// reports them (byte offsets).
func at(text string, words ...string) search.TermLocationMap {
	m := search.TermLocationMap{}
	for _, w := range words {
		for i := 0; ; {
			j := strings.Index(text[i:], w)
			if j < 0 {
				break
			}
			m.AddLocation(w, &search.Location{Start: uint64(i + j), End: uint64(i + j + len(w))})
			i += j + len(w)
		}
	}
	return m
}

// bracketed shows a snippet's marks as [ and ].
func bracketed(s snippetText) string {
	return markWith(s.text, s.marks, "[", "]", func(s string) string { return s })
}

func TestMarkSnippet(t *testing.T) {
	long := strings.Repeat("filler words go here ", 20) // 420 bytes
	for _, tc := range []struct {
		name, text string
		terms      search.TermLocationMap
		want       string
		ok         bool
	}{
		{"no locations", "some text", nil, "", false},
		{"short text, whole", "Send the bearer token now.", at("Send the bearer token now.", "token"),
			"Send the bearer [token] now.", true},
		{"plain text, markup kept as text", `a <b> & "token" 'x'`, at(`a <b> & "token" 'x'`, "token", "<b>"),
			`a [<b>] & "[token]" 'x'`, true},
		{"cut on both sides at spaces", long + "the tenant token " + long, at(long+"the tenant token "+long, "tenant", "token"),
			"…words go here filler words go here the [tenant] [token] filler words go here filler words go here filler words go here filler words go here filler words go here filler words go here filler words go here…", true},
		{"window with the most matches wins", "token " + long + "tenant token tenant " + long,
			at("token "+long+"tenant token tenant "+long, "tenant", "token"),
			"…words go here filler words go here [tenant] [token] [tenant] filler words go here filler words go here filler words go here filler words go here filler words go here filler words go here filler words go…", true},
		{"multi-byte text cut on rune starts", strings.Repeat("é", 150) + "token" + strings.Repeat("ü", 150),
			at(strings.Repeat("é", 150)+"token"+strings.Repeat("ü", 150), "token"),
			"…" + strings.Repeat("é", 20) + "[token]" + strings.Repeat("ü", 77) + "…", true},
		{"non-ASCII words", "Die Gesamtübersicht — ünïcode ist da", at("Die Gesamtübersicht — ünïcode ist da", "Gesamtübersicht", "ünïcode"),
			"Die [Gesamtübersicht] — [ünïcode] ist da", true},
		{"white space runs collapsed, marks follow", "a\n\n  token\t\tb", at("a\n\n  token\t\tb", "token"), "a [token] b", true},
		{"locations past the text ignored", "short", search.TermLocationMap{"x": {{Start: 3, End: 99}}}, "", false},
		{"overlapping locations merged", "a tenants b", search.TermLocationMap{"tenant": {{Start: 2, End: 8}}, "tenants": {{Start: 2, End: 9}}},
			"a [tenants] b", true},
		{"partly overlapping locations merged", "a abcdef b", search.TermLocationMap{"x": {{Start: 2, End: 6}}, "y": {{Start: 4, End: 8}}},
			"a [abcdef] b", true},
		{"adjacent locations merged", "a abcdef b", search.TermLocationMap{"x": {{Start: 2, End: 5}}, "y": {{Start: 5, End: 8}}},
			"a [abcdef] b", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := markSnippet(tc.text, tc.terms)
			if bracketed(got) != tc.want || ok != tc.ok {
				t.Errorf("markSnippet = %q, %v\nwant          %q, %v", bracketed(got), ok, tc.want, tc.ok)
			}
		})
	}
}

func TestUTF16Spans(t *testing.T) {
	for _, tc := range []struct {
		name, s string
		marks   [][2]int // bytes
		want    [][2]int // UTF-16 code units
	}{
		{"ASCII", "the token", [][2]int{{4, 9}}, [][2]int{{4, 9}}},
		{"two-byte runes", "Gesamtübersicht — ünïcode", [][2]int{{0, 16}, {21, 30}}, [][2]int{{0, 15}, {18, 25}}},
		{"after an ellipsis", "…über token", [][2]int{{3, 8}, {9, 14}}, [][2]int{{1, 5}, {6, 11}}},
		{"astral runes count two", "😀 token 😀x", [][2]int{{5, 10}, {11, 15}}, [][2]int{{3, 8}, {9, 11}}},
		{"none", "text", nil, [][2]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := utf16Spans(tc.s, tc.marks)
			if !slices.Equal(got, tc.want) {
				t.Errorf("utf16Spans = %v, want %v", got, tc.want)
			}
			units := utf16.Encode([]rune(tc.s))
			for i, m := range got {
				if g, w := string(utf16.Decode(units[m[0]:m[1]])), tc.s[tc.marks[i][0]:tc.marks[i][1]]; g != w {
					t.Errorf("span %d: %q, want %q", i, g, w)
				}
			}
		})
	}
}

func TestMarkHTML(t *testing.T) {
	s := `a <b> & "ünï" x`
	if got, want := string(markHTML(s, [][2]int{{2, 5}, {9, 14}})), "a <mark>&lt;b&gt;</mark> &amp; &#34;<mark>ünï</mark>&#34; x"; got != want {
		t.Errorf("markHTML = %q, want %q", got, want)
	}
	if got, want := markMarkdown(s, [][2]int{{9, 14}}), `a <b> & "**ünï**" x`; got != want {
		t.Errorf("markMarkdown = %q, want %q", got, want)
	}
}

// FuzzMarkSnippet: any text and locations give a valid UTF-8 snippet and
// marks inside it, in order, apart, never a panic; rendered as HTML no markup
// from the text survives.
func FuzzMarkSnippet(f *testing.F) {
	f.Add("Send the bearer token now.", uint16(16), uint16(21), uint16(0), uint16(4))
	f.Add(strings.Repeat("é", 150)+"<b>", uint16(1), uint16(300), uint16(299), uint16(303))
	f.Add("a\n b  c", uint16(0), uint16(1), uint16(4), uint16(5))
	f.Fuzz(func(t *testing.T, text string, s1, e1, s2, e2 uint16) {
		if !utf8.ValidString(text) {
			return
		}
		terms := search.TermLocationMap{
			"a": {{Start: uint64(s1), End: uint64(e1)}},
			"b": {{Start: uint64(s2), End: uint64(e2)}},
		}
		got, _ := markSnippet(text, terms)
		if !utf8.ValidString(got.text) {
			t.Fatalf("invalid UTF-8: %q", got.text)
		}
		at := 0
		for _, m := range got.marks {
			if m[0] < at || m[0] >= m[1] || m[1] > len(got.text) || (at > 0 && m[0] == at) {
				t.Fatalf("marks %v of %q", got.marks, got.text)
			}
			at = m[1]
		}
		u := utf16Spans(got.text, got.marks)
		units := utf16.Encode([]rune(got.text))
		for i, m := range u {
			if string(utf16.Decode(units[m[0]:m[1]])) != got.text[got.marks[i][0]:got.marks[i][1]] {
				t.Fatalf("UTF-16 span %v of %q", m, got.text)
			}
		}
		html := string(markHTML(got.text, got.marks))
		if stripped := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(html); strings.ContainsAny(stripped, "<>") {
			t.Fatalf("unescaped markup: %q", html)
		}
	})
}
