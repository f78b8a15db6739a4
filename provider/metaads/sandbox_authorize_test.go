package metaads

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox/consenttest"
)

const metaRedirect = "https://gw.example/connect/callback"

func metaDialog(version string) string {
	return "/" + version + "/dialog/oauth?" + url.Values{"client_id": {SandboxClientID}, "redirect_uri": {metaRedirect},
		"state": {"m1"}, "scope": {"ads_read,ads_management"}}.Encode()
}

// newRegisteredSandbox is a sandbox whose app has metaRedirect registered.
func newRegisteredSandbox() *Sandbox {
	s := newSandbox(time.Now)
	s.RegisterOAuthClient(metaRedirect)
	return s
}

// metaGet answers a GET on the sandbox and decodes its JSON.
func metaGet(t *testing.T, s *Sandbox, target string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("%s: %d %s", target, w.Code, w.Body)
	}
	return w.Code, out
}

func TestSandboxLoginDialog(t *testing.T) {
	t.Parallel()
	s := newRegisteredSandbox()
	v := catalogue().Newest()
	page := consenttest.Page(t, s, metaDialog(v)).Body.String()
	for _, want := range []string{"Meta sandbox — consent", SandboxClientID, "ads_management"} {
		if !strings.Contains(page, want) {
			t.Errorf("dialog lacks %q", want)
		}
	}
	if strings.Contains(page, s.clientSecret) {
		t.Error("dialog shows the secret")
	}
	if w := consenttest.Page(t, s, "/"+v+"/dialog/oauth?client_id=1&redirect_uri="+url.QueryEscape(metaRedirect)); w.Code != 400 || w.Header().Get("Location") != "" {
		t.Errorf("unknown app: %d %q", w.Code, w.Header().Get("Location"))
	}
	deny := consenttest.Decide(t, s, metaDialog(v), false).Query()
	if deny.Get("error_reason") != "user_denied" || deny.Get("error") != "access_denied" ||
		deny.Get("error_description") != "Permissions error" || deny.Get("state") != "m1" {
		t.Errorf("deny: %v", deny)
	}
}

// TestSandboxLoginDialogRefusals: the dialog blocks a redirect URI the app
// did not register and shows the developer the permissions it does not
// know, both on a page with no redirect.
func TestSandboxLoginDialogRefusals(t *testing.T) {
	t.Parallel()
	s := newRegisteredSandbox()
	v := catalogue().Newest()
	dialog := func(redirect, scope string) string {
		return "/" + v + "/dialog/oauth?" + url.Values{"client_id": {SandboxClientID}, "redirect_uri": {redirect}, "state": {"m1"},
			"scope": {scope}}.Encode()
	}
	for name, tt := range map[string]struct{ target, want string }{
		"unregistered redirect": {dialog("https://evil.example/cb", "ads_read"), "URL blocked"},
		"redirect with a query": {dialog(metaRedirect+"?next=/", "ads_read"), "not whitelisted in the app&#39;s Client OAuth Settings"},
		"unknown permissions":   {dialog(metaRedirect, "ads_read,read_stream,<i>"), "Invalid Scopes: read_stream, &lt;i&gt;. This message is only shown to developers."},
	} {
		w := consenttest.Page(t, s, tt.target)
		body := w.Body.String()
		if w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" || !strings.Contains(body, tt.want) || strings.Contains(body, "<i>") {
			t.Errorf("%s: %d %q, want Meta's error page with %q:\n%s", name, w.Code, w.Header().Get("Location"), tt.want, body)
		}
	}
}

func TestSandboxLoginTokens(t *testing.T) {
	t.Parallel()
	s := newSandbox(time.Now)
	v := catalogue().Newest()
	id, secret := s.RegisterOAuthClient(metaRedirect)
	code := consenttest.Decide(t, s, metaDialog(v), true).Query().Get("code")
	exchange := "/" + v + "/oauth/access_token?" + url.Values{"client_id": {id}, "client_secret": {secret},
		"redirect_uri": {metaRedirect}, "code": {code}}.Encode()
	status, short := metaGet(t, s, exchange)
	if status != 200 || short["token_type"] != "bearer" || short["expires_in"] != float64(7200) || short["refresh_token"] != nil {
		t.Fatalf("exchange: %d %v", status, short)
	}
	status, replay := metaGet(t, s, exchange)
	if e, _ := replay["error"].(map[string]any); status != 400 || e["type"] != "OAuthException" || e["error_subcode"] != float64(36009) {
		t.Errorf("replay: %d %v", status, replay)
	}

	status, long := metaGet(t, s, "/"+v+"/oauth/access_token?"+url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {id},
		"client_secret": {secret}, "fb_exchange_token": {short["access_token"].(string)}}.Encode())
	if status != 200 || long["expires_in"] != float64(5183944) || long["access_token"] == short["access_token"] {
		t.Fatalf("long-lived: %d %v", status, long)
	}
	status, bad := metaGet(t, s, "/"+v+"/oauth/access_token?"+url.Values{"grant_type": {"fb_exchange_token"}, "client_id": {id},
		"client_secret": {"nope"}, "fb_exchange_token": {short["access_token"].(string)}}.Encode())
	if e, _ := bad["error"].(map[string]any); status != 400 || e["code"] != float64(1) || strings.Contains(e["message"].(string), secret) {
		t.Errorf("wrong secret: %d %v", status, bad)
	}

	token := long["access_token"].(string)
	status, accounts := metaGet(t, s, "/"+v+"/me/adaccounts?fields=account_id,name&access_token="+url.QueryEscape(token))
	data, _ := accounts["data"].([]any)
	if status != 200 || len(data) != 2 || data[0].(map[string]any)["id"] != "act_1012345678901234" {
		t.Errorf("adaccounts: %d %v", status, accounts)
	}
	status, perms := metaGet(t, s, "/"+v+"/me/permissions?access_token="+url.QueryEscape(token))
	if status != 200 || !strings.Contains(mustJSON(perms), `"permission":"ads_management","status":"granted"`) {
		t.Errorf("permissions: %d %v", status, perms)
	}
	status, _ = metaGet(t, s, "/"+v+"/act_1012345678901234/campaigns?fields=id,name&access_token="+url.QueryEscape(token))
	if status != 200 {
		t.Errorf("campaigns with the issued token: %d", status)
	}
}

func TestSandboxLoginCodeChecks(t *testing.T) {
	t.Parallel()
	s := newSandbox(time.Now)
	v := catalogue().Newest()
	// Both are registered: the exchange must still repeat the dialog's own.
	id, secret := s.RegisterOAuthClient(metaRedirect, metaRedirect+"2")
	challenge := "&code_challenge=" + consenttest.Challenge(consenttest.Verifier) + "&code_challenge_method=S256"
	for name, tt := range map[string]struct {
		dialog string
		mod    func(url.Values)
		sub    any
	}{
		"other redirect": {"", func(f url.Values) { f.Set("redirect_uri", metaRedirect+"2") }, float64(36008)},
		"wrong verifier": {challenge, func(f url.Values) { f.Set("code_verifier", strings.Repeat("a", 50)) }, nil},
	} {
		code := consenttest.Decide(t, s, metaDialog(v)+tt.dialog, true).Query().Get("code")
		f := url.Values{"client_id": {id}, "client_secret": {secret}, "redirect_uri": {metaRedirect}, "code": {code}}
		tt.mod(f)
		status, out := metaGet(t, s, "/"+v+"/oauth/access_token?"+f.Encode())
		if e, _ := out["error"].(map[string]any); status != 400 || e["error_subcode"] != tt.sub {
			t.Errorf("%s: %d %v", name, status, out)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
