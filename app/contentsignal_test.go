package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// TestContentSignalSetting: GTMGATE_CONTENT_SIGNAL reaches every agent-facing
// response of the site through the real listeners, and the docs host keeps
// the default.
func TestContentSignalSetting(t *testing.T) {
	t.Parallel()
	loaded, err := config.Load(nil, []string{"GTMGATE_CONTENT_SIGNAL=search=yes, ai-input=yes, ai-train=no"})
	if err != nil {
		t.Fatal(err)
	}
	env := apptest.Start(t, func(c *config.Config) {
		c.Demo = false
		c.ContentSignal = loaded.ContentSignal
	})
	const site, docs = "search=yes, ai-train=no, ai-input=yes", "search=yes, ai-train=yes, ai-input=yes"
	for _, tc := range []struct {
		url, want string
		header    []string
	}{
		{env.SiteURL + "/about.md", site, nil},
		{env.SiteURL + "/about", site, []string{"Accept", "text/markdown"}},
		{env.SiteURL + "/robots.txt", site, nil},
		{env.SiteURL + "/llms.txt", site, nil},
		{env.SiteURL + "/llms-full.txt", site, nil},
		{env.SiteURL + "/.well-known/mcp/server-card.json", site, nil},
		{env.SiteURL + "/public-mcp", site, []string{"Accept", "application/json"}},
		{env.DocsURL + "/robots.txt", docs, nil},
		{env.DocsURL + "/llms.txt", docs, nil},
	} {
		r := env.Do("GET", tc.url, nil, tc.header...)
		if r.Status != 200 || r.Header.Get("Content-Signal") != tc.want {
			t.Errorf("GET %s: %d, Content-Signal %q, want %q", tc.url, r.Status, r.Header.Get("Content-Signal"), tc.want)
		}
		if strings.HasSuffix(tc.url, "/robots.txt") && !strings.Contains(string(r.Body), "\nContent-Signal: "+tc.want+"\n") {
			t.Errorf("%s:\n%s", tc.url, r.Body)
		}
	}
}
