package jsonvalue_test

import (
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate/jsonvalue"
)

func TestDecode(t *testing.T) {
	v, err := jsonvalue.Decode([]byte(`{"n": 12345678901234567890}`))
	if err != nil || v.(map[string]any)["n"] != json.Number("12345678901234567890") {
		t.Fatalf("Decode = %v, %v; want the number as written", v, err)
	}
	for _, bad := range []string{`{"a":1} {"b":2}`, `{`, ``} {
		if _, err := jsonvalue.Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%q) took it", bad)
		}
	}
}

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"{ \"b\": 1.50,\n \"a\": [\"<x>\", null] }", `{"a":["<x>",null],"b":1.50}`},
		{"  ", "null"},
	} {
		if got, err := jsonvalue.Canonical([]byte(tc.in)); err != nil || string(got) != tc.want {
			t.Errorf("Canonical(%q) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
	}
}
