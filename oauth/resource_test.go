package oauth

import "testing"

func TestCanonicalResource(t *testing.T) {
	s, err := New(Options{Store: struct{ Store }{}, BaseURL: "https://gw.example/"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		param string
		ok    bool
	}{
		{"", true},
		{"https://gw.example/mcp", true},
		{"https://GW.example:443/mcp/", true},
		{"https://gw.example", true},
		{"https://gw.example/", true},
		{"https://gw.example/other", false},
		{"http://gw.example/mcp", false},
		{"https://evil.example/mcp", false},
		{"https://gw.example/mcp?x=1", false},
		{"https://gw.example/mcp#f", false},
		{"/mcp", false},
	} {
		t.Run(tc.param, func(t *testing.T) {
			aud, ok := s.canonicalResource(tc.param)
			if ok != tc.ok || (ok && aud != "https://gw.example/mcp") {
				t.Errorf("canonicalResource(%q) = %q, %v; want ok %v", tc.param, aud, ok, tc.ok)
			}
		})
	}
}
