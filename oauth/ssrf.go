package oauth

import (
	"context"
	"net"
	"net/netip"
	"time"

	"github.com/gtmgate/gtmgate/egress"
)

// errForbiddenAddress is returned when a metadata document's host resolves
// to an address the gateway must not reach.
var errForbiddenAddress = egress.ErrRefused

// guardedDial dials only public addresses (the egress policy, the same as
// web_fetch's): the check runs on the address actually dialled after DNS
// resolution, so a name that resolves (or re-resolves) to an internal
// address is refused.
func guardedDial(timeout time.Duration, allowLoopback bool) func(ctx context.Context, network, addr string) (net.Conn, error) {
	policy := egress.Policy{AllowLoopback: allowLoopback}
	check := func(host string, ap netip.AddrPort) error { return policy.Check(host, ap.Addr()) }
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		d, err := egress.Dialer(addr, timeout, check)
		if err != nil {
			return nil, err
		}
		return d.DialContext(ctx, network, addr)
	}
}
