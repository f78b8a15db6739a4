package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/favicon"
)

// TestFaviconOnEveryListener: the gateway, the site and the docs host each
// answer /favicon.ico with the icon, and the console's and the content
// pages' layouts link it.
func TestFaviconOnEveryListener(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	for name, base := range map[string]string{"gateway": env.GatewayURL, "site": env.SiteURL, "docs": env.DocsURL} {
		r := env.Do("GET", base+favicon.Path, nil)
		if r.Status != 200 || string(r.Body) != favicon.SVG || r.Header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("%s %s: %d %s %q", name, favicon.Path, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
	}
	link := `<link rel="icon" href="/favicon.ico" type="image/svg+xml">`
	for _, page := range []string{env.SiteURL + "/", env.DocsURL + "/", env.GatewayURL + "/console/signin"} {
		if r := env.Do("GET", page, nil); r.Status != 200 || !strings.Contains(string(r.Body), link) {
			t.Errorf("%s: %d, no icon link", page, r.Status)
		}
	}
}
