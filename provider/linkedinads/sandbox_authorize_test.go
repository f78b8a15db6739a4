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
	return linkedinAuthorizeWith(linkedinRedirect, "r_ads r_ads_reporting")
}

func linkedinAuthorizeWith(redirect, scope string) string {
	return "/oauth/v2/authorization?" + url.Values{"response_type": {"code"}, "client_id": {SandboxClientID},
		"redirect_uri": {redirect}, "state": {"l1"}, "scope": {scope}}.Encode()
}

// newRegisteredSandbox is a sandbox whose app has linkedinRedirect registered.
func newRegisteredSandbox() *Sandbox {
	s := NewSandbox().Handler.(*Sandbox)
	s.RegisterOAuthClient(linkedinRedirect)
	return s
}

func linkedinToken(t *testing.T, h http.Handler, form url.Values) (int, map[string]any) {
	t.Helper()
	return consenttest.PostJSON(t, h, "/oauth/v2/accessToken", form)
}

func TestSandboxLinkedInConsent(t *testing.T) {
	t.Parallel()
	s := newRegisteredSandbox()
	page := consenttest.Page(t, s, linkedinAuthorize()).Body.String()
	for _, want := range []string{"LinkedIn sandbox — consent", SandboxClientID, "r_ads_reporting"} {
		if !strings.Contains(page, want) {
			t.Errorf("consent page lacks %q", want)
		}
	}
	if _, secret := s.RegisterOAuthClient(); strings.Contains(page, secret) {
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

// TestSandboxLinkedInRefusals: a redirect_uri the app did not register
// gets LinkedIn's error page and no redirect; a scope it is not authorized
// for comes back on the registered redirect as unauthorized_scope_error.
func TestSandboxLinkedInRefusals(t *testing.T) {
	t.Parallel()
	s := newRegisteredSandbox()
	for _, redirect := range []string{"https://evil.example/connect/callback", linkedinRedirect + "/"} {
		w := consenttest.Page(t, s, linkedinAuthorizeWith(redirect, "r_ads"))
		if body := w.Body.String(); w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" ||
			!strings.Contains(body, "Bummer, something went wrong.") || !strings.Contains(body, "The redirect_uri does not match the registered value") {
			t.Errorf("%s: %d %q, want LinkedIn's error page:\n%s", redirect, w.Code, w.Header().Get("Location"), body)
		}
	}
	w := consenttest.Page(t, s, linkedinAuthorizeWith(linkedinRedirect, "r_ads w_member_social r_liteprofile"))
	loc, _ := url.Parse(w.Header().Get("Location"))
	if q := loc.Query(); w.Code != http.StatusFound || !strings.HasPrefix(loc.String(), linkedinRedirect+"?") ||
		q.Get("error") != "unauthorized_scope_error" || q.Get("state") != "l1" || q.Has("code") ||
		q.Get("error_description") != "Scope &quot;w_member_social&quot; is not authorized for your application" {
		t.Errorf("unknown scope: %d %s", w.Code, loc)
	}
}

func TestSandboxLinkedInTokens(t *testing.T) {
	t.Parallel()
	s := NewSandbox().Handler.(*Sandbox)
	// Both are registered: the exchange must still repeat the request's own.
	id, secret := s.RegisterOAuthClient(linkedinRedirect, linkedinRedirect+"2")
	other := consenttest.Decide(t, s, linkedinAuthorize(), true).Query().Get("code")
	if status, out := linkedinToken(t, s, url.Values{"grant_type": {"authorization_code"}, "code": {other}, "client_id": {id},
		"client_secret": {secret}, "redirect_uri": {linkedinRedirect + "2"}}); status != 400 || out["error"] != "invalid_request" {
		t.Errorf("another redirect_uri: %d %v", status, out)
	}
	code := consenttest.Decide(t, s, linkedinAuthorize(), true).Query().Get("code")
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {id}, "client_secret": {secret},
		"redirect_uri": {linkedinRedirect}}
	status, tok := linkedinToken(t, s, form)
	if status != 200 || tok["expires_in"] != float64(5184000) || tok["refresh_token"] == nil || tok["scope"] != "r_ads,r_ads_reporting" {
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
