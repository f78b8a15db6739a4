// Package clientip finds the address of the client behind a request, reading
// X-Forwarded-For or Forwarded only when the connection comes from a trusted
// reverse proxy (GTMGATE_TRUSTED_PROXIES): anyone else can write those
// headers, so trusting them from everyone would let a client pick its own
// address and escape per-address limits.
package clientip

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Resolver finds client addresses. The zero value trusts no proxy.
type Resolver struct {
	trusted []netip.Prefix
}

// New returns a Resolver trusting the given proxy addresses or CIDR ranges.
func New(trusted []string) (*Resolver, error) {
	r := &Resolver{}
	for _, s := range trusted {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				return nil, fmt.Errorf("clientip: %q is neither an IP address nor a CIDR range", s)
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		r.trusted = append(r.trusted, p.Masked())
	}
	return r, nil
}

// Addr returns the client's address as text (see Client), or the
// connection's peer as it came when that cannot be parsed.
func (r *Resolver) Addr(req *http.Request) string {
	if ip, ok := r.Client(req); ok {
		return ip.String()
	}
	return hostOf(req.RemoteAddr)
}

// Client returns the client's address, IPv4-mapped IPv6 unmapped: the
// connection's peer, or, when the peer is a trusted proxy, the right-most
// forwarded address that is not one (the left-most entries were written by
// the client and prove nothing). ok is false when the peer's address cannot
// be parsed. Per-client limits key on this parsed address, never on a
// second parse of the text.
func (r *Resolver) Client(req *http.Request) (ip netip.Addr, ok bool) {
	ip, err := netip.ParseAddr(hostOf(req.RemoteAddr))
	if err != nil {
		return netip.Addr{}, false
	}
	if r == nil || len(r.trusted) == 0 || !r.isTrusted(ip) {
		return ip.Unmap(), true
	}
	hops := forwardedFor(req.Header)
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(hops[i])
		if err != nil {
			break // an unparsable hop ends what can be trusted
		}
		ip = hop
		if !r.isTrusted(hop) {
			break
		}
	}
	return ip.Unmap(), true
}

func (r *Resolver) isTrusted(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range r.trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// forwardedFor lists the hops of the Forwarded header's for= parameters
// (RFC 7239), or else of X-Forwarded-For, left to right.
func forwardedFor(h http.Header) []string {
	var hops []string
	for _, v := range h.Values("Forwarded") {
		for _, elem := range strings.Split(v, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, val, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "for") {
					hops = append(hops, hostOf(strings.Trim(val, `"`)))
				}
			}
		}
	}
	if len(hops) > 0 {
		return hops
	}
	for _, v := range h.Values("X-Forwarded-For") {
		for _, hop := range strings.Split(v, ",") {
			hops = append(hops, hostOf(strings.TrimSpace(hop)))
		}
	}
	return hops
}

// hostOf strips a port and IPv6 brackets: "[::1]:80" → "::1", "1.2.3.4:5" →
// "1.2.3.4", "1.2.3.4" → "1.2.3.4".
func hostOf(s string) string {
	if host, _, err := net.SplitHostPort(s); err == nil {
		return host
	}
	return strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
}
