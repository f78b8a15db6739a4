package content

import (
	"strings"
	"testing"
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
			"Send the bearer <mark>token</mark> now.", true},
		{"escaped around and inside marks", `a <b> & "token" 'x'`, at(`a <b> & "token" 'x'`, "token", "<b>"),
			"a <mark>&lt;b&gt;</mark> &amp; &#34;<mark>token</mark>&#34; &#39;x&#39;", true},
		{"cut on both sides at spaces", long + "the tenant token " + long, at(long+"the tenant token "+long, "tenant", "token"),
			"…words go here filler words go here the <mark>tenant</mark> <mark>token</mark> filler words go here filler words go here filler words go here filler words go here filler words go here filler words go here filler words go here…", true},
		{"window with the most matches wins", "token " + long + "tenant token tenant " + long,
			at("token "+long+"tenant token tenant "+long, "tenant", "token"),
			"…words go here filler words go here <mark>tenant</mark> <mark>token</mark> <mark>tenant</mark> filler words go here filler words go here filler words go here filler words go here filler words go here filler words go here filler words go…", true},
		{"multi-byte text cut on rune starts", strings.Repeat("é", 150) + "token" + strings.Repeat("ü", 150),
			at(strings.Repeat("é", 150)+"token"+strings.Repeat("ü", 150), "token"),
			"…" + strings.Repeat("é", 20) + "<mark>token</mark>" + strings.Repeat("ü", 77) + "…", true},
		{"locations past the text ignored", "short", search.TermLocationMap{"x": {{Start: 3, End: 99}}}, "", false},
		{"overlapping locations marked once", "a tenants b", search.TermLocationMap{"tenant": {{Start: 2, End: 8}}, "tenants": {{Start: 2, End: 9}}},
			"a <mark>tenants</mark> b", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := markSnippet(tc.text, tc.terms)
			if got != tc.want || ok != tc.ok {
				t.Errorf("markSnippet = %q, %v\nwant          %q, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// FuzzMarkSnippet: any text and locations give a valid UTF-8 snippet, never a
// panic, and no unescaped markup from the text.
func FuzzMarkSnippet(f *testing.F) {
	f.Add("Send the bearer token now.", uint16(16), uint16(21), uint16(0), uint16(4))
	f.Add(strings.Repeat("é", 150)+"<b>", uint16(1), uint16(300), uint16(299), uint16(303))
	f.Fuzz(func(t *testing.T, text string, s1, e1, s2, e2 uint16) {
		if !utf8.ValidString(text) {
			return
		}
		terms := search.TermLocationMap{
			"a": {{Start: uint64(s1), End: uint64(e1)}},
			"b": {{Start: uint64(s2), End: uint64(e2)}},
		}
		got, _ := markSnippet(text, terms)
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8: %q", got)
		}
		if stripped := strings.NewReplacer("<mark>", "", "</mark>", "").Replace(got); strings.ContainsAny(stripped, "<>") {
			t.Fatalf("unescaped markup: %q", got)
		}
	})
}
