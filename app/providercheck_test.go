package app_test

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
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
