package clientip

import (
	"net/http/httptest"
	"testing"
)

func TestAddr(t *testing.T) {
	r, err := New([]string{"10.0.0.0/8", "192.0.2.7"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, remote string
		header       map[string]string
		trustNone    bool
		want         string
	}{
		{"direct client", "203.0.113.5:4000", nil, false, "203.0.113.5"},
		{"untrusted peer's header is ignored", "203.0.113.5:4000", map[string]string{"X-Forwarded-For": "1.1.1.1"}, false, "203.0.113.5"},
		{"trusted proxy", "10.1.1.1:4000", map[string]string{"X-Forwarded-For": "198.51.100.9"}, false, "198.51.100.9"},
		{"client-written hops are skipped", "10.1.1.1:4000", map[string]string{"X-Forwarded-For": "6.6.6.6, 198.51.100.9, 10.2.2.2"}, false, "198.51.100.9"},
		{"single trusted address", "192.0.2.7:1", map[string]string{"X-Forwarded-For": "198.51.100.9"}, false, "198.51.100.9"},
		{"Forwarded header", "10.1.1.1:4000", map[string]string{"Forwarded": `for="[2001:db8::9]:443";proto=https, for=10.3.3.3`}, false, "2001:db8::9"},
		{"garbage hop stops the walk", "10.1.1.1:4000", map[string]string{"X-Forwarded-For": "198.51.100.9, nonsense"}, false, "10.1.1.1"},
		{"no header from a proxy", "10.1.1.1:4000", nil, false, "10.1.1.1"},
		{"nothing trusted", "10.1.1.1:4000", map[string]string{"X-Forwarded-For": "198.51.100.9"}, true, "10.1.1.1"},
		{"IPv6 peer", "[2001:db8::1]:443", nil, false, "2001:db8::1"},
		{"IPv4-mapped peer is unmapped", "[::ffff:203.0.113.5]:443", nil, true, "203.0.113.5"},
		{"IPv4-mapped forwarded hop is unmapped", "10.1.1.1:4000", map[string]string{"X-Forwarded-For": "::ffff:198.51.100.9"}, false, "198.51.100.9"},
		{"unparsable peer is kept as it came", "pipe", nil, false, "pipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/", nil)
			req.RemoteAddr = tc.remote
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			res := r
			if tc.trustNone {
				res = &Resolver{}
			}
			if got := res.Addr(req); got != tc.want {
				t.Fatalf("Addr = %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := New([]string{"not-an-ip"}); err == nil {
		t.Fatal("bad trusted proxy accepted")
	}
}

func FuzzAddr(f *testing.F) {
	for _, s := range []string{"1.2.3.4", "1.1.1.1, 10.0.0.1", `for="[::1]:80"`, "for=unknown;by=x", ",,,"} {
		f.Add(s)
	}
	r, _ := New([]string{"10.0.0.0/8"})
	f.Fuzz(func(t *testing.T, v string) {
		req := httptest.NewRequest("GET", "/", nil)
		req.RemoteAddr = "10.0.0.1:1"
		req.Header.Set("X-Forwarded-For", v)
		req.Header.Set("Forwarded", v)
		if r.Addr(req) == "" {
			t.Fatalf("empty address for %q", v)
		}
		ip, ok := r.Client(req)
		if !ok || ip.Is4In6() || r.Addr(req) != ip.String() {
			t.Fatalf("Client = %v, %v; Addr = %q for %q: want the unmapped parsed address, as Addr writes it", ip, ok, r.Addr(req), v)
		}
	})
}
