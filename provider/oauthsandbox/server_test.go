package oauthsandbox_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox"
	"github.com/gtmgate/gtmgate/provider/oauthsandbox/consenttest"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// registered are the test client's redirect URIs.
var registered = []string{"https://c.example/cb?x=1", "https://c.example/cb"}

func newServer(c *clock) *oauthsandbox.Server {
	return oauthsandbox.New(oauthsandbox.Options{Name: "Test", ClientID: "cid", ClientSecret: "s3cret", TokenPrefix: "t-",
		RedirectURIs: registered, KnownScopes: []string{"a", "b"}, AccessTTL: time.Hour, Refresh: func(p url.Values) bool { return p.Get("access_type") == "offline" },
		RotateRefresh: true, Denial: url.Values{"error": {"access_denied"}}, Now: c.now})
}

func handler(s *oauthsandbox.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			s.Authorize(w, r)
		} else {
			s.Decide(w, r)
		}
	})
}

func code(t *testing.T, s *oauthsandbox.Server, extra string) string {
	t.Helper()
	return consenttest.Decide(t, handler(s), "/auth?client_id=cid&response_type=code&scope=a+b&redirect_uri=https%3A%2F%2Fc.example%2Fcb%3Fx%3D1"+extra, true).Query().Get("code")
}

func TestCodeExpiresAndRefreshRotates(t *testing.T) {
	t.Parallel()
	c := &clock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := newServer(c)
	tr := oauthsandbox.TokenRequest{ClientID: "cid", ClientSecret: "s3cret", RedirectURI: "https://c.example/cb?x=1"}
	tr.Code = code(t, s, "")
	c.t = c.t.Add(oauthsandbox.CodeTTL)
	if _, e := s.ExchangeCode(tr); e == nil || e.Code != "invalid_grant" {
		t.Fatalf("expired code: %v", e)
	}
	tr.Code = code(t, s, "&access_type=offline")
	iss, e := s.ExchangeCode(tr)
	if e != nil || iss.RefreshToken == "" || iss.ExpiresIn != 3600 {
		t.Fatalf("exchange: %+v %v", iss, e)
	}
	if g, ok := s.Lookup(iss.AccessToken); !ok || strings.Join(g.Scopes, ",") != "a,b" {
		t.Errorf("lookup: %+v %v", g, ok)
	}
	tr.RefreshToken = iss.RefreshToken
	next, e := s.RefreshToken(tr)
	if e != nil || next.RefreshToken == iss.RefreshToken {
		t.Fatalf("rotate: %+v %v", next, e)
	}
	if _, e := s.RefreshToken(tr); e == nil || e.Code != "invalid_grant" {
		t.Errorf("old refresh token still works: %v", e)
	}
	c.t = c.t.Add(time.Hour)
	if _, ok := s.Lookup(next.AccessToken); ok {
		t.Error("access token outlived its hour")
	}
}

func TestRedirectKeepsQueryAndRefusesBadRequests(t *testing.T) {
	t.Parallel()
	s := newServer(&clock{time.Now()})
	back := consenttest.Decide(t, handler(s), "/auth?client_id=cid&response_type=code&scope=a&state=z&redirect_uri=https%3A%2F%2Fc.example%2Fcb%3Fx%3D1", true)
	if back.Query().Get("x") != "1" || back.Query().Get("state") != "z" || back.Query().Get("code") == "" {
		t.Errorf("redirect = %s", back)
	}
	for name, target := range map[string]string{
		"not code":         "/auth?client_id=cid&response_type=token&scope=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb",
		"no scope":         "/auth?client_id=cid&response_type=code&redirect_uri=https%3A%2F%2Fc.example%2Fcb",
		"plain challenge":  "/auth?client_id=cid&response_type=code&scope=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb&code_challenge=" + strings.Repeat("a", 43) + "&code_challenge_method=plain",
		"fragment":         "/auth?client_id=cid&response_type=code&scope=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb%23f",
		"javascript:":      "/auth?client_id=cid&response_type=code&scope=a&redirect_uri=javascript%3Aalert(1)",
		"credentials in u": "/auth?client_id=cid&response_type=code&scope=a&redirect_uri=https%3A%2F%2Fu%3Ap%40c.example%2Fcb",
	} {
		w := consenttest.Page(t, handler(s), target)
		loc := w.Header().Get("Location")
		switch name {
		case "not code", "no scope", "plain challenge":
			if w.Code != http.StatusFound || !strings.Contains(loc, "error=") {
				t.Errorf("%s: %d %q, want an error redirect", name, w.Code, loc)
			}
		default:
			if w.Code != http.StatusBadRequest || loc != "" {
				t.Errorf("%s: %d %q, want an error page", name, w.Code, loc)
			}
		}
	}
	// A consent form id works once.
	w := consenttest.Post(t, handler(s), "/auth", url.Values{"request": {"nope"}, "decision": {"allow"}})
	if w.Code != http.StatusBadRequest {
		t.Errorf("unknown consent id: %d", w.Code)
	}
}

// TestRefusesUnregisteredRedirect: a redirect URI the client did not
// register exactly gets an error page and no redirect (RFC 6749
// §4.1.2.1), until it is registered.
func TestRefusesUnregisteredRedirect(t *testing.T) {
	t.Parallel()
	s := newServer(&clock{time.Now()})
	for _, redirect := range []string{"https://evil.example/cb", "https://c.example/cb/", "https://c.example/cb?x=2", "http://c.example/cb", "https://C.example/cb"} {
		w := consenttest.Page(t, handler(s), "/auth?client_id=cid&response_type=code&scope=a&state=z&redirect_uri="+url.QueryEscape(redirect))
		if w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" || !strings.Contains(w.Body.String(), "redirect_uri_mismatch") ||
			strings.Contains(w.Body.String(), `name="request"`) {
			t.Errorf("%s: %d %q, want an error page", redirect, w.Code, w.Header().Get("Location"))
		}
	}
	s.Register("https://evil.example/cb")
	back := consenttest.Decide(t, handler(s), "/auth?client_id=cid&response_type=code&scope=a&redirect_uri="+url.QueryEscape("https://evil.example/cb"), true)
	if !strings.HasPrefix(back.String(), "https://evil.example/cb?") {
		t.Errorf("a registered redirect URI: %s", back)
	}
}

// TestRefusesUnknownScopes: a scope the provider does not know is refused
// with a redirect carrying error=invalid_scope by default, or the
// provider's own page.
func TestRefusesUnknownScopes(t *testing.T) {
	t.Parallel()
	target := "/auth?client_id=cid&response_type=code&scope=a+c&state=z&redirect_uri=" + url.QueryEscape("https://c.example/cb")
	w := consenttest.Page(t, handler(newServer(&clock{time.Now()})), target)
	loc, _ := url.Parse(w.Header().Get("Location"))
	if q := loc.Query(); w.Code != http.StatusFound || !strings.HasPrefix(loc.String(), "https://c.example/cb?") ||
		q.Get("error") != "invalid_scope" || q.Get("state") != "z" || q.Has("code") || !strings.Contains(q.Get("error_description"), "c") {
		t.Errorf("unknown scope: %d %q, want an invalid_scope redirect", w.Code, loc)
	}

	var gotUnknown, gotKnown []string
	s := oauthsandbox.New(oauthsandbox.Options{Name: "Test", ClientID: "cid", RedirectURIs: registered, KnownScopes: []string{"a"},
		InvalidScope: func(unknown, known []string) oauthsandbox.Refusal {
			gotUnknown, gotKnown = unknown, known
			return oauthsandbox.Refusal{Page: true, Title: "Authorization Error", Code: "invalid_scope", Description: "bad <scopes>"}
		}})
	w = consenttest.Page(t, handler(s), target)
	body := w.Body.String()
	if w.Code != http.StatusBadRequest || w.Header().Get("Location") != "" || !strings.Contains(body, "Error 400: <code id=\"error\">invalid_scope</code>") ||
		!strings.Contains(body, "bad &lt;scopes&gt;") || strings.Join(gotUnknown, ",") != "c" || strings.Join(gotKnown, ",") != "a" {
		t.Errorf("a provider's page: %d %q %s (unknown %v, known %v)", w.Code, w.Header().Get("Location"), body, gotUnknown, gotKnown)
	}
}

// TestExchangeRepeatsTheRedirect: the code exchange must name the
// authorization request's redirect URI as sent, even when the client
// registered the other one too (RFC 6749 §4.1.3).
func TestExchangeRepeatsTheRedirect(t *testing.T) {
	t.Parallel()
	s := newServer(&clock{time.Now()})
	tr := oauthsandbox.TokenRequest{ClientID: "cid", ClientSecret: "s3cret", RedirectURI: "https://c.example/cb"}
	tr.Code = code(t, s, "")
	if _, e := s.ExchangeCode(tr); e == nil || e.Code != "invalid_grant" || !strings.Contains(e.Description, "redirect_uri") {
		t.Errorf("another registered redirect: %v", e)
	}
}

func TestReadTokenRequestBasic(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest("POST", "/token", strings.NewReader("grant_type=authorization_code&code=c"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.SetBasicAuth("c%3Aid", "se%2Bcret")
	tr, e := oauthsandbox.ReadTokenRequest(httptest.NewRecorder(), r)
	if e != nil || tr.ClientID != "c:id" || tr.ClientSecret != "se+cret" {
		t.Errorf("basic: %+v %v", tr, e)
	}
	r = httptest.NewRequest("POST", "/token", strings.NewReader("client_secret=x"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.SetBasicAuth("a", "b")
	if _, e := oauthsandbox.ReadTokenRequest(httptest.NewRecorder(), r); e == nil || e.Code != "invalid_request" {
		t.Errorf("two credentials: %v", e)
	}
}

func FuzzReadTokenRequest(f *testing.F) {
	f.Add("grant_type=authorization_code&code=c&client_id=a", "a", "b")
	f.Add("%zz", "%", "")
	f.Fuzz(func(t *testing.T, body, user, pass string) {
		r := httptest.NewRequest("POST", "/token", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if user != "" {
			r.SetBasicAuth(user, pass)
		}
		tr, e := oauthsandbox.ReadTokenRequest(httptest.NewRecorder(), r)
		if e != nil && (strings.Contains(e.Description, pass) && pass != "" && len(pass) > 3) {
			t.Errorf("error shows the secret: %v", e)
		}
		s := newServer(&clock{time.Now()})
		if _, e := s.ExchangeCode(tr); e == nil {
			t.Errorf("a fuzzed request got tokens: %+v", tr)
		}
	})
}

func FuzzAuthorize(f *testing.F) {
	f.Add("client_id=cid&response_type=code&scope=a&redirect_uri=https%3A%2F%2Fc.example%2Fcb")
	f.Add("client_id=cid&redirect_uri=%00")
	f.Fuzz(func(t *testing.T, query string) {
		s := newServer(&clock{time.Now()})
		w := consenttest.Page(t, handler(s), "/auth?"+url.PathEscape(query))
		if loc := w.Header().Get("Location"); loc != "" && !strings.HasPrefix(loc, "https://c.example/cb?") {
			t.Errorf("redirected to %q, not a registered redirect URI", loc)
		}
	})
}
