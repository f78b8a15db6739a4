// Package egress is the one address policy for every outbound fetch whose
// URL comes from outside (web_fetch pages, OAuth client metadata documents):
// only public unicast addresses may be dialled, checked on the address
// actually dialled, after DNS resolution.
package egress

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// blockedRange is an address range never dialled, and why.
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
// "private"…), or "" when it may be dialled.
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

// ErrRefused marks a dial stopped by the policy.
var ErrRefused = errors.New("address not allowed")

// RefusedError says a dial was stopped because its address is not public. Its
// message never names the address: a caller must not learn what a host name
// resolves to inside the operator's network.
type RefusedError struct {
	Host string
	// IP and Kind are for the operator's logs.
	IP   netip.Addr
	Kind string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s: the address is not allowed (only public internet addresses are)", e.Host)
}

// Unwrap makes errors.Is(err, ErrRefused) hold.
func (e *RefusedError) Unwrap() error { return ErrRefused }

// Policy decides which dialled addresses are acceptable.
type Policy struct {
	// AllowLoopback lets loopback addresses through (tests and demos only).
	AllowLoopback bool
	// Allow lists address ranges the operator allows although they are not
	// public, e.g. an in-house MCP server on 10.0.0.0/8. An IPv6 address
	// that embeds an IPv4 one (mapped, NAT64, 6to4) is allowed when either
	// address is in a range.
	Allow []netip.Prefix
}

// Check returns a *RefusedError when ip may not be dialled for host.
func (p Policy) Check(host string, ip netip.Addr) error {
	kind := Classify(ip)
	if kind == "" || (kind == "loopback" && p.AllowLoopback) || p.allowed(ip) {
		return nil
	}
	return &RefusedError{Host: host, IP: ip.WithZone(""), Kind: kind}
}

// allowed reports whether ip, or the IPv4 address it embeds, is in one of
// the operator's Allow ranges.
func (p Policy) allowed(ip netip.Addr) bool {
	if len(p.Allow) == 0 || !ip.IsValid() {
		return false
	}
	ip = ip.WithZone("") // a zoned address is in no prefix
	addrs := []netip.Addr{ip}
	if v4, ok := embeddedIPv4(ip); ok {
		addrs = append(addrs, v4)
	}
	for _, a := range addrs {
		for _, pfx := range p.Allow {
			if pfx.Contains(a) {
				return true
			}
		}
	}
	return false
}

// CheckFunc vets the address a connection is about to be made to; host is
// the name the URL gave, for the error message.
type CheckFunc func(host string, addr netip.AddrPort) error

// Dialer returns a dialer for addr (host:port) whose every connection
// attempt is checked in Control, on the address actually dialled after DNS
// resolution, so neither a DNS answer that changes between check and use
// (rebinding) nor a redirect can reach a refused address.
func Dialer(addr string, timeout time.Duration, check CheckFunc) (*net.Dialer, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("egress: dial %q: %w", addr, err)
	}
	return &net.Dialer{
		Timeout:   timeout,
		KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &RefusedError{Host: host, Kind: "unparsable"}
			}
			return check(host, ap)
		},
	}, nil
}
