package egress

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// NewTransport returns a transport whose every dial is vetted by p on the
// address actually dialled (see Dialer), with dialTimeout per connection
// attempt.
func NewTransport(p Policy, dialTimeout time.Duration) *http.Transport {
	return NewCheckedTransport(func(host string, ap netip.AddrPort) error { return p.Check(host, ap.Addr()) }, dialTimeout)
}

// NewCheckedTransport returns a transport whose every dial is vetted by
// check (see Dialer), with dialTimeout per connection attempt. It ignores
// proxy settings: a proxy would dial on our behalf, unchecked.
func NewCheckedTransport(check CheckFunc, dialTimeout time.Duration) *http.Transport {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		d, err := Dialer(addr, dialTimeout, check)
		if err != nil {
			return nil, err
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
