package mcpgateway

import "testing"

func TestOriginAllowed(t *testing.T) {
	allowed := []string{"https://gw.example.com", "https://app.example.com"}
	for _, tc := range []struct {
		name, origin string
		loopback     bool
		want         bool
	}{
		{"gateway URL", "https://gw.example.com", false, true},
		{"configured, trailing slash and case", "HTTPS://App.Example.com/", false, true},
		{"foreign", "https://evil.example", false, false},
		{"rebinding: origin equal to host is not trusted", "http://evil.example:8081", true, false},
		{"localhost on a loopback bind", "http://localhost:6274", true, true},
		{"127.0.0.1 on a loopback bind", "http://127.0.0.1:6274", true, true},
		{"IPv6 loopback on a loopback bind", "http://[::1]:6274", true, true},
		{"localhost on a public bind", "http://localhost:6274", false, false},
		{"non-http scheme", "file://localhost", true, false},
		{"null origin", "null", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := originAllowed(tc.origin, allowed, tc.loopback); got != tc.want {
				t.Fatalf("originAllowed(%q, loopback=%v) = %v, want %v", tc.origin, tc.loopback, got, tc.want)
			}
		})
	}
}
