package webfetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// checkDialFunc vets the address a connection is about to be made to; host
// is the name the URL gave, for the error message.
type checkDialFunc func(host string, addr netip.AddrPort) error

// newTransport returns a transport that checks every address it dials,
// after DNS resolution and per attempt, so neither a DNS answer that changes
// between check and use (rebinding) nor a redirect can reach a refused
// address. It ignores proxy settings: a proxy would dial on our behalf,
// unchecked.
func newTransport(check checkDialFunc) *http.Transport {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("webfetch: dial %q: %w", addr, err)
		}
		d := &net.Dialer{
			Timeout:   10 * time.Second,
			KeepAlive: 30 * time.Second,
			Control: func(network, address string, _ syscall.RawConn) error {
				ap, err := netip.ParseAddrPort(address)
				if err != nil {
					return fmt.Errorf("webfetch: unexpected dial address %q: %w", address, err)
				}
				return check(host, ap)
			},
		}
		return d.DialContext(ctx, network, addr)
	}
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          32,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 15 * time.Second,
	}
}
