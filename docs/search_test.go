package docs

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestSearchAPIShape: a hit's snippet is plain text and its highlights are
// UTF-16 offsets of the matched words in it, as a browser slices them.
func TestSearchAPIShape(t *testing.T) {
	h := newHandler(t)
	for _, q := range []string{"tokens", "bearer+operator", "oauth*"} {
		r, b := fetch(t, h, "/api/search?q="+q)
		if r.StatusCode != 200 {
			t.Fatalf("%s: %d %s", q, r.StatusCode, b)
		}
		var res struct {
			Query   string
			Total   int
			Results []map[string]json.RawMessage
		}
		if err := json.Unmarshal([]byte(b), &res); err != nil || len(res.Results) == 0 {
			t.Fatalf("%s: %v %s", q, err, b)
		}
		for _, hit := range res.Results {
			for _, k := range []string{"title", "url", "path", "snippet", "highlights", "score", "section"} {
				if _, ok := hit[k]; !ok {
					t.Errorf("%s: hit lacks %s: %s", q, k, b)
				}
			}
			var snippet string
			var highlights [][2]int
			_ = json.Unmarshal(hit["snippet"], &snippet)
			if err := json.Unmarshal(hit["highlights"], &highlights); err != nil {
				t.Fatalf("%s: highlights %s: %v", q, hit["highlights"], err)
			}
			if strings.Contains(snippet, "<mark>") || strings.Contains(snippet, "&lt;") {
				t.Errorf("%s: snippet is HTML: %q", q, snippet)
			}
			units := utf16.Encode([]rune(snippet))
			for _, hl := range highlights {
				if hl[0] < 0 || hl[0] >= hl[1] || hl[1] > len(units) {
					t.Fatalf("%s: highlight %v outside %q", q, hl, snippet)
				}
				word := strings.ToLower(string(utf16.Decode(units[hl[0]:hl[1]])))
				if !strings.Contains(word, "token") && !strings.Contains(word, "bearer") && !strings.Contains(word, "operator") && !strings.HasPrefix(word, "oauth") {
					t.Errorf("%s: highlight %v is %q in %q", q, hl, word, snippet)
				}
			}
		}
		if strings.Contains(string(res.Results[0]["highlights"]), "null") {
			t.Errorf("%s: highlights null", q)
		}
	}
}
