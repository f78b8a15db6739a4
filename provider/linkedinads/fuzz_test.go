package linkedinads

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzRestliEscape: escaped text never carries structure or URL syntax, and
// decodes back to the input, alone and inside lists and records.
func FuzzRestliEscape(f *testing.F) {
	for _, s := range []string{"urn:li:sponsoredAccount:1", "a),b:(c", "x&y=z#", "%2C", "List(", "", "é"} {
		f.Add(s, "k")
	}
	f.Fuzz(func(t *testing.T, s, key string) {
		enc := Escape(s)
		if strings.ContainsAny(enc, "(),:'&=+# ?/") {
			t.Fatalf("Escape(%q) = %q keeps a reserved character", s, enc)
		}
		for i := 0; i < len(enc); i++ {
			if enc[i] >= 0x80 || enc[i] < 0x20 {
				t.Fatalf("Escape(%q) = %q keeps a raw byte", s, enc)
			}
		}
		if got, err := Decode(enc); err != nil || got != s {
			t.Fatalf("Decode(Escape(%q)) = %#v, %v", s, got, err)
		}
		if got, err := Decode(List(enc, enc)); err != nil || !reflect.DeepEqual(got, []any{s, s}) {
			t.Fatalf("list round trip of %q = %#v, %v", s, got, err)
		}
		rec := Record(Field{key, enc})
		if got, err := Decode(rec); err != nil || !reflect.DeepEqual(got, map[string]any{key: s}) {
			t.Fatalf("record round trip of %q:%q = %#v, %v", key, s, got, err)
		}
	})
}

// FuzzRestliDecode: the decoder never panics on arbitrary query text.
func FuzzRestliDecode(f *testing.F) {
	f.Add("(start:(year:2025,month:1,day:1),end:(year:2025,month:1,day:31))")
	f.Add("List(urn%3Ali%3AsponsoredAccount%3A1)")
	f.Fuzz(func(t *testing.T, s string) { _, _ = Decode(s) })
}
