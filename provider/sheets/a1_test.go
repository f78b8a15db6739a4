package sheets

import (
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/apispec/spectest"
)

func TestParseA1(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in  string
		want      a1Range
		wantError bool
	}{
		{"cells", "Sheet1!A1:C10", a1Range{"Sheet1", 1, 1, 3, 10, true}, false},
		{"single cell", "Pipeline!B7", a1Range{"Pipeline", 2, 7, 2, 7, true}, false},
		{"columns", "Sheet1!A:C", a1Range{"Sheet1", 1, 0, 3, 0, true}, false},
		{"rows", "Sheet1!2:5", a1Range{"Sheet1", 0, 2, 0, 5, true}, false},
		{"open ended", "Sheet1!A2:C", a1Range{"Sheet1", 1, 2, 3, 0, true}, false},
		{"lower case", "data!a1:b2", a1Range{"data", 1, 1, 2, 2, true}, false},
		{"wide columns", "S!AA1:ZZZ9", a1Range{"S", 27, 1, 18278, 9, true}, false},
		{"quoted", "'Lead list'!A1:B2", a1Range{"Lead list", 1, 1, 2, 2, true}, false},
		{"quoted with quote", "'Q4 ''25 plan'!A1", a1Range{"Q4 '25 plan", 1, 1, 1, 1, true}, false},
		{"quoted with bang", "'Wow!'!A1", a1Range{"Wow!", 1, 1, 1, 1, true}, false},
		{"no sheet", "A1:B2", a1Range{"", 1, 1, 2, 2, true}, false},
		{"sheet only", "Pipeline", a1Range{Sheet: "Pipeline"}, false},
		{"quoted sheet only", "'Lead list'", a1Range{Sheet: "Lead list"}, false},
		{"empty", "", a1Range{}, true},
		{"unquoted space", "Lead list!A1", a1Range{}, true},
		{"unbalanced quote", "'Lead list!A1", a1Range{}, true},
		{"lone quote inside", "'a'b'!A1", a1Range{}, true},
		{"reversed", "Sheet1!C10:A1", a1Range{}, true},
		{"row zero", "Sheet1!A0", a1Range{}, true},
		{"garbage cells", "Sheet1!A1:1B", a1Range{}, true},
		{"mixed shapes", "Sheet1!A:3", a1Range{}, true},
		{"nothing after bang", "Sheet1!", a1Range{}, true},
		{"path traversal", "../../x!A1", a1Range{}, true},
		{"query smuggling", "Sheet1!A1?x=1", a1Range{}, true},
		{"four letters", "Sheet1!ABCD1", a1Range{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseA1(tc.in)
			if (err != nil) != tc.wantError {
				t.Fatalf("parseA1(%q) error = %v, want error %v", tc.in, err, tc.wantError)
			}
			if err == nil && got != tc.want {
				t.Errorf("parseA1(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzValidRange checks that an accepted range stays one path segment once
// escaped and unescapes back to itself.
func FuzzValidRange(f *testing.F) {
	for _, s := range []string{"Sheet1!A1:C10", "'Lead list'!A:C", "Pipeline", "'a/b?c#d'!A1", "A1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		esc, err := validRange(s)
		if err != nil {
			return
		}
		if strings.ContainsAny(esc, "/?#") {
			t.Fatalf("validRange(%q) = %q, which leaves its path segment", s, esc)
		}
		if back, err := url.PathUnescape(esc); err != nil || back != s {
			t.Fatalf("validRange(%q) = %q, unescapes to %q, %v", s, esc, back, err)
		}
	})
}

func TestMain(m *testing.M) { spectest.Main(m) }
