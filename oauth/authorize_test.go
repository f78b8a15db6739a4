package oauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/throttle"
	"golang.org/x/oauth2"
)

func TestAuthorizeRefusals(t *testing.T) {
	e := newEnv(t)
	conf := e.publicClient(t)
	challenge := oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())
	valid := url.Values{"response_type": {"code"}, "client_id": {conf.ClientID}, "redirect_uri": {redirectURI},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"xyz"}, "resource": {e.srv.Resource()}}
	for _, tc := range []struct {
		name string
		set  map[string]string
		// redirectError is the error sent to the client; empty means an
		// error page that must not redirect.
		redirectError string
	}{
		{"plain PKCE method", map[string]string{"code_challenge_method": "plain", "code_challenge": strings.Repeat("a", 43)}, errInvalidRequest},
		{"no PKCE", map[string]string{"code_challenge": "", "code_challenge_method": ""}, errInvalidRequest},
		{"PKCE method missing (plain by default)", map[string]string{"code_challenge_method": ""}, errInvalidRequest},
		{"wrong resource", map[string]string{"resource": "https://evil.example/mcp"}, errInvalidTarget},
		{"unknown scope", map[string]string{"scope": "admin"}, errInvalidScope},
		{"token response type", map[string]string{"response_type": "token"}, errUnsupportedResponseType},
		{"mismatched redirect URI", map[string]string{"redirect_uri": "http://127.0.0.1:7777/other"}, ""},
		{"unknown client", map[string]string{"client_id": "mcp_nobody"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := url.Values{}
			for k, v := range valid {
				q[k] = v
			}
			for k, v := range tc.set {
				q.Set(k, v)
			}
			resp, err := browser(t).Get(e.base + "/oauth/authorize?" + q.Encode())
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if tc.redirectError == "" {
				if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
					t.Fatalf("status %d, Location %q: want an error page", resp.StatusCode, resp.Header.Get("Location"))
				}
				return
			}
			got := redirectQuery(t, resp)
			if got.Get("error") != tc.redirectError || got.Get("state") != "xyz" {
				t.Errorf("redirect query = %v, want error %s and the state", got, tc.redirectError)
			}
		})
	}
}

func TestConsentPage(t *testing.T) {
	e := newEnv(t)
	conf := e.publicClient(t)
	authURL := conf.AuthCodeURL("st", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()))

	t.Run("headers and content", func(t *testing.T) {
		resp, err := http.Get(authURL)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		h := resp.Header
		if h.Get("X-Frame-Options") != "DENY" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("framing headers: XFO %q CSP %q", h.Get("X-Frame-Options"), h.Get("Content-Security-Policy"))
		}
		if h.Get("Cache-Control") != "no-store" || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
			t.Errorf("headers %v", h)
		}
		for _, want := range []string{"Test Agent", "tools:read", "tools:write", "127.0.0.1:7777", `value="approve"`, `value="deny"`} {
			if !bytes.Contains(body, []byte(want)) {
				t.Errorf("page lacks %q", want)
			}
		}
		if bytes.Contains(body, []byte("<script")) {
			t.Error("page has a script")
		}
	})

	for _, tc := range []struct {
		name   string
		tamper func(b *http.Client, form url.Values)
	}{
		{"CSRF token missing", func(_ *http.Client, f url.Values) { f.Del("csrf_token") }},
		{"CSRF token wrong", func(_ *http.Client, f url.Values) { f.Set("csrf_token", "AAAA"+f.Get("csrf_token")[4:]) }},
		{"CSRF cookie missing", func(b *http.Client, _ url.Values) { b.Jar, _ = newJar() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := browser(t)
			_, form := consentForm(t, b, authURL)
			form.Set("credential", e.tokens["acme"])
			form.Set("decision", "approve")
			tc.tamper(b, form)
			if resp := e.submit(t, b, form); resp.StatusCode != http.StatusForbidden || resp.Header.Get("Location") != "" {
				t.Errorf("status %d, Location %q: want 403 without redirect", resp.StatusCode, resp.Header.Get("Location"))
			}
		})
	}

	t.Run("deny", func(t *testing.T) {
		b := browser(t)
		_, form := consentForm(t, b, authURL)
		form.Set("decision", "deny")
		q := redirectQuery(t, e.submit(t, b, form))
		if q.Get("error") != errAccessDenied || q.Get("state") != "st" || q.Get("code") != "" {
			t.Errorf("deny redirect = %v", q)
		}
	})

	t.Run("wrong credential shows the page again", func(t *testing.T) {
		b := browser(t)
		_, form := consentForm(t, b, authURL)
		form.Set("credential", "not-a-token-of-anyone")
		form.Set("decision", "approve")
		if resp := e.submit(t, b, form); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Location") != "" {
			t.Errorf("status %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
		}
	})

	t.Run("tampered scope is validated again", func(t *testing.T) {
		b := browser(t)
		_, form := consentForm(t, b, authURL)
		form.Set("scope", "tools:admin")
		form.Set("credential", e.tokens["acme"])
		form.Set("decision", "approve")
		if q := redirectQuery(t, e.submit(t, b, form)); q.Get("error") != errInvalidScope {
			t.Errorf("redirect = %v", q)
		}
	})
}

func TestConnectCode(t *testing.T) {
	e := newEnv(t)
	create := func(body string) (*http.Response, map[string]any) {
		resp, err := http.Post(e.base+"/admin/oauth/connect-codes", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		return resp, m
	}
	for _, tc := range []struct {
		name, body string
		status     int
	}{
		{"unknown tenant", `{"tenant_id":"nobody"}`, http.StatusNotFound},
		{"no tenant", `{}`, http.StatusBadRequest},
		{"ttl too long", `{"tenant_id":"beta","ttl_seconds":999999}`, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if resp, _ := create(tc.body); resp.StatusCode != tc.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.status)
			}
		})
	}
	resp, m := create(`{"tenant_id":"beta"}`)
	code, _ := m["code"].(string)
	if resp.StatusCode != http.StatusCreated || !strings.HasPrefix(code, "gtmcc_") {
		t.Fatalf("create: %d %v", resp.StatusCode, m)
	}
	conf := e.publicClient(t)
	v := oauth2.GenerateVerifier()
	q := e.authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)), code)
	tok, err := conf.Exchange(t.Context(), q.Get("code"), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := e.srv.Verify(t.Context(), tok.AccessToken); err != nil || p.TenantID != "beta" {
		t.Errorf("principal %+v, %v; want tenant beta", p, err)
	}
	// Single use: the same code is refused the second time.
	b := browser(t)
	_, form := consentForm(t, b, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
	form.Set("credential", code)
	form.Set("decision", "approve")
	if resp := e.submit(t, b, form); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("reused connect code: status %d, want 401 page", resp.StatusCode)
	}
}

// TestConsentThrottled: wrong credentials on the consent page from one
// address end in 429 (the page again, with Retry-After) even for a correct
// credential from that address, until its budget refills.
func TestConsentThrottled(t *testing.T) {
	e := newEnv(t, func(o *Options) {
		o.CredentialGuard = throttle.New(throttle.Options{Name: "consent", Burst: 3, Refill: time.Hour})
	})
	authURL := e.publicClient(t).AuthCodeURL("st", oauth2.S256ChallengeOption(oauth2.GenerateVerifier()))
	try := func(credential string) *http.Response {
		b := browser(t)
		_, form := consentForm(t, b, authURL)
		form.Set("credential", credential)
		form.Set("decision", "approve")
		return e.submit(t, b, form)
	}
	for i := range 3 {
		if resp := try("not-a-token-of-anyone"); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong attempt %d: status %d", i+1, resp.StatusCode)
		}
	}
	resp := try(e.tokens["acme"])
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || resp.Header.Get("Location") != "" {
		t.Fatalf("after 3 wrong attempts: status %d, Retry-After %q, Location %q", resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Location"))
	}
}
