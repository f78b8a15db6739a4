package app_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

var pickerChoice = regexp.MustCompile(`name="account" value="([^"]+)"`)

// TestConnectGooglePicker: a Google grant reaches several accounts, so the
// person picks; the chosen ones, and only they, are connected, and a Gmail
// call runs on the connected token.
func TestConnectGooglePicker(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	token := e.NewTenant("globex", nil)
	created := createLink(t, e, "globex", map[string]any{"provider": "google", "read_only": true})
	b := newConnectBrowser(t, e)
	link := b.gateway(created["url"].(string))
	if p := b.do("GET", link, nil); !strings.Contains(p.body, "gmail.readonly") || strings.Contains(p.body, "gmail.send") {
		t.Errorf("read-only link page: %s", p.body)
	}
	callback := b.consent(b.openLink(link), true)
	picker := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil)
	choices := pickerChoice.FindAllStringSubmatch(picker.body, -1)
	if picker.status != 200 || len(choices) < 2 || !strings.Contains(picker.body, "GA4 properties") {
		t.Fatalf("picker: %d %s", picker.status, picker.body)
	}
	var chosen []string
	var ga4 string
	for _, c := range choices {
		if v := c[1]; strings.HasPrefix(v, "gmail:") || (ga4 == "" && strings.HasPrefix(v, "ga4:")) {
			chosen = append(chosen, v)
			if strings.HasPrefix(v, "ga4:") {
				ga4 = v
			}
		}
	}
	if len(chosen) != 2 {
		t.Fatalf("no gmail and ga4 choices in %v", choices)
	}
	state, _ := url.ParseQuery(callback)

	// Without the cookie, the choice is refused.
	stranger := newConnectBrowser(t, e)
	if p := stranger.do("POST", e.GatewayURL+"/connect/choose", url.Values{"state": {state.Get("state")}, "account": chosen}); p.status != http.StatusForbidden {
		t.Errorf("choice from another browser: %d", p.status)
	}
	done := b.do("POST", e.GatewayURL+"/connect/choose", url.Values{"state": {state.Get("state")}, "account": chosen})
	if done.status != 200 || !strings.Contains(done.body, "Gmail mailbox") || !strings.Contains(done.body, "GA4 property") {
		t.Fatalf("choose: %d %s", done.status, done.body)
	}
	tokens := e.Admin("GET", "/admin/tenants/globex/provider-tokens", nil)
	if strings.Count(string(tokens.Body), `"account_id"`) != 2 || !strings.Contains(string(tokens.Body), strings.TrimPrefix(ga4, "ga4:")) {
		t.Errorf("provider tokens: %s", tokens.Body)
	}
	if r := e.Tool(token, "globex", "email", "email_messages", map[string]any{"action": "list", "rationale": "test"}); r.Status != 200 {
		t.Errorf("gmail call with the connected token: %d %s", r.Status, r.Body)
	}
	if again := b.do("POST", e.GatewayURL+"/connect/choose", url.Values{"state": {state.Get("state")}, "account": chosen}); again.status != http.StatusConflict {
		t.Errorf("second choice: %d", again.status)
	}
}

// TestConnectRefusals: wrong state, missing or another browser's cookie,
// an expired link and a denied consent are refused with a page, and store
// nothing.
func TestConnectRefusals(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	e.NewTenant("initech", nil)
	nothingStored := func(t *testing.T) {
		t.Helper()
		if r := e.Admin("GET", "/admin/tenants/initech/provider-tokens", nil); strings.Contains(string(r.Body), `"account_id"`) {
			t.Errorf("a token was stored: %s", r.Body)
		}
	}

	if r := e.Admin("POST", "/admin/tenants/nobody/connect-links", map[string]any{"provider": "hubspot"}); r.ErrorCode(t) != "TENANT_NOT_FOUND" {
		t.Errorf("unknown tenant: %d %s", r.Status, r.Body)
	}
	if r := e.Admin("POST", "/admin/tenants/initech/connect-links", map[string]any{"provider": "pipedrive"}); r.ErrorCode(t) != "VALIDATION_ERROR" {
		t.Errorf("unknown provider: %d %s", r.Status, r.Body)
	}
	if r := e.Admin("DELETE", "/admin/oauth-apps/linkedin", nil); r.Status != 200 {
		t.Fatalf("delete app: %d", r.Status)
	}
	if r := e.Admin("POST", "/admin/tenants/initech/connect-links", map[string]any{"provider": "linkedin"}); r.Status != 400 ||
		!strings.Contains(string(r.Body), "PUT /admin/oauth-apps/linkedin") {
		t.Errorf("no app: %d %s", r.Status, r.Body)
	}
	if p := newConnectBrowser(t, e).do("GET", e.GatewayURL+"/connect/"+strings.Repeat("x", 43), nil); p.status != 404 ||
		!strings.Contains(p.body, "new connect link") {
		t.Errorf("unknown link: %d %s", p.status, p.body)
	}

	t.Run("wrong state", func(t *testing.T) {
		b := newConnectBrowser(t, e)
		created := createLink(t, e, "initech", map[string]any{"provider": "hubspot"})
		callback := b.consent(b.openLink(b.gateway(created["url"].(string))), true)
		q, _ := url.ParseQuery(callback)
		q.Set("state", q.Get("state")+"x")
		if p := b.do("GET", e.GatewayURL+"/connect/callback?"+q.Encode(), nil); p.status != 400 {
			t.Errorf("wrong state: %d %s", p.status, p.body)
		}
		nothingStored(t)
	})
	t.Run("cookie", func(t *testing.T) {
		b := newConnectBrowser(t, e)
		created := createLink(t, e, "initech", map[string]any{"provider": "hubspot"})
		callback := b.consent(b.openLink(b.gateway(created["url"].(string))), true)
		stranger := newConnectBrowser(t, e)
		if p := stranger.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil); p.status != http.StatusForbidden {
			t.Errorf("no cookie: %d %s", p.status, p.body)
		}
		stranger.cookies[b.cookie.Name] = &http.Cookie{Name: b.cookie.Name, Value: "someone-else"}
		if p := stranger.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil); p.status != http.StatusForbidden {
			t.Errorf("another cookie: %d %s", p.status, p.body)
		}
		nothingStored(t)
		// The link is left to its owner, who can still finish.
		if p := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil); p.status != 200 {
			t.Errorf("owner after a stranger: %d %s", p.status, p.body)
		}
	})
	t.Run("denied", func(t *testing.T) {
		e2 := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
		e2.NewTenant("initech", nil)
		b := newConnectBrowser(t, e2)
		created := createLink(t, e2, "initech", map[string]any{"provider": "hubspot"})
		callback := b.consent(b.openLink(b.gateway(created["url"].(string))), false)
		p := b.do("GET", e2.GatewayURL+"/connect/callback?"+callback, nil)
		if p.status != http.StatusForbidden || !strings.Contains(p.body, "Nothing was connected") {
			t.Errorf("denied: %d %s", p.status, p.body)
		}
		if r := e2.Admin("GET", "/admin/tenants/initech/provider-tokens", nil); strings.Contains(string(r.Body), `"account_id"`) {
			t.Errorf("a token was stored: %s", r.Body)
		}
		list := e2.Admin("GET", "/admin/connect-links?tenant=initech", nil)
		if !strings.Contains(string(list.Body), `"status":"failed"`) {
			t.Errorf("denied link: %s", list.Body)
		}
		if audit := e2.Admin("GET", "/admin/audit?tenant=initech&action=connect.failed", nil); !strings.Contains(string(audit.Body), "consent was refused") {
			t.Errorf("audit: %s", audit.Body)
		}
	})
	t.Run("expired", func(t *testing.T) {
		e3 := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
		e3.NewTenant("initech", nil)
		b := newConnectBrowser(t, e3)
		created := createLink(t, e3, "initech", map[string]any{"provider": "hubspot", "expires_in": 60})
		link := b.gateway(created["url"].(string))
		callback := b.consent(b.openLink(link), true)
		e3.App.SetConnectClock(func() time.Time { return time.Now().Add(2 * time.Minute) })
		if p := b.do("GET", e3.GatewayURL+"/connect/callback?"+callback, nil); p.status != http.StatusGone {
			t.Errorf("expired at the callback: %d %s", p.status, p.body)
		}
		if r := e3.Admin("GET", "/admin/tenants/initech/provider-tokens", nil); strings.Contains(string(r.Body), `"account_id"`) {
			t.Errorf("a token was stored: %s", r.Body)
		}
		fresh := createLink(t, e3, "initech", map[string]any{"provider": "hubspot", "expires_in": 60})
		e3.App.SetConnectClock(func() time.Time { return time.Now().Add(10 * time.Minute) })
		if p := b.do("GET", b.gateway(fresh["url"].(string)), nil); p.status != http.StatusGone || !strings.Contains(p.body, "expired") {
			t.Errorf("expired link page: %d %s", p.status, p.body)
		}
	})
}

// TestConnectOneProduct: a link may name one product (google_ads) or list
// products of a family; it asks only for their scopes, finds only their
// accounts, and a product of another family is refused (issue #43 item 13).
func TestConnectOneProduct(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	e.NewTenant("adsonly", nil)
	created := createLink(t, e, "adsonly", map[string]any{"provider": "google_ads"})
	scopes, _ := created["scopes"].([]any)
	if created["provider"] != "google" || fmt.Sprint(created["products"]) != "[google_ads]" || len(scopes) != 1 ||
		scopes[0] != "https://www.googleapis.com/auth/adwords" {
		t.Fatalf("a Google Ads link: provider %v products %v scopes %v", created["provider"], created["products"], scopes)
	}
	b := newConnectBrowser(t, e)
	link := b.gateway(created["url"].(string))
	callback := b.consent(b.openLink(link), true)
	page := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil)
	if page.status != 200 || strings.Contains(page.body, "GA4") || strings.Contains(page.body, "Gmail") || !strings.Contains(page.body, "Google Ads") {
		t.Fatalf("callback of a Google Ads link: %d %s", page.status, page.body)
	}

	two := createLink(t, e, "adsonly", map[string]any{"provider": "google", "products": []string{"gmail", "ga4", "gmail"}})
	if fmt.Sprint(two["products"]) != "[ga4 gmail]" || strings.Contains(fmt.Sprint(two["scopes"]), "adwords") ||
		!strings.Contains(fmt.Sprint(two["scopes"]), "analytics.readonly") {
		t.Errorf("a GA4 and Gmail link: products %v scopes %v", two["products"], two["scopes"])
	}
	for _, body := range []map[string]any{
		{"provider": "google", "products": []string{"hubspot"}},
		{"provider": "meta_ads", "products": []string{"gmail"}},
		{"provider": "salesforce"},
	} {
		if r := e.Admin("POST", "/admin/tenants/adsonly/connect-links", body); r.Status != 400 || r.ErrorCode(t) != "VALIDATION_ERROR" {
			t.Errorf("link %v: %d %s", body, r.Status, r.Body)
		}
	}
}
