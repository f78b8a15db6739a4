package app_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// connectBrowser is a browser with JavaScript off walking a connect link:
// it keeps the cookies gtmgate sets and follows no redirect by itself.
type connectBrowser struct {
	t      *testing.T
	e      *apptest.Env
	client *http.Client
	// cookies are the gateway's, by name; cookie is the last link state's.
	cookies map[string]*http.Cookie
	cookie  *http.Cookie
}

func newConnectBrowser(t *testing.T, e *apptest.Env) *connectBrowser {
	return &connectBrowser{t: t, e: e, cookies: map[string]*http.Cookie{},
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type page struct {
	status int
	header http.Header
	body   string
}

// do sends a request, with the connect cookie when the browser holds one,
// and keeps a cookie the answer sets.
func (b *connectBrowser) do(method, target string, form url.Values) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if strings.HasPrefix(target, b.e.GatewayURL) {
		for _, c := range b.cookies {
			req.AddCookie(c)
		}
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	for _, c := range resp.Cookies() {
		if !strings.HasPrefix(target, b.e.GatewayURL) {
			continue
		}
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
			continue
		}
		b.cookies[c.Name] = c
		if strings.HasPrefix(c.Name, "gtmgate_connect_cl_") {
			b.cookie = c
		}
	}
	return page{status: resp.StatusCode, header: resp.Header, body: string(raw)}
}

// gateway turns the link's URL (on GATEWAY_URL) into the test listener's.
func (b *connectBrowser) gateway(u string) string {
	return b.e.GatewayURL + strings.TrimPrefix(u, strings.TrimSuffix(b.e.Config.GatewayURL, "/"))
}

var (
	consentRequest = regexp.MustCompile(`name="request" value="([^"]+)"`)
	linkFormToken  = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

// consent opens the provider's consent page at authorize and presses
// Allow or Deny; it returns the callback's query.
func (b *connectBrowser) consent(authorize string, allow bool) string {
	b.t.Helper()
	p := b.do("GET", authorize, nil)
	m := consentRequest.FindStringSubmatch(p.body)
	if p.status != 200 || m == nil {
		b.t.Fatalf("consent page: %d %s", p.status, p.body)
	}
	decision := "deny"
	if allow {
		decision = "allow"
	}
	p = b.do("POST", strings.Split(authorize, "?")[0], url.Values{"request": {m[1]}, "decision": {decision}})
	loc, err := url.Parse(p.header.Get("Location"))
	if err != nil || p.status != http.StatusFound || loc.Path != "/connect/callback" {
		b.t.Fatalf("consent decision: %d %q", p.status, p.header.Get("Location"))
	}
	return loc.RawQuery
}

// createLink makes a connect link through the admin API.
func createLink(t *testing.T, e *apptest.Env, tenant string, body map[string]any) map[string]any {
	t.Helper()
	r := e.Admin("POST", "/admin/tenants/"+tenant+"/connect-links", body)
	if r.Status != 201 {
		t.Fatalf("create link: %d %s", r.Status, r.Body)
	}
	return r.JSON(t)
}

// openLink shows the link's page and presses Continue; it returns the
// provider's consent URL.
func (b *connectBrowser) openLink(link string) string {
	b.t.Helper()
	p := b.do("GET", link, nil)
	m := linkFormToken.FindStringSubmatch(p.body)
	if p.status != 200 || m == nil {
		b.t.Fatalf("link page: %d %s", p.status, p.body)
	}
	p = b.do("POST", link, url.Values{"csrf": {m[1]}})
	if p.status != http.StatusSeeOther || b.cookie == nil {
		b.t.Fatalf("continue: %d %s", p.status, p.body)
	}
	return p.header.Get("Location")
}

// TestConnectHubSpot: a HubSpot link for a fresh tenant, opened, consented
// on the sandbox's page, connects the portal; the tenant's tool calls then
// run on the connected token, and the audit holds neither the token nor the
// link's secret.
func TestConnectHubSpot(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) { c.SiteAddr, c.DocsAddr = "off", "off" })
	token := e.NewTenant("acme-co", nil)
	if r := e.Tool(token, "acme-co", "crm", "crm_contacts", listInput()); r.Status == 200 {
		t.Fatalf("a tenant with no account called HubSpot: %s", r.Body)
	}
	created := createLink(t, e, "acme-co", map[string]any{"provider": "hubspot"})
	linkURL, _ := created["url"].(string)
	secret := strings.TrimPrefix(linkURL, strings.TrimSuffix(e.Config.GatewayURL, "/")+"/connect/")
	if len(secret) < 22 || created["redirect_uri"] != strings.TrimSuffix(e.Config.GatewayURL, "/")+"/connect/callback" ||
		!strings.HasPrefix(created["id"].(string), "cl_") {
		t.Fatalf("created: %v", created)
	}
	b := newConnectBrowser(t, e)
	link := b.gateway(linkURL)

	p := b.do("GET", link, nil)
	for _, want := range []string{"Tenant acme-co", "acme-co", "HubSpot", "crm.objects.contacts.read", "Read your HubSpot contacts",
		"gtmgate asks to connect your HubSpot account", "Continue to HubSpot"} {
		if !strings.Contains(p.body, want) {
			t.Errorf("link page lacks %q", want)
		}
	}
	for h, want := range map[string]string{"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"} {
		if p.header.Get(h) != want {
			t.Errorf("%s = %q", h, p.header.Get(h))
		}
	}
	if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") ||
		!strings.Contains(csp, "form-action 'self' "+e.App.ConnectBases()["hubspot_app"]+";") {
		t.Errorf("CSP = %q", p.header.Get("Content-Security-Policy"))
	}

	authorize := b.openLink(link)
	if !strings.HasPrefix(authorize, e.App.ConnectBases()["hubspot_app"]+"/oauth/authorize?") || !b.cookie.HttpOnly ||
		b.cookie.SameSite != http.SameSiteLaxMode || b.cookie.Path != "/connect/" {
		t.Fatalf("continue: %q cookie %+v", authorize, b.cookie)
	}
	callback := b.consent(authorize, true)
	done := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil)
	if done.status != 200 || !strings.Contains(done.body, "HubSpot portal") {
		t.Fatalf("callback: %d %s", done.status, done.body)
	}

	if r := e.Tool(token, "acme-co", "crm", "crm_contacts", listInput()); r.Status != 200 {
		t.Fatalf("tool call with the connected token: %d %s", r.Status, r.Body)
	}
	// The tenant now holds the portal, and its refresh record is described
	// as the OpenAPI document says (apptest checks the answer against it).
	tenant := e.Admin("GET", "/admin/tenants/acme-co", nil)
	if tenant.Status != 200 || !strings.Contains(string(tenant.Body), `"oauth_refresh":[{`) || !strings.Contains(string(tenant.Body), `"has_token":true`) {
		t.Errorf("tenant: %d %s", tenant.Status, tenant.Body)
	}
	tokens := e.Admin("GET", "/admin/tenants/acme-co/provider-tokens", nil)
	if !strings.Contains(string(tokens.Body), `"provider":"hubspot"`) {
		t.Errorf("provider tokens: %s", tokens.Body)
	}
	list := e.Admin("GET", "/admin/connect-links?tenant=acme-co", nil)
	if !strings.Contains(string(list.Body), `"status":"completed"`) || !strings.Contains(string(list.Body), "connected HubSpot portal") ||
		strings.Contains(string(list.Body), secret) {
		t.Errorf("list: %s", list.Body)
	}
	refresh := e.Admin("GET", "/admin/oauth-refresh?tenant=acme-co", nil)
	if !strings.Contains(string(refresh.Body), `"provider":"hubspot"`) {
		t.Errorf("refresher not seeded: %s", refresh.Body)
	}

	// A replayed callback is refused and changes nothing.
	before := e.Admin("GET", "/admin/tenants/acme-co/provider-tokens", nil)
	if again := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil); again.status != http.StatusConflict {
		t.Errorf("replayed callback: %d %s", again.status, again.body)
	}
	if after := e.Admin("GET", "/admin/tenants/acme-co/provider-tokens", nil); string(after.Body) != string(before.Body) {
		t.Errorf("the replay changed the provider tokens:\n%s\n%s", before.Body, after.Body)
	}
	if again := b.do("GET", link, nil); again.status != http.StatusGone {
		t.Errorf("used link: %d", again.status)
	}

	audit := e.Admin("GET", "/admin/audit?tenant=acme-co&limit=100", nil)
	for _, want := range []string{"connect link created", "connect.opened", "connect.completed"} {
		if !strings.Contains(string(audit.Body), want) {
			t.Errorf("audit lacks %q: %s", want, audit.Body)
		}
	}
	code, _ := url.ParseQuery(callback)
	for _, s := range []string{secret, code.Get("code"), code.Get("state"), b.cookie.Value} {
		if strings.Contains(string(audit.Body), s) || strings.Contains(string(list.Body), s) {
			t.Errorf("a secret (%.6s…) is in the audit or the list", s)
		}
	}
}

// TestConnectAfterDemoRestart: serve --demo on a data directory it used
// before still connects accounts: the demo's OAuth apps take the client
// secrets the sandboxes made at this start (issue #43 item 8), and an
// operator's own app is left alone.
func TestConnectAfterDemoRestart(t *testing.T) {
	dir := t.TempDir()
	first := apptest.Start(t, func(c *config.Config) { c.DataDir, c.SiteAddr, c.DocsAddr = dir, "off", "off" })
	if r := first.Admin("PUT", "/admin/oauth-apps/meta", map[string]any{"client_id": "operators-own-meta-app", "client_secret": "own"}); r.Status != 200 {
		t.Fatalf("operator's meta app: %d %s", r.Status, r.Body)
	}
	if err := first.App.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	e := apptest.Start(t, func(c *config.Config) { c.DataDir, c.SiteAddr, c.DocsAddr = dir, "off", "off" })
	token := e.NewTenant("again-co", nil)
	b := newConnectBrowser(t, e)
	created := createLink(t, e, "again-co", map[string]any{"provider": "hubspot"})
	link := b.gateway(created["url"].(string))
	callback := b.consent(b.openLink(link), true)
	if done := b.do("GET", e.GatewayURL+"/connect/callback?"+callback, nil); done.status != 200 || !strings.Contains(done.body, "HubSpot portal") {
		t.Fatalf("callback after a restart: %d %s", done.status, done.body)
	}
	if r := e.Tool(token, "again-co", "crm", "crm_contacts", listInput()); r.Status != 200 {
		t.Errorf("tool call with the connected token: %d %s", r.Status, r.Body)
	}
	if r := e.Admin("GET", "/admin/oauth-apps/meta", nil); !strings.Contains(string(r.Body), "operators-own-meta-app") {
		t.Errorf("the operator's own app was replaced: %s", r.Body)
	}
}
