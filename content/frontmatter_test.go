package content

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitFrontMatter(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    FrontMatter
		body    string
		wantErr string
	}{
		{"none", "# Hi\n", FrontMatter{}, "# Hi\n", ""},
		{"scalars", "---\ntitle: Hello: world\ndescription: \"quoted: yes\"\norder: 3 # comment\n---\nBody\n",
			FrontMatter{"title": {Str: "Hello: world"}, "description": {Str: "quoted: yes"}, "order": {Str: "3"}}, "Body\n", ""},
		{"inline list", "---\nprices: [A — $9,500 fixed, \"B, c\", 'd''s']\n---\n",
			FrontMatter{"prices": {List: []string{"A — $9,500 fixed", "B, c", "d's"}, IsList: true}}, "", ""},
		{"block list", "---\naliases:\n  - /a\n  - \"/b\"\ntitle: T\n---\nx",
			FrontMatter{"aliases": {List: []string{"/a", "/b"}, IsList: true}, "title": {Str: "T"}}, "x", ""},
		{"crlf and bom", "\ufeff---\r\ntitle: T\r\n---\r\nx\r\n", FrontMatter{"title": {Str: "T"}}, "x\n", ""},
		{"empty", "---\n---\nx", FrontMatter{}, "x", ""},
		{"unclosed", "---\ntitle: T\n", nil, "", "no closing"},
		{"duplicate", "---\ntitle: a\ntitle: b\n---\n", nil, "", "duplicate key"},
		{"not a key", "---\nTitle Case: x\n---\n", nil, "", "want \"key: value\""},
		{"orphan item", "---\n- x\n---\n", nil, "", "list item"},
		{"indented key", "---\n  title: x\n---\n", nil, "", "indentation"},
		{"bad quote", "---\ntitle: \"x\n---\n", nil, "", "double-quoted"},
		{"bad list", "---\ntags: [a, b\n---\n", nil, "", "unterminated list"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fm, body, err := SplitFrontMatter([]byte(tc.src))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, fm); diff != "" {
				t.Errorf("front matter (-want +got):\n%s", diff)
			}
			if body != tc.body {
				t.Errorf("body %q, want %q", body, tc.body)
			}
		})
	}
}

func TestFrontMatterValues(t *testing.T) {
	fm, err := ParseFrontMatter("draft: yes\norder: 7\ndate: 2025-03-01\nupdated: 2025-03-02T10:00:00Z\nbad: x")
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := fm.Bool("draft", false); !b {
		t.Error("draft")
	}
	if n, _ := fm.Int("order"); n != 7 {
		t.Error("order")
	}
	if d, _ := fm.Time("date"); d.Format("2006-01-02") != "2025-03-01" {
		t.Error("date")
	}
	if _, err := fm.Time("bad"); err == nil {
		t.Error("bad date accepted")
	}
	if _, err := fm.Int("bad"); err == nil {
		t.Error("bad int accepted")
	}
	if _, err := fm.Bool("bad", false); err == nil {
		t.Error("bad bool accepted")
	}
}

// FuzzFrontMatter checks the parser never panics and that what it accepts
// keeps only well-formed keys.
func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{"---\ntitle: x\n---\n", "---\na: [b, \"c\"]\nd:\n  - e\n---\nbody", "---\nx: 'it''s'\n---", "---\n- \n---"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fm, _, err := SplitFrontMatter([]byte(src))
		if err != nil {
			return
		}
		for k := range fm {
			if !fmKey.MatchString(k + ":") {
				t.Fatalf("accepted key %q", k)
			}
		}
	})
}
