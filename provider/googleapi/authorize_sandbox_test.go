package googleapi_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate/provider/gmail"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/oauthsandbox/consenttest"
)

const googleRedirect = "https://gw.example/connect/callback"

func googleAuthorizeURL(mod func(url.Values)) string {
	q := url.Values{"client_id": {googleapi.SandboxClientID}, "redirect_uri": {googleRedirect}, "state": {"s1"},
		"response_type": {"code"}, "access_type": {"offline"}, "include_granted_scopes": {"true"}, "prompt": {"consent"},
		"scope":          {"openid email https://www.googleapis.com/auth/gmail.readonly"},
		"code_challenge": {consenttest.Challenge(consenttest.Verifier)}, "code_challenge_method": {"S256"}}
	if mod != nil {
		mod(q)
	}
	return "/o/oauth2/v2/auth?" + q.Encode()
}

// newGoogleSandbox is Google's authorization server knowing Gmail's
// scopes, its client with googleRedirect registered.
func newGoogleSandbox() *googleapi.TokenInfoSandbox {
	s := googleapi.NewTokenInfoSandbox(gmail.Spec().Scopes()...)
	s.RegisterOAuthClient(googleRedirect)
	return s
}

func googleToken(t *testing.T, h http.Handler, form url.Values) (int, map[string]any) {
	t.Helper()
	return consenttest.PostJSON(t, h, "/token", form)
}

func TestGoogleSandboxConsent(t *testing.T) {
	t.Parallel()
	s := newGoogleSandbox()
	_, secret := s.RegisterOAuthClient()
	body := consenttest.Page(t, s, googleAuthorizeURL(nil)).Body.String()
	for _, want := range []string{"Google sandbox — consent", googleapi.SandboxClientID, "gmail.readonly"} {
		if !strings.Contains(body, want) {
			t.Errorf("consent page lacks %q", want)
		}
	}
	if strings.Contains(body, secret) {
		t.Error("consent page shows the secret")
	}
	for name, mod := range map[string]func(url.Values){
		"unknown client": func(q url.Values) { q.Set("client_id", "1-x.apps.googleusercontent.com") },
		"no redirect":    func(q url.Values) { q.Del("redirect_uri") },
		"not absolute":   func(q url.Values) { q.Set("redirect_uri", "gw.example/cb") },
	} {
		if w := consenttest.Page(t, s, googleAuthorizeURL(mod)); w.Code != 400 || w.Header().Get("Location") != "" {
			t.Errorf("%s: %d %q, want an error page", name, w.Code, w.Header().Get("Location"))
		}
	}
	deny := consenttest.Decide(t, s, googleAuthorizeURL(nil), false).Query()
	if deny.Get("error") != "access_denied" || deny.Get("state") != "s1" || deny.Has("code") {
		t.Errorf("deny: %v", deny)
	}
}

// TestGoogleSandboxRefusals: an unregistered redirect URI and a scope
// Google does not know get Google's "Error 400" page, never a redirect.
func TestGoogleSandboxRefusals(t *testing.T) {
	t.Parallel()
	s := newGoogleSandbox()
	for name, tt := range map[string]struct {
		mod  func(url.Values)
		want []string
	}{
		"unregistered redirect": {func(q url.Values) { q.Set("redirect_uri", "https://evil.example/connect/callback") },
			[]string{`Error 400: <code id="error">redirect_uri_mismatch</code>`, "register the redirect URI in the Google Cloud Console"}},
		"redirect in another case": {func(q url.Values) { q.Set("redirect_uri", "https://gw.example/Connect/callback") },
			[]string{"redirect_uri_mismatch"}},
		"unknown scope": {func(q url.Values) { q.Set("scope", "email gmail.readonly <b>x</b>") },
			[]string{`Error 400: <code id="error">invalid_scope</code>`, "Some requested scopes were invalid. {valid=[email], invalid=[gmail.readonly, &lt;b&gt;x&lt;/b&gt;]}"}},
		// Google Ads is not among this sandbox's products.
		"another product's scope": {func(q url.Values) { q.Set("scope", "https://www.googleapis.com/auth/adwords") }, []string{"invalid_scope"}},
	} {
		w := consenttest.Page(t, s, googleAuthorizeURL(tt.mod))
		body := w.Body.String()
		if w.Code != 400 || w.Header().Get("Location") != "" || strings.Contains(body, "<b>x") || !strings.Contains(body, "Authorization Error") {
			t.Errorf("%s: %d %q, want Google's error page:\n%s", name, w.Code, w.Header().Get("Location"), body)
		}
		for _, want := range tt.want {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page lacks %q:\n%s", name, want, body)
			}
		}
	}
}

func TestGoogleSandboxTokens(t *testing.T) {
	t.Parallel()
	s := newGoogleSandbox()
	id, secret := s.RegisterOAuthClient()
	code := consenttest.Decide(t, s, googleAuthorizeURL(nil), true).Query().Get("code")
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {googleRedirect},
		"code_verifier": {consenttest.Verifier}}
	// client_secret_basic.
	r := httptest.NewRequest("POST", "/token", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var tok map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &tok)
	if w.Code != 200 || tok["token_type"] != "Bearer" || tok["expires_in"] != float64(3599) || tok["refresh_token"] == nil {
		t.Fatalf("exchange: %d %s", w.Code, w.Body)
	}
	form.Set("client_id", id)
	form.Set("client_secret", secret)
	if status, replay := googleToken(t, s, form); status != 400 || replay["error"] != "invalid_grant" {
		t.Errorf("replay: %d %v", status, replay)
	}

	access := tok["access_token"].(string)
	info := consenttest.Page(t, s, "/tokeninfo?access_token="+url.QueryEscape(access))
	if !strings.Contains(info.Body.String(), "gmail.readonly") || !strings.Contains(info.Body.String(), googleapi.SandboxEmail) {
		t.Errorf("tokeninfo: %d %s", info.Code, info.Body)
	}
	r = httptest.NewRequest("GET", "/v1/userinfo", nil)
	r.Header.Set("Authorization", "Bearer "+access)
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var who struct {
		Email    string `json:"email"`
		Verified bool   `json:"email_verified"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &who); err != nil || w.Code != 200 || who.Email != googleapi.SandboxEmail || !who.Verified {
		t.Errorf("userinfo: %d %s", w.Code, w.Body)
	}

	// The issued token reaches a Google product sandbox through Accepting.
	sb := gmail.NewSandbox()
	h := s.Accepting(sb.Token, sb.Handler)
	r = httptest.NewRequest("GET", "/gmail/v1/users/me/messages?maxResults=1", nil)
	r.Header.Set("Authorization", "Bearer "+access)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 {
		t.Errorf("gmail with the issued token: %d %s", w.Code, w.Body)
	}
	r.Header.Set("Authorization", "Bearer ya29.unknown")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 401 {
		t.Errorf("gmail with an unknown token: %d", w.Code)
	}

	// Refresh: a new access token and no new refresh token.
	status, again := googleToken(t, s, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)},
		"client_id": {id}, "client_secret": {secret}})
	if status != 200 || again["refresh_token"] != nil || again["access_token"] == access {
		t.Errorf("refresh: %d %v", status, again)
	}
	status, bad := googleToken(t, s, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"nope"}, "client_id": {id}, "client_secret": {"x"}})
	if status != 401 || bad["error"] != "invalid_client" {
		t.Errorf("wrong secret: %d %v", status, bad)
	}
}

func TestGoogleSandboxCodeChecks(t *testing.T) {
	t.Parallel()
	s := newGoogleSandbox()
	// Both are registered: the exchange must still repeat the request's own.
	id, secret := s.RegisterOAuthClient("https://gw.example/other")
	for name, mod := range map[string]func(url.Values){
		"wrong verifier": func(f url.Values) { f.Set("code_verifier", strings.Repeat("v", 64)) },
		"other redirect": func(f url.Values) { f.Set("redirect_uri", "https://gw.example/other") },
	} {
		code := consenttest.Decide(t, s, googleAuthorizeURL(nil), true).Query().Get("code")
		form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {googleRedirect},
			"code_verifier": {consenttest.Verifier}, "client_id": {id}, "client_secret": {secret}}
		mod(form)
		if status, out := googleToken(t, s, form); status != 400 || out["error"] != "invalid_grant" {
			t.Errorf("%s: %d %v", name, status, out)
		}
	}
	// Online access: no refresh token.
	code := consenttest.Decide(t, s, googleAuthorizeURL(func(q url.Values) { q.Set("access_type", "online") }), true).Query().Get("code")
	_, tok := googleToken(t, s, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {googleRedirect},
		"code_verifier": {consenttest.Verifier}, "client_id": {id}, "client_secret": {secret}})
	if tok["access_token"] == nil || tok["refresh_token"] != nil {
		t.Errorf("online access: %v", tok)
	}
}

// TestGoogleSandboxIncremental: a refresh token comes with the first offline
// grant and then only when prompt=consent forces the consent screen;
// include_granted_scopes=true adds the scopes granted before.
func TestGoogleSandboxIncremental(t *testing.T) {
	t.Parallel()
	s := newGoogleSandbox()
	id, secret := s.RegisterOAuthClient()
	grant := func(mod func(url.Values)) map[string]any {
		t.Helper()
		code := consenttest.Decide(t, s, googleAuthorizeURL(mod), true).Query().Get("code")
		_, tok := googleToken(t, s, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {googleRedirect},
			"code_verifier": {consenttest.Verifier}, "client_id": {id}, "client_secret": {secret}})
		return tok
	}
	noPrompt := func(scope string, incremental bool) func(url.Values) {
		return func(q url.Values) {
			q.Del("prompt")
			q.Set("scope", scope)
			if !incremental {
				q.Del("include_granted_scopes")
			}
		}
	}
	if tok := grant(noPrompt("openid email", false)); tok["refresh_token"] == nil || tok["scope"] != "openid email" {
		t.Errorf("first offline grant: %v", tok)
	}
	if tok := grant(noPrompt("https://www.googleapis.com/auth/gmail.readonly", true)); tok["refresh_token"] != nil ||
		tok["scope"] != "openid email https://www.googleapis.com/auth/gmail.readonly" {
		t.Errorf("incremental grant without prompt: %v", tok)
	}
	if tok := grant(nil); tok["refresh_token"] == nil {
		t.Errorf("prompt=consent: %v", tok)
	}
}
