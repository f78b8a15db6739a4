package admincli_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/admincli"
	"github.com/gtmgate/gtmgate/app/apptest"
)

// TestReauthCLI: reauth lists an account whose token cannot be refreshed
// and expires soon; reconnect prints a connect link for its family, hinted
// at the account.
func TestReauthCLI(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	now := time.Date(2040, 1, 1, 12, 0, 0, 0, time.UTC)
	env.App.SetConnectClock(func() time.Time { return now })
	account := "act_1012345678901234"
	if r := env.Admin("PUT", "/admin/tokens/demo/meta_ads/"+account, map[string]any{"access_token": "long-lived",
		"expires_at": now.Add(48 * time.Hour).Unix(), "token_type": "Bearer"}); r.Status != 200 {
		t.Fatalf("store token: %d %s", r.Status, r.Body)
	}
	sent := &bodies{}
	c := cli{t: t, env: map[string]string{"GTMGATE_GATEWAY_URL": env.GatewayURL, "GTMGATE_ADMIN_KEY": apptest.AdminKey},
		http: &http.Client{Transport: sent}}

	list := c.ok("reauth", "--tenant", "demo")
	if !strings.HasPrefix(list, "TENANT") || !strings.Contains(list, account) || !strings.Contains(list, "expiring") {
		t.Fatalf("reauth:\n%s", list)
	}
	url := strings.TrimSpace(c.ok("reconnect", "demo", "meta_ads", account))
	if !strings.HasPrefix(url, strings.TrimSuffix(env.Config.GatewayURL, "/")+"/connect/") {
		t.Fatalf("reconnect printed %q", url)
	}
	if got := sent.last(); got["provider"] != "meta" || got["account_hint"] != account {
		t.Fatalf("reconnect sent %v", got)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		want    int
		mention string
	}{
		{"no account", []string{"reconnect", "demo", "meta_ads"}, admincli.ExitUsage, "ACCOUNT"},
		{"no connect flow", []string{"reconnect", "demo", "brave", "x"}, admincli.ExitUsage, "brave"},
		{"unknown tenant", []string{"reauth", "--tenant", "nobody"}, admincli.ExitRefused, "TENANT_NOT_FOUND"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := c.run("", tc.args...)
			if code != tc.want || !strings.Contains(errs, tc.mention) {
				t.Errorf("%v: exit %d, want %d mentioning %q: %s", tc.args, code, tc.want, tc.mention, errs)
			}
		})
	}
}
