package linkedinads

import (
	"reflect"
	"testing"
	"time"
)

func TestRestliEncoding(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"escape reserved", Escape("a(b),c:d'e f&g=h%"), "a%28b%29%2Cc%3Ad%27e%20f%26g%3Dh%25"},
		{"urn list", URNList("sponsoredAccount", "123", "456"), "List(urn%3Ali%3AsponsoredAccount%3A123,urn%3Ali%3AsponsoredAccount%3A456)"},
		{"date range", Record(Field{"start", Date(time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC))}, Field{"end", Date(time.Date(2025, 5, 31, 0, 0, 0, 0, time.UTC))}),
			"(start:(year:2025,month:5,day:1),end:(year:2025,month:5,day:31))"},
		{"search criteria", Record(Field{"status", Record(Field{"values", List(Escape("ACTIVE"), Escape("PAUSED"))})}), "(status:(values:List(ACTIVE,PAUSED)))"},
		{"query", Query([2]string{"q", "analytics"}, [2]string{"accounts", URNList("sponsoredAccount", "1")}), "q=analytics&accounts=List(urn%3Ali%3AsponsoredAccount%3A1)"},
		{"unicode", Escape("Café"), "Caf%C3%A9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Fatalf("got %s, want %s", tt.got, tt.want)
			}
		})
	}
}

func TestRestliDecode(t *testing.T) {
	tests := []struct {
		name, in string
		want     any
		fails    bool
	}{
		{"leaf", "urn%3Ali%3Ax%3A1", "urn:li:x:1", false},
		{"list", "List(a,b%2Cc)", []any{"a", "b,c"}, false},
		{"record", "(start:(year:2025),end:List())", map[string]any{"start": map[string]any{"year": "2025"}, "end": []any{}}, false},
		{"escaped parens are text", "%28a%3Ab%29", "(a:b)", false},
		{"unbalanced", "List(a", nil, true},
		{"trailing", "(a:b))", nil, true},
		{"bad escape", "a%zz", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(tt.in)
			if (err != nil) != tt.fails || (!tt.fails && !reflect.DeepEqual(got, tt.want)) {
				t.Fatalf("Decode(%q) = %#v, %v", tt.in, got, err)
			}
		})
	}
}
