package throttle

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/clientip"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestGuard(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	g := New(Options{Name: "admin", Burst: 3, Refill: 10 * time.Second, Now: c.now, Metrics: m})
	attacker := httptest.NewRequest("GET", "/", nil)
	attacker.RemoteAddr = "203.0.113.9:5000"
	other := httptest.NewRequest("GET", "/", nil)
	other.RemoteAddr = "198.51.100.1:6000"

	for i := range 3 {
		if err := g.Check(attacker); err != nil {
			t.Fatalf("attempt %d throttled: %v", i+1, err)
		}
		g.Fail(attacker)
	}
	err := g.Check(attacker)
	var e *gtmgate.Error
	if gtmgate.ErrorCode(err) != gtmgate.ERateLimited {
		t.Fatalf("after the budget: %v, want RATE_LIMITED", err)
	}
	if e = gtmgate.AsError(err); e.RetryAfter != 10 {
		t.Fatalf("Retry-After = %d, want 10", e.RetryAfter)
	}
	// Another address is never locked out by the first one's failures.
	if err := g.Check(other); err != nil {
		t.Fatalf("other address throttled: %v", err)
	}
	// The budget refills at the configured rate.
	c.t = c.t.Add(4 * time.Second)
	if e := gtmgate.AsError(g.Check(attacker)); e.RetryAfter != 6 {
		t.Fatalf("Retry-After after 4 s = %d, want 6", e.RetryAfter)
	}
	c.t = c.t.Add(6 * time.Second)
	if err := g.Check(attacker); err != nil {
		t.Fatalf("after refill: %v", err)
	}
	if got := testutil.ToFloat64(m.failures.WithLabelValues("admin")); got != 3 {
		t.Errorf("failures metric = %v, want 3", got)
	}
	if got := testutil.ToFloat64(m.throttles.WithLabelValues("admin")); got != 2 {
		t.Errorf("throttled metric = %v, want 2", got)
	}
}

func TestNilGuardAllows(t *testing.T) {
	var g *Guard
	if err := g.Check(httptest.NewRequest("GET", "/", nil)); err != nil {
		t.Fatal(err)
	}
	g.Fail(httptest.NewRequest("GET", "/", nil))
}

// TestGuardGroupsIPv6By64 checks which addresses share a budget: an IPv6
// /64 is one client (rotating through its addresses buys no new attempts),
// IPv4 addresses and distinct /64s are separate clients.
func TestGuardGroupsIPv6By64(t *testing.T) {
	t.Parallel()
	proxies, err := clientip.New([]string{"10.0.0.0/8"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		first, second string // RemoteAddr, or "proxy>client" for a client behind the trusted proxy
		shared        bool
	}{
		{"same /64, other interface id", "[2001:db8:1:2::1]:4000", "[2001:db8:1:2:ffff:ffff:ffff:ffff]:4000", true},
		{"same /64, zone on a link-local peer", "[fe80::1%eth0]:4000", "[fe80::2%eth1]:4000", true},
		{"same /64 behind a trusted proxy", "10.0.0.1:1>2001:db8:1:2::1", "10.0.0.1:1>2001:db8:1:2::beef", true},
		{"IPv4-mapped counts as its IPv4 address", "[::ffff:203.0.113.9]:4000", "203.0.113.9:4000", true},
		{"neighbouring /64", "[2001:db8:1:2::1]:4000", "[2001:db8:1:3::1]:4000", false},
		{"neighbouring IPv4 addresses", "203.0.113.9:4000", "203.0.113.10:4000", false},
		{"IPv4 and an IPv6 /64 embedding it", "203.0.113.9:4000", "[::cb00:7109]:4000", false},
	}
	request := func(spec string) *http.Request {
		req := httptest.NewRequest("GET", "/", nil)
		peer, client, behind := strings.Cut(spec, ">")
		req.RemoteAddr = peer
		if behind {
			req.Header.Set("X-Forwarded-For", client)
		}
		return req
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := New(Options{Name: "bearer", Burst: 2, Refill: time.Hour, Clients: proxies, Logger: slog.New(slog.DiscardHandler)})
			first, second := request(tc.first), request(tc.second)
			g.Fail(first)
			g.Fail(first)
			if err := g.Check(first); gtmgate.ErrorCode(err) != gtmgate.ERateLimited {
				t.Fatalf("first client after its budget: %v, want RATE_LIMITED", err)
			}
			err := g.Check(second)
			if got := err != nil; got != tc.shared {
				t.Fatalf("second client throttled = %v (%v), want %v", got, err, tc.shared)
			}
		})
	}
}

// FuzzClientKey checks the grouping as a property: two addresses share a
// key exactly when they are the same IPv4 address or lie in one IPv6 /64.
func FuzzClientKey(f *testing.F) {
	f.Add([]byte{203, 0, 113, 9}, []byte{203, 0, 113, 9})
	f.Add(netip.MustParseAddr("2001:db8::1").AsSlice(), netip.MustParseAddr("2001:db8::2").AsSlice())
	f.Add(netip.MustParseAddr("::ffff:1.2.3.4").AsSlice(), []byte{1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		x, okx := netip.AddrFromSlice(a)
		y, oky := netip.AddrFromSlice(b)
		if !okx || !oky {
			return
		}
		x, y = x.Unmap(), y.Unmap()
		var same bool
		switch {
		case x.Is4() && y.Is4():
			same = x == y
		case x.Is6() && y.Is6():
			px, _ := x.Prefix(64)
			py, _ := y.Prefix(64)
			same = px == py
		}
		if got := ClientKey(x) == ClientKey(y); got != same {
			t.Fatalf("ClientKey(%s) = %q, ClientKey(%s) = %q; same budget = %v, want %v", x, ClientKey(x), y, ClientKey(y), got, same)
		}
	})
}
