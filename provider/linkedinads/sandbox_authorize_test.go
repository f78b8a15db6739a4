package linkedinads

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox/consenttest"
)

const linkedinRedirect = "https://gw.example/connect/callback"

func linkedinAuthorize() string {
	return "/oauth/v2/authorization?" + url.Values{"response_type": {"code"}, "client_id": {SandboxClientID},
		"redirect_uri": {linkedinRedirect}, "state": {"l1"}, "scope": {"r_ads r_ads_reporting \"x\""}}.Encode()
}

func linkedinToken(t *testing.T, h http.Handler, form url.Values) (int, map[string]any) {
	t.Helper()
	return consenttest.PostJSON(t, h, "/oauth/v2/accessToken", form)
}

func TestSandboxLinkedInConsent(t *testing.T) {
	t.Parallel()
	s := NewSandbox().Handler.(*Sandbox)
	page := consenttest.Page(t, s, linkedinAuthorize()).Body.String()
	for _, want := range []string{"LinkedIn sandbox — consent", SandboxClientID, "r_ads_reporting", "&#34;x&#34;"} {
		if !strings.Contains(page, want) {
			t.Errorf("consent page lacks %q", want)
		}
	}
	if _, secret := s.OAuthClient(); strings.Contains(page, secret) {
		t.Error("consent page shows the secret")
	}
	if w := consenttest.Page(t, s, "/oauth/v2/authorization?response_type=code&client_id=x&redirect_uri="+url.QueryEscape(linkedinRedirect)); w.Code != 400 || w.Header().Get("Location") != "" {
		t.Errorf("unknown client: %d %q", w.Code, w.Header().Get("Location"))
	}
	deny := consenttest.Decide(t, s, linkedinAuthorize(), false).Query()
	if deny.Get("error") != "user_cancelled_authorize" || deny.Get("state") != "l1" {
		t.Errorf("deny: %v", deny)
	}
}

func TestSandboxLinkedInTokens(t *testing.T) {
	t.Parallel()
	s := NewSandbox().Handler.(*Sandbox)
	id, secret := s.OAuthClient()
	code := consenttest.Decide(t, s, linkedinAuthorize(), true).Query().Get("code")
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {id}, "client_secret": {secret},
		"redirect_uri": {linkedinRedirect}}
	status, tok := linkedinToken(t, s, form)
	if status != 200 || tok["expires_in"] != float64(5184000) || tok["refresh_token"] == nil || tok["scope"] != `r_ads,r_ads_reporting,"x"` {
		t.Fatalf("exchange: %d %v", status, tok)
	}
	if status, replay := linkedinToken(t, s, form); status != 400 || replay["error"] != "invalid_request" {
		t.Errorf("replay: %d %v", status, replay)
	}
	status, again := linkedinToken(t, s, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)},
		"client_id": {id}, "client_secret": {secret}})
	if status != 200 || again["refresh_token"] != tok["refresh_token"] || again["access_token"] == tok["access_token"] {
		t.Errorf("refresh: %d %v", status, again)
	}
	if status, bad := linkedinToken(t, s, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}, "client_id": {id}, "client_secret": {"no"}}); status != 401 || bad["error"] != "invalid_client" {
		t.Errorf("wrong secret: %d %v", status, bad)
	}

	// The issued token reaches the Marketing API and its account search.
	for _, target := range []string{"/rest/adAccounts?q=search&search=(status:(values:List(ACTIVE)))", "/rest/adAccounts/508123456"} {
		r := httptest.NewRequest("GET", target, nil)
		r.Header.Set("Authorization", "Bearer "+again["access_token"].(string))
		r.Header.Set("LinkedIn-Version", catalogue().Newest())
		r.Header.Set("X-Restli-Protocol-Version", "2.0.0")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != 200 || !strings.Contains(w.Body.String(), "508123456") {
			t.Errorf("%s with the issued token: %d %s", target, w.Code, w.Body)
		}
	}
}
