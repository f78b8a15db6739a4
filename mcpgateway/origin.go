package mcpgateway

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// checkOrigin refuses browser requests from foreign origins (403), as the
// 2025-11-25 transport requires against DNS rebinding. A request without an
// Origin (a non-browser client) passes; so does one whose Origin is the host
// it is addressed to, or a configured origin.
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	norm := make([]string, 0, len(allowed))
	for _, a := range allowed {
		norm = append(norm, strings.TrimRight(strings.ToLower(a), "/"))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && !originAllowed(origin, r.Host, norm) {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EForbidden, "origin %q may not call this endpoint", origin).
				WithHint("add it to GTMGATE_ALLOWED_ORIGINS if it is yours"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func originAllowed(origin, host string, allowed []string) bool {
	o := strings.TrimRight(strings.ToLower(origin), "/")
	if slices.Contains(allowed, o) {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, host)
}
