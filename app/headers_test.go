package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestSecurityHeaders checks each surface's header middleware through the
// real listeners: content pages get a script-free CSP and are not frameable;
// admin answers are never cached.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	for _, tc := range []struct {
		name string
		do   func() *apptest.Response
		want map[string]string
	}{
		{"site page", func() *apptest.Response { return env.Do("GET", env.SiteURL+"/about", nil, "Accept", "text/html") }, map[string]string{
			"Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY",
			"Referrer-Policy": "strict-origin-when-cross-origin", "X-Content-Type-Options": "nosniff"}},
		{"site markdown", func() *apptest.Response { return env.Do("GET", env.SiteURL+"/about.md", nil) }, map[string]string{
			"Content-Security-Policy": "default-src 'none'", "X-Content-Type-Options": "nosniff"}},
		{"site 404", func() *apptest.Response { return env.Do("GET", env.SiteURL+"/nope", nil, "Accept", "text/html") }, map[string]string{
			"Content-Security-Policy": "default-src 'none'", "X-Frame-Options": "DENY"}},
		{"docs page", func() *apptest.Response { return env.Do("GET", env.DocsURL+"/", nil, "Accept", "text/html") }, map[string]string{
			"Content-Security-Policy": "style-src 'self'", "X-Frame-Options": "DENY", "Referrer-Policy": "strict-origin-when-cross-origin"}},
		{"gateway health", func() *apptest.Response { return env.Do("GET", env.GatewayURL+"/health", nil) }, map[string]string{
			"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}},
		{"admin", func() *apptest.Response { return env.Admin("GET", "/admin/tenants", nil) }, map[string]string{
			"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}},
		{"admin refusal", func() *apptest.Response { return env.Do("GET", env.GatewayURL+"/admin/tenants", nil) }, map[string]string{
			"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.do()
			for k, want := range tc.want {
				if got := r.Header.Get(k); !strings.Contains(got, want) {
					t.Errorf("%s = %q, want it to contain %q", k, got, want)
				}
			}
			if csp := r.Header.Get("Content-Security-Policy"); strings.Contains(csp, "script-src") || strings.Contains(csp, "unsafe") {
				t.Errorf("CSP allows script or unsafe sources: %q", csp)
			}
		})
	}
}
