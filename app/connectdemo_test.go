package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/oauthapps"
	"github.com/gtmgate/gtmgate/provider/googleads"
	"github.com/gtmgate/gtmgate/provider/oauthsandbox/consenttest"
)

// TestDemoConnectSandboxes: under --demo every connect provider family has
// a sandbox authorization server with a demo OAuth app whose one redirect
// URI is the gateway's connect callback, their bases are exposed by
// upstream key (an override wins), and a Google grant made on the consent
// page over HTTP calls a Google product sandbox.
func TestDemoConnectSandboxes(t *testing.T) {
	t.Parallel()
	e := apptest.Start(t, func(c *config.Config) {
		c.SiteAddr, c.DocsAddr = "off", "off"
		c.Upstreams["hubspot_app"] = "http://127.0.0.1:9/"
	})
	bases, apps := e.App.ConnectBases(), e.App.DemoOAuthApps()
	for _, key := range []string{"google_accounts", "google_oauth", "google_openid", "hubspot", "meta_web", "meta_ads", "linkedin_oauth", "gmail", "ga4", "ga4_admin", "google_ads", "search_console", "bigquery"} {
		if !strings.HasPrefix(bases[key], "http://127.0.0.1:") {
			t.Errorf("base of %s = %q", key, bases[key])
		}
	}
	if bases["hubspot_app"] != "http://127.0.0.1:9/" {
		t.Errorf("hubspot_app override not honoured: %q", bases["hubspot_app"])
	}
	for _, family := range []string{"google", "hubspot", "meta", "linkedin"} {
		a := apps[family]
		if a.Provider != family || a.ClientID != "gtmgate-demo-"+family || len(a.ClientSecret) < 20 {
			t.Errorf("demo app %s = %+v", family, a.ClientID)
		}
	}

	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	authorize := func(redirect string) string {
		return bases["google_accounts"] + "/o/oauth2/v2/auth?" + url.Values{"client_id": {apps["google"].ClientID},
			"redirect_uri": {redirect}, "response_type": {"code"}, "scope": {"openid email https://www.googleapis.com/auth/gmail.readonly"},
			"state": {"st"}, "access_type": {"offline"}, "code_challenge": {consenttest.Challenge(consenttest.Verifier)},
			"code_challenge_method": {"S256"}}.Encode()
	}
	// Only the connect callback is registered: another redirect URI is
	// refused on the sandbox's page, as Google refuses it.
	resp, err := noFollow.Get(authorize("http://127.0.0.1:1/connect/callback"))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || resp.Header.Get("Location") != "" || !strings.Contains(string(page), "redirect_uri_mismatch") {
		t.Errorf("an unregistered redirect URI: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	redirect := oauthapps.RedirectURI(e.Config.GatewayURL)
	auth := authorize(redirect)
	resp, err = http.Get(auth)
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="request" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("consent page: %d %s", resp.StatusCode, page)
	}
	resp, err = noFollow.PostForm(strings.Split(auth, "?")[0], url.Values{"request": {string(m[1])}, "decision": {"allow"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	resp, err = http.PostForm(bases["google_oauth"]+"/token", url.Values{"grant_type": {"authorization_code"},
		"code": {loc.Query().Get("code")}, "redirect_uri": {redirect}, "code_verifier": {consenttest.Verifier},
		"client_id": {apps["google"].ClientID}, "client_secret": {apps["google"].ClientSecret}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if resp.StatusCode != 200 || tok.AccessToken == "" || tok.RefreshToken == "" {
		t.Fatalf("token exchange: %d", resp.StatusCode)
	}
	// The grant reaches every Google product and each discovery answer.
	for _, target := range []string{bases["gmail"] + "/gmail/v1/users/me/messages?maxResults=1", bases["google_openid"] + "/v1/userinfo",
		bases["google_ads"] + "/" + googleads.DefaultVersion() + "/customers:listAccessibleCustomers",
		bases["ga4_admin"] + "/v1beta/accountSummaries", bases["search_console"] + "/webmasters/v3/sites",
		bases["bigquery"] + "/bigquery/v2/projects"} {
		req, _ := http.NewRequest("GET", target, nil)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s with the issued token: %d", target, resp.StatusCode)
		}
	}
}
