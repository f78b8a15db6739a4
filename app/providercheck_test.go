package app_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/provider/gmail"
	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// TestProvidersCheck: every demo account passes its provider's harmless
// read against the sandboxes; a refused token fails its account (and only
// it) as unauthorized; an unknown tenant is refused; a sunset version is
// reported on the account.
func TestProvidersCheck(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, nil)
	rep := env.Admin("POST", "/admin/providers/check?tenant=demo", nil).JSON(t)
	accounts := rep["accounts"].([]any)
	if rep["ok"] != true || len(accounts) < 10 {
		t.Fatalf("demo check: %v", rep)
	}
	seen := map[string]string{}
	for _, a := range accounts {
		a := a.(map[string]any)
		seen[a["provider"].(string)] = a["outcome"].(string)
		v := a["version"].(map[string]any)
		if a["outcome"] == "ok" && (a["reachable"] != true || a["authenticated"] != true || a["probe"] == "" || v["version"] == "") {
			t.Errorf("ok account without the facts: %v", a)
		}
		scopes, _ := a["scopes"].(map[string]any)
		switch p := a["provider"]; {
		case p == "brave":
			if scopes != nil {
				t.Errorf("brave uses an API key, yet scopes %v", scopes)
			}
		case p == "linkedin_ads":
			if scopes == nil || scopes["checked"] != false || scopes["note"] == "" {
				t.Errorf("linkedin scopes: %v", scopes)
			}
		default:
			if scopes == nil || scopes["checked"] != true || len(scopes["granted"].([]any)) == 0 || scopes["missing"] != nil {
				t.Errorf("%s scopes: %v", p, scopes)
			}
		}
	}
	for _, p := range []string{"hubspot", "google_ads", "meta_ads", "linkedin_ads", "ga4", "search_console", "gmail", "google_calendar", "brave", "bigquery"} {
		if seen[p] != "ok" {
			t.Errorf("%s: outcome %q, want ok (%v)", p, seen[p], seen)
		}
	}
	if seen["sheets"] != "not_checkable" {
		t.Errorf("sheets: %q", seen["sheets"])
	}

	if r := env.Admin("PUT", "/admin/tokens/demo/hubspot/portal-24681357", map[string]any{"access_token": "revoked-at-hubspot",
		"expires_at": 4102444800, "token_type": "Bearer"}); r.Status != 200 {
		t.Fatalf("put token: %d %s", r.Status, r.Body)
	}
	rep = env.Admin("POST", "/admin/providers/check?tenant=demo", nil).JSON(t)
	if rep["ok"] != false {
		t.Fatalf("a refused token passed: %v", rep)
	}
	for _, a := range rep["accounts"].([]any) {
		a := a.(map[string]any)
		bad := a["provider"] == "hubspot" && a["account_id"] == "portal-24681357"
		if bad && (a["outcome"] != "unauthorized" || a["authenticated"] != false || a["reachable"] != true) {
			t.Errorf("refused token: %v", a)
		}
		if bad && strings.Contains(a["message"].(string), "revoked-at-hubspot") {
			t.Errorf("the token leaked into the message: %v", a["message"])
		}
		if !bad && a["outcome"] != "ok" && a["outcome"] != "not_checkable" {
			t.Errorf("another account failed: %v", a)
		}
	}
	if r := env.Admin("POST", "/admin/providers/check?tenant=nobody", nil); r.Status != 404 {
		t.Errorf("unknown tenant: %d %s", r.Status, r.Body)
	}
}

// TestProvidersCheckSunsetVersion: an account whose provider is configured on
// a version past its sunset cannot work, and the check says which setting to move.
func TestProvidersCheckSunsetVersion(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, func(c *config.Config) { c.APIVersions["meta_ads"] = "v21.0" })
	rep := env.Admin("POST", "/admin/providers/check?tenant=demo", nil).JSON(t)
	if rep["ok"] != false {
		t.Fatalf("sunset version passed: %v", rep)
	}
	for _, a := range rep["accounts"].([]any) {
		a := a.(map[string]any)
		if a["provider"] != "meta_ads" {
			continue
		}
		v := a["version"].(map[string]any)
		if a["outcome"] == "ok" || v["level"] != "sunset" || !strings.Contains(a["message"].(string)+v["message"].(string), "GTMGATE_META_ADS_API_VERSION") {
			t.Errorf("meta account on a sunset version: %v", a)
		}
	}
}

// TestProvidersCheckMissingScopes: a Gmail token that may only read is
// reported missing the scopes of the sending operations, and fails the check.
func TestProvidersCheckMissingScopes(t *testing.T) {
	t.Parallel()
	info := googleapi.NewTokenInfoSandbox()
	info.Grant(gmail.SandboxToken, []string{"https://www.googleapis.com/auth/gmail.readonly"})
	srv := httptest.NewServer(info)
	t.Cleanup(srv.Close)
	env := apptest.Start(t, func(c *config.Config) { c.Upstreams[googleapi.TokenInfoProvider] = srv.URL })
	rep := env.Admin("POST", "/admin/providers/check?tenant=demo", nil).JSON(t)
	if rep["ok"] != false {
		t.Fatalf("a read-only Gmail token passed: %v", rep)
	}
	for _, a := range rep["accounts"].([]any) {
		a := a.(map[string]any)
		scopes, _ := a["scopes"].(map[string]any)
		switch a["provider"] {
		case "gmail":
			var missing []string
			for _, m := range scopes["missing"].([]any) {
				missing = append(missing, m.(map[string]any)["operation"].(string))
			}
			if a["outcome"] != "missing_scopes" || !slices.Contains(missing, "gmail.users.messages.send") ||
				slices.Contains(missing, "gmail.users.messages.list") || !strings.Contains(a["message"].(string), "needs one of") {
				t.Errorf("read-only gmail: %v", a)
			}
		case "google_calendar":
			// Not granted at this tokeninfo: the scopes cannot be read, which
			// is said and fails nothing.
			if a["outcome"] != "ok" || scopes["checked"] != false || scopes["note"] == "" {
				t.Errorf("calendar: %v", a)
			}
		}
	}
}
