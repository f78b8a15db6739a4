package egress

import (
	"net"
	"strings"
)

// LoopbackHost reports whether a URL's host is "localhost" (any case) or a
// loopback IP literal: the hosts where plain http is tolerated for
// outbound URLs an operator configures (alert webhooks, token endpoints,
// OAuth redirect URIs).
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
