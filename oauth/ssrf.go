package oauth

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// errForbiddenAddress is returned when a metadata document's host resolves
// to an address the gateway must not reach.
var errForbiddenAddress = errors.New("address not allowed")

// sharedAddressSpace is 100.64.0.0/10 (RFC 6598, carrier-grade NAT), which
// netip does not count as private.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// publicAddress reports whether ip is a public unicast address: not
// loopback, private, link-local, multicast, unspecified or shared.
func publicAddress(ip netip.Addr, allowLoopback bool) bool {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid(), ip.IsUnspecified(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast(),
		ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(), ip.IsPrivate(), sharedAddressSpace.Contains(ip):
		return false
	case ip.IsLoopback():
		return allowLoopback
	}
	return ip.IsGlobalUnicast()
}

// guardedDialer dials only public addresses. The check runs in Control, on
// the address actually dialled after DNS resolution, so a name that
// resolves (or re-resolves) to an internal address is refused.
func guardedDialer(timeout time.Duration, allowLoopback bool) *net.Dialer {
	return &net.Dialer{
		Timeout: timeout,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", errForbiddenAddress, address)
			}
			if !publicAddress(ap.Addr(), allowLoopback) {
				return fmt.Errorf("%w: %s", errForbiddenAddress, ap.Addr())
			}
			return nil
		},
	}
}
