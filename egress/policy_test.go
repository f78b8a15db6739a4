package egress

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, ip, want string
	}{
		{"public v4", "93.184.216.34", ""},
		{"public dns", "8.8.8.8", ""},
		{"public v6", "2606:4700:4700::1111", ""},
		{"loopback", "127.0.0.1", "loopback"},
		{"loopback high", "127.255.255.254", "loopback"},
		{"loopback v6", "::1", "loopback"},
		{"mapped loopback", "::ffff:127.0.0.1", "loopback"},
		{"mapped private", "::ffff:10.1.2.3", "private"},
		{"mapped metadata", "::ffff:169.254.169.254", "link-local"},
		{"mapped public", "::ffff:8.8.8.8", ""},
		{"ipv4-compatible loopback", "::127.0.0.1", "reserved"},
		{"nat64 loopback", "64:ff9b::7f00:1", "loopback"},
		{"nat64 public", "64:ff9b::808:808", ""},
		{"6to4 private", "2002:c0a8:0101::1", "private"},
		{"6to4 public", "2002:0808:0808::1", ""},
		{"teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"},
		{"rfc1918 10", "10.0.0.1", "private"},
		{"rfc1918 172.16", "172.16.5.4", "private"},
		{"rfc1918 172.31", "172.31.255.255", "private"},
		{"not rfc1918 172.32", "172.32.0.1", ""},
		{"rfc1918 192.168", "192.168.1.1", "private"},
		{"ula", "fd00::1", "private"},
		{"ula fc", "fc12:3456::1", "private"},
		{"site-local v6", "fec0::1", "private"},
		{"cloud metadata", "169.254.169.254", "link-local"},
		{"link-local v6", "fe80::1", "link-local"},
		{"link-local v6 zone", "fe80::1%eth0", "link-local"},
		{"unspecified v4", "0.0.0.0", "unspecified"},
		{"this network", "0.1.2.3", "unspecified"},
		{"unspecified v6", "::", "unspecified"},
		{"cgnat", "100.64.0.1", "shared (CGNAT)"},
		{"cgnat top", "100.127.255.255", "shared (CGNAT)"},
		{"below cgnat", "100.63.255.255", ""},
		{"multicast v4", "224.0.0.1", "multicast"},
		{"multicast v6", "ff02::1", "multicast"},
		{"broadcast", "255.255.255.255", "reserved"},
		{"class e", "240.0.0.1", "reserved"},
		{"benchmark", "198.18.0.1", "reserved"},
		{"ietf protocol", "192.0.0.170", "reserved"},
		{"documentation", "203.0.113.7", "documentation"},
		{"documentation v6", "2001:db8::1", "documentation"},
		{"discard v6", "100::1", "reserved"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Classify(netip.MustParseAddr(tc.ip)); got != tc.want {
				t.Errorf("Classify(%s) = %q, want %q", tc.ip, got, tc.want)
			}
		})
	}
}

func TestPolicyAllowLoopback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		ip            string
		allowLoopback bool
		wantRefused   bool
	}{
		{"loopback refused", "127.0.0.1", false, true},
		{"loopback allowed in tests", "127.0.0.1", true, false},
		{"mapped loopback allowed in tests", "::ffff:127.0.0.1", true, false},
		{"v6 loopback allowed in tests", "::1", true, false},
		{"private still refused", "10.0.0.1", true, true},
		{"metadata still refused", "169.254.169.254", true, true},
		{"public allowed", "1.1.1.1", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Policy{AllowLoopback: tc.allowLoopback}.Check("h", netip.MustParseAddr(tc.ip))
			if (err != nil) != tc.wantRefused {
				t.Errorf("check(%s) = %v, want refused %v", tc.ip, err, tc.wantRefused)
			}
		})
	}
}

// FuzzClassify checks that nothing net/netip knows to be non-public is
// classified public, in any IPv4 or IPv4-mapped form.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::ffff:10.0.0.1", "fe80::1", "8.8.8.8", "64:ff9b::a00:1", "2002:a00:1::"} {
		f.Add(netip.MustParseAddr(s).AsSlice())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ip, ok := netip.AddrFromSlice(b)
		if !ok {
			return
		}
		for _, a := range []netip.Addr{ip, ip.Unmap()} {
			if Classify(a) != "" {
				continue
			}
			u := a.Unmap()
			if u.IsLoopback() || u.IsPrivate() || u.IsLinkLocalUnicast() || u.IsLinkLocalMulticast() ||
				u.IsMulticast() || u.IsUnspecified() || u.IsInterfaceLocalMulticast() {
				t.Fatalf("Classify(%s) = public, but netip says it is not", a)
			}
		}
		if v4, ok := embeddedIPv4(ip); ok && Classify(v4) != "" && Classify(ip) == "" {
			t.Fatalf("%s embeds non-public %s but is public", ip, v4)
		}
	})
}

func TestRefusedErrorHidesTheAddress(t *testing.T) {
	err := Policy{}.Check("intranet.example", netip.MustParseAddr("10.1.2.3"))
	if err == nil || strings.Contains(err.Error(), "10.1.2.3") || strings.Contains(err.Error(), "private") || !strings.Contains(err.Error(), "intranet.example") {
		t.Fatalf("err = %v: want the host named and the address and its kind hidden", err)
	}
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v is not ErrRefused", err)
	}
}

func TestPolicyAllow(t *testing.T) {
	t.Parallel()
	prefixes := func(cidrs ...string) []netip.Prefix {
		out := make([]netip.Prefix, len(cidrs))
		for i, c := range cidrs {
			out[i] = netip.MustParsePrefix(c)
		}
		return out
	}
	tests := []struct {
		name        string
		ip          string
		allow       []netip.Prefix
		wantRefused bool
	}{
		{"private refused without allow", "10.1.2.3", nil, true},
		{"private in allowed range", "10.1.2.3", prefixes("10.0.0.0/8"), false},
		{"private outside allowed range", "192.168.1.1", prefixes("10.0.0.0/8"), true},
		{"second range", "192.168.1.1", prefixes("10.0.0.0/8", "192.168.1.0/24"), false},
		{"narrow range", "10.2.0.1", prefixes("10.1.0.0/16"), true},
		{"single host", "172.16.0.5", prefixes("172.16.0.5/32"), false},
		{"neighbour of single host", "172.16.0.6", prefixes("172.16.0.5/32"), true},
		{"mapped address in v4 range", "::ffff:10.1.2.3", prefixes("10.0.0.0/8"), false},
		{"nat64 address in v4 range", "64:ff9b::a01:203", prefixes("10.0.0.0/8"), false},
		{"6to4 address in v4 range", "2002:a01:203::1", prefixes("10.0.0.0/8"), false},
		{"v6 ula in range", "fd12::1", prefixes("fd12::/16"), false},
		{"v6 link-local with zone in range", "fe80::1%eth0", prefixes("fe80::/64"), false},
		{"v6 range does not allow v4", "10.1.2.3", prefixes("fd12::/16"), true},
		{"loopback in allowed range", "127.0.0.1", prefixes("127.0.0.0/8"), false},
		{"loopback not allowed by private range", "127.0.0.1", prefixes("10.0.0.0/8"), true},
		{"metadata not allowed by private range", "169.254.169.254", prefixes("10.0.0.0/8"), true},
		{"public still allowed", "1.1.1.1", prefixes("10.0.0.0/8"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := Policy{Allow: tc.allow}.Check("h", netip.MustParseAddr(tc.ip))
			if (err != nil) != tc.wantRefused {
				t.Errorf("Check(%s) with allow %v = %v, want refused %v", tc.ip, tc.allow, err, tc.wantRefused)
			}
		})
	}
}
