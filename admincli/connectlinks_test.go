package admincli_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestConnectLinkCLI: connect-link prints the link's URL (the whole answer
// with --output json) and sends the hint, expiry and read-only choice;
// connect-links lists them without their secrets.
func TestConnectLinkCLI(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	sent := &bodies{}
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL, "GTMGATE_ADMIN_KEY": apptest.AdminKey},
		http: &http.Client{Transport: sent}}
	base := strings.TrimSuffix(env.Config.GatewayURL, "/") + "/connect/"

	url := strings.TrimSpace(c.ok("connect-link", "demo", "hubspot"))
	if !strings.HasPrefix(url, base) || strings.Contains(url, "\n") {
		t.Fatalf("connect-link printed %q", url)
	}
	out := c.ok("connect-link", "demo", "google", "--hint", "123-456-7890", "--expires", "1h", "--read-only", "--output", "json")
	var created struct {
		ID, URL string
		Scopes  []string
	}
	if err := json.Unmarshal([]byte(out), &created); err != nil || !strings.HasPrefix(created.ID, "cl_") || !strings.HasPrefix(created.URL, base) {
		t.Fatalf("connect-link --output json: %v\n%s", err, out)
	}
	if got := sent.last(); got["account_hint"] != "123-456-7890" || got["expires_in"] != float64(3600) || got["read_only"] != true || got["provider"] != "google" {
		t.Fatalf("connect-link sent %v", got)
	}

	list := c.ok("connect-links", "--tenant", "demo")
	if !strings.HasPrefix(list, "ID") || !strings.Contains(list, created.ID) || !strings.Contains(list, "created") ||
		strings.Contains(list, strings.TrimPrefix(url, base)) || strings.Contains(list, strings.TrimPrefix(created.URL, base)) {
		t.Fatalf("connect-links:\n%s", list)
	}

	for _, tc := range []struct {
		name    string
		args    []string
		want    int
		mention string
	}{
		{"no provider", []string{"connect-link", "demo"}, admincli.ExitUsage, "TENANT PROVIDER"},
		{"unknown provider", []string{"connect-link", "demo", "pipedrive"}, admincli.ExitRefused, "google, hubspot, meta, linkedin"},
		{"unknown tenant", []string{"connect-link", "nobody", "hubspot"}, admincli.ExitRefused, "TENANT_NOT_FOUND"},
		{"bad expiry", []string{"connect-link", "demo", "hubspot", "--expires", "soon"}, admincli.ExitUsage, "expires"},
		{"expiry too long", []string{"connect-link", "demo", "hubspot", "--expires", "200h"}, admincli.ExitRefused, "expires_in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := c.run("", tc.args...)
			if code != tc.want || !strings.Contains(errs, tc.mention) {
				t.Errorf("%v: exit %d, want %d mentioning %q: %s", tc.args, code, tc.want, tc.mention, errs)
			}
		})
	}
}
