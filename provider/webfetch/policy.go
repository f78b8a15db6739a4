package webfetch

import (
	"fmt"
	"net/netip"
)

// blockedRange is an address range web_fetch never connects to, and why.
type blockedRange struct {
	prefix netip.Prefix
	kind   string
}

func mustPrefixes(kind string, cidrs ...string) []blockedRange {
	out := make([]blockedRange, len(cidrs))
	for i, c := range cidrs {
		out[i] = blockedRange{netip.MustParsePrefix(c), kind}
	}
	return out
}

// blocked lists every non-public range (IANA special-purpose registries).
// IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4) are unwrapped
// and the IPv4 address checked, so ::ffff:127.0.0.1 is loopback.
var blocked = concat(
	mustPrefixes("loopback", "127.0.0.0/8", "::1/128"),
	mustPrefixes("unspecified", "0.0.0.0/8", "::/128"),
	mustPrefixes("private", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fec0::/10"),
	mustPrefixes("link-local", "169.254.0.0/16", "fe80::/10"),
	mustPrefixes("shared (CGNAT)", "100.64.0.0/10"),
	mustPrefixes("multicast", "224.0.0.0/4", "ff00::/8"),
	mustPrefixes("reserved", "240.0.0.0/4", // includes broadcast 255.255.255.255
		"192.0.0.0/24", "198.18.0.0/15", "100::/64",
		"::/96", "64:ff9b:1::/48", "2001::/32", "2001:10::/28", "2001:20::/28"),
	mustPrefixes("documentation", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20"),
)

func concat(lists ...[]blockedRange) []blockedRange {
	var out []blockedRange
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// embeddedIPv4 returns the IPv4 address an IPv6 address carries (mapped,
// NAT64 well-known prefix, 6to4), if any.
func embeddedIPv4(ip netip.Addr) (netip.Addr, bool) {
	if !ip.Is6() {
		return netip.Addr{}, false
	}
	b := ip.As16()
	switch {
	case ip.Is4In6():
		return ip.Unmap(), true
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixToFour.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// Classify returns why ip is not a public unicast address ("loopback",
// "private"…), or "" when web_fetch may connect to it.
func Classify(ip netip.Addr) string {
	if !ip.IsValid() {
		return "invalid"
	}
	ip = ip.WithZone("")
	if v4, ok := embeddedIPv4(ip); ok {
		if kind := Classify(v4); kind != "" {
			return kind
		}
		if ip.Is4In6() {
			return ""
		}
	}
	for _, r := range blocked {
		if r.prefix.Contains(ip) {
			return r.kind
		}
	}
	return ""
}

// refusedError says a fetch was stopped because its address is not public.
type refusedError struct {
	host string
	ip   netip.Addr
	kind string
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("refusing to fetch %s: resolves to a private address (%s is %s)", e.host, e.ip, e.kind)
}

// policy decides which dialled addresses are acceptable.
type policy struct {
	allowLoopback bool
}

// check returns a *refusedError when ip may not be dialled for host.
func (p policy) check(host string, ip netip.Addr) error {
	kind := Classify(ip)
	if kind == "" || (kind == "loopback" && p.allowLoopback) {
		return nil
	}
	return &refusedError{host: host, ip: ip.WithZone(""), kind: kind}
}
