package webfetch

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate/egress"
)

// newTransport returns a transport whose every dial is vetted by check (see
// egress.Dialer). It ignores proxy settings: a proxy would dial on our
// behalf, unchecked.
func newTransport(check egress.CheckFunc) *http.Transport {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		d, err := egress.Dialer(addr, 10*time.Second, check)
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
