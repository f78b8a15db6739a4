package mcpgateway

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// checkOrigin refuses browser requests from foreign origins (403), as the
// 2025-11-25 transport requires against DNS rebinding. A request without an
// Origin (a non-browser client) passes; so does a configured origin (the
// gateway URL is one) and, when loopback is set (the gateway listens on
// loopback only), an origin whose host is localhost or a loopback address.
// An Origin equal to the request's Host is not trusted: a rebinding attacker
// controls both.
func checkOrigin(allowed []string, loopback bool, next http.Handler) http.Handler {
	norm := make([]string, 0, len(allowed))
	for _, a := range allowed {
		norm = append(norm, strings.TrimRight(strings.ToLower(a), "/"))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !originAllowed(origin, norm, loopback) {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EForbidden, "origin %q may not call this endpoint", origin).
				WithHint("add it to GTMGATE_ALLOWED_ORIGINS if it is yours"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func originAllowed(origin string, allowed []string, loopback bool) bool {
	o := strings.TrimRight(strings.ToLower(origin), "/")
	if slices.Contains(allowed, o) {
		return true
	}
	if !loopback {
		return false
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return IsLoopbackHost(u.Hostname())
}

// IsLoopbackHost reports whether host is localhost or a loopback IP literal.
func IsLoopbackHost(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
