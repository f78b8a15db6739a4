package middleware

import "net/http"

// Headers sets fixed response headers on every response of a surface, before
// the handler runs (so a handler can still override one). The values are
// built once; each response costs a few map assignments.
func Headers(fields map[string]string) func(http.Handler) http.Handler {
	canon := make(map[string][]string, len(fields))
	for k, v := range fields {
		canon[http.CanonicalHeaderKey(k)] = []string{v}
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			for k, v := range canon {
				h[k] = v
			}
			next.ServeHTTP(w, r)
		})
	}
}

// ContentSecurityHeaders are the site's and docs host's headers: pages use
// no script at all and only their own stylesheet, so the policy allows no
// script, no framing (clickjacking), no plugin and no base or form target
// elsewhere; images may come from the page's own origin or any https host
// (content may show them).
var ContentSecurityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' https: data:; " +
		"form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
	"X-Frame-Options":        "DENY",
	"Referrer-Policy":        "strict-origin-when-cross-origin",
	"X-Content-Type-Options": "nosniff",
}

// GatewayHeaders are the gateway's headers: JSON APIs, never framed.
var GatewayHeaders = map[string]string{
	"X-Content-Type-Options": "nosniff",
	"X-Frame-Options":        "DENY",
	"Referrer-Policy":        "no-referrer",
}

// AdminHeaders are the admin API's headers: its answers hold tenant
// configuration and audit data that no cache may keep.
var AdminHeaders = map[string]string{
	"Cache-Control":          "no-store",
	"Pragma":                 "no-cache",
	"X-Content-Type-Options": "nosniff",
}
