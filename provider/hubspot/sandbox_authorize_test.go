package hubspot

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox/consenttest"
)

const testRedirect = "https://gw.example/connect/callback"

func authorizeURL(mod func(url.Values)) string {
	q := url.Values{"client_id": {SandboxClientID}, "redirect_uri": {testRedirect}, "state": {"st<1>"},
		"scope": {"crm.objects.contacts.read crm.objects.deals.read"}, "response_type": {"code"},
		"code_challenge": {consenttest.Challenge(consenttest.Verifier)}, "code_challenge_method": {"S256"}}
	if mod != nil {
		mod(q)
	}
	return "/oauth/authorize?" + q.Encode()
}

// newRegisteredSandbox is a sandbox whose app has testRedirect registered.
func newRegisteredSandbox() *Sandbox {
	s := NewSandboxHandler()
	s.RegisterOAuthClient(testRedirect)
	return s
}

func TestSandboxAuthorizePage(t *testing.T) {
	t.Parallel()
	s := newRegisteredSandbox()
	page := consenttest.Page(t, s, authorizeURL(nil))
	body := page.Body.String()
	for _, want := range []string{"<title>HubSpot sandbox — consent</title>", SandboxClientID, "crm.objects.deals.read", `value="allow"`, `value="deny"`} {
		if !strings.Contains(body, want) {
			t.Errorf("consent page lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, s.clientSecret) {
		t.Error("consent page shows the secret")
	}
	for name, mod := range map[string]func(url.Values){
		"unknown client":    func(q url.Values) { q.Set("client_id", "other") },
		"no redirect":       func(q url.Values) { q.Del("redirect_uri") },
		"relative redirect": func(q url.Values) { q.Set("redirect_uri", "/cb") },
	} {
		w := consenttest.Page(t, s, authorizeURL(mod))
		if w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" {
			t.Errorf("%s: %d, Location %q; want an error page", name, w.Code, w.Header().Get("Location"))
		}
	}
	deny := consenttest.Decide(t, s, authorizeURL(nil), false)
	if q := deny.Query(); q.Get("error") != "access_denied" || q.Get("state") != "st<1>" || q.Get("code") != "" {
		t.Errorf("deny redirect = %s", deny)
	}
}

// TestSandboxAuthorizeRefusals: the install page refuses a redirect URL
// the app did not register and a scope HubSpot does not know with its own
// error page, never a redirect.
func TestSandboxAuthorizeRefusals(t *testing.T) {
	t.Parallel()
	s := newRegisteredSandbox()
	for name, tt := range map[string]struct {
		mod  func(url.Values)
		want string
	}{
		"unregistered redirect": {func(q url.Values) { q.Set("redirect_uri", "https://evil.example/cb?<script>") },
			"Authorization failed as the redirect URL &#39;https://evil.example/cb?&lt;script&gt;&#39; doesn&#39;t match the app&#39;s registered redirect URL"},
		"trailing slash": {func(q url.Values) { q.Set("redirect_uri", testRedirect+"/") }, "doesn&#39;t match the app&#39;s registered redirect URL"},
		"unknown scope": {func(q url.Values) { q.Set("scope", "crm.objects.contacts.read contacts") },
			"An invalid scope name was provided. Please contact the app developer."},
	} {
		w := consenttest.Page(t, s, authorizeURL(tt.mod))
		body := w.Body.String()
		if w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" || !strings.Contains(body, tt.want) ||
			!strings.Contains(body, "Couldn&#39;t complete the connection") || strings.Contains(body, "<script>") {
			t.Errorf("%s: %d, Location %q; want HubSpot's error page:\n%s", name, w.Code, w.Header().Get("Location"), body)
		}
	}
	// Before the app registers it, the redirect URL of the tests is refused too.
	if w := consenttest.Page(t, NewSandboxHandler(), authorizeURL(nil)); w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" {
		t.Errorf("no redirect URL registered: %d %q", w.Code, w.Header().Get("Location"))
	}
}

func hubspotToken(t *testing.T, s *Sandbox, form url.Values) (int, map[string]any) {
	t.Helper()
	w := consenttest.Post(t, s, "/oauth/v1/token", form)
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("token answer %d %s", w.Code, w.Body)
	}
	return w.Code, out
}

func TestSandboxAuthorizeExchange(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	id, secret := s.RegisterOAuthClient(testRedirect)
	back := consenttest.Decide(t, s, authorizeURL(nil), true)
	code := back.Query().Get("code")
	if back.Query().Get("state") != "st<1>" || code == "" || !strings.HasPrefix(back.String(), testRedirect+"?") {
		t.Fatalf("allow redirect = %s", back)
	}
	form := url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "client_secret": {secret},
		"redirect_uri": {testRedirect}, "code": {code}, "code_verifier": {consenttest.Verifier}}
	status, tok := hubspotToken(t, s, form)
	if status != 200 || tok["token_type"] != "bearer" || tok["expires_in"] != float64(1800) || tok["refresh_token"] == "" {
		t.Fatalf("exchange: %d %v", status, tok)
	}
	if status, replay := hubspotToken(t, s, form); status != 400 || replay["status"] != "BAD_AUTH_CODE" {
		t.Errorf("replay: %d %v", status, replay)
	}

	// The token calls the CRM and token information names the portal and scopes.
	access := tok["access_token"].(string)
	r := httptest.NewRequest("GET", "/crm/v3/objects/contacts?limit=1", nil)
	r.Header.Set("Authorization", "Bearer "+access)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 200 {
		t.Errorf("CRM with the issued token: %d %s", w.Code, w.Body)
	}
	w = consenttest.Page(t, s, "/oauth/v1/access-tokens/"+access)
	var info struct {
		HubID  int      `json:"hub_id"`
		Scopes []string `json:"scopes"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &info); err != nil || info.HubID != SandboxHubID ||
		strings.Join(info.Scopes, " ") != "crm.objects.contacts.read crm.objects.deals.read" {
		t.Errorf("token info: %d %s", w.Code, w.Body)
	}

	// Refresh: a new access token, the same refresh token.
	refresh := tok["refresh_token"].(string)
	status, again := hubspotToken(t, s, url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "client_secret": {secret},
		"refresh_token": {refresh}})
	if status != 200 || again["refresh_token"] != refresh || again["access_token"] == access {
		t.Errorf("refresh: %d %v", status, again)
	}
	status, bad := hubspotToken(t, s, url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "client_secret": {"wrong"},
		"refresh_token": {refresh}})
	if status != 400 || bad["status"] != "BAD_CLIENT_ID" || strings.Contains(bad["message"].(string), secret) {
		t.Errorf("wrong secret: %d %v", status, bad)
	}
}

func TestSandboxAuthorizeVerifier(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	// Both are registered: the exchange must still repeat the install's own.
	id, secret := s.RegisterOAuthClient(testRedirect, testRedirect+"x")
	tests := []struct {
		name   string
		mod    func(url.Values)
		status string
	}{
		{"wrong verifier", func(f url.Values) { f.Set("code_verifier", strings.Repeat("x", 43)) }, "BAD_AUTH_CODE"},
		{"no verifier", func(f url.Values) { f.Del("code_verifier") }, "BAD_AUTH_CODE"},
		{"other redirect", func(f url.Values) { f.Set("redirect_uri", testRedirect+"x") }, "BAD_REDIRECT_URI"},
		{"no secret", func(f url.Values) { f.Del("client_secret") }, "BAD_CLIENT_ID"},
	}
	for _, tt := range tests {
		code := consenttest.Decide(t, s, authorizeURL(nil), true).Query().Get("code")
		form := url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "client_secret": {secret},
			"redirect_uri": {testRedirect}, "code": {code}, "code_verifier": {consenttest.Verifier}}
		tt.mod(form)
		if status, out := hubspotToken(t, s, form); status != 400 || out["status"] != tt.status {
			t.Errorf("%s: %d %v", tt.name, status, out)
		}
	}
}
