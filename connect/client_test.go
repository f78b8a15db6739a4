package connect

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/egress"
)

const (
	testSecret   = "app-secret-4242"
	testCode     = "auth-code-7777"
	testVerifier = "verifier-0123456789-0123456789-0123456789-abc"
)

var testApp = &gtmgate.OAuthApp{ClientID: "client-1", ClientSecret: testSecret}

func mustLookup(t *testing.T, name string) Provider {
	t.Helper()
	p, ok := Lookup(name)
	if !ok {
		t.Fatalf("no provider %q", name)
	}
	return p
}

func TestAuthorizeURL(t *testing.T) {
	t.Parallel()
	c := &Client{Version: func(string) string { return "" }}
	tests := []struct {
		name        string
		provider    string
		haveRefresh bool
		wantBase    string
		want        map[string]string
		absent      []string
	}{
		{name: "google first consent", provider: Google, wantBase: "https://accounts.google.com/o/oauth2/v2/auth",
			want: map[string]string{"access_type": "offline", "include_granted_scopes": "true", "prompt": "consent",
				"code_challenge_method": "S256", "scope": "openid email"}},
		{name: "google with a refresh token held", provider: Google, haveRefresh: true,
			wantBase: "https://accounts.google.com/o/oauth2/v2/auth",
			want:     map[string]string{"access_type": "offline", "include_granted_scopes": "true"}, absent: []string{"prompt"}},
		{name: "hubspot", provider: HubSpot, wantBase: "https://app.hubspot.com/oauth/authorize",
			want: map[string]string{"code_challenge_method": "S256", "scope": "openid email"}, absent: []string{"access_type", "prompt"}},
		{name: "meta uses the catalogue's Graph version and commas", provider: Meta,
			wantBase: "https://www.facebook.com/" + defaultVersion("meta_ads") + "/dialog/oauth",
			want:     map[string]string{"scope": "openid,email"}, absent: []string{"code_challenge", "access_type"}},
		{name: "linkedin without PKCE", provider: LinkedIn, wantBase: "https://www.linkedin.com/oauth/v2/authorization",
			want: map[string]string{"scope": "openid email"}, absent: []string{"code_challenge", "code_challenge_method"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := mustLookup(t, tt.provider)
			raw, err := c.AuthorizeURL(p, testApp, "https://gw.example/connect/callback", "state-1", Challenge(testVerifier),
				[]string{"openid", "email"}, tt.haveRefresh)
			if err != nil {
				t.Fatal(err)
			}
			u, _ := url.Parse(raw)
			if base := u.Scheme + "://" + u.Host + u.Path; base != tt.wantBase {
				t.Errorf("endpoint %s, want %s", base, tt.wantBase)
			}
			q := u.Query()
			common := map[string]string{"response_type": "code", "client_id": "client-1",
				"redirect_uri": "https://gw.example/connect/callback", "state": "state-1"}
			for k, v := range common {
				if q.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, q.Get(k), v)
				}
			}
			for k, v := range tt.want {
				if q.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, q.Get(k), v)
				}
			}
			for _, k := range tt.absent {
				if q.Has(k) {
					t.Errorf("%s is set, want absent", k)
				}
			}
			if p.PKCE && q.Get("code_challenge") != Challenge(testVerifier) {
				t.Errorf("code_challenge = %q", q.Get("code_challenge"))
			}
			if strings.Contains(raw, testSecret) {
				t.Error("the client secret is in the URL")
			}
		})
	}
}

// TestChallenge is RFC 7636 appendix B's example.
func TestChallenge(t *testing.T) {
	if got := Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"); got != "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" {
		t.Errorf("Challenge = %s", got)
	}
}

func TestAuthorizeURLRefusals(t *testing.T) {
	t.Parallel()
	c := &Client{}
	g := mustLookup(t, Google)
	for name, call := range map[string]func() error{
		"no app":       func() error { _, err := c.AuthorizeURL(g, nil, "https://r", "s", "c", nil, false); return err },
		"no state":     func() error { _, err := c.AuthorizeURL(g, testApp, "https://r", "", "c", nil, false); return err },
		"no challenge": func() error { _, err := c.AuthorizeURL(g, testApp, "https://r", "s", "", nil, false); return err },
	} {
		if code := gtmgate.ErrorCode(call()); code != gtmgate.EValidation {
			t.Errorf("%s: code %s, want %s", name, code, gtmgate.EValidation)
		}
	}
}

// tokenServer answers the token endpoint at path with answer (or, for
// Meta's second call, long) and records the requests' parameters.
type tokenServer struct {
	t      *testing.T
	method string
	got    []url.Values
	answer func(n int, form url.Values) (int, string)
}

func (s *tokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != s.method {
		s.t.Errorf("method %s, want %s", r.Method, s.method)
	}
	var form url.Values
	if r.Method == http.MethodPost {
		if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
			s.t.Errorf("Content-Type %q", ct)
		}
		b, _ := io.ReadAll(r.Body)
		form, _ = url.ParseQuery(string(b))
		if len(r.URL.Query()) > 0 {
			s.t.Errorf("POST with a query: %s", r.URL.RawQuery)
		}
	} else {
		form = r.URL.Query()
	}
	s.got = append(s.got, form)
	status, body := s.answer(len(s.got), form)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

var fixedNow = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func TestExchange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		provider   string
		method     string
		answer     func(n int, form url.Values) (int, string)
		wantForm   map[string]string
		wantCalls  int
		wantAccess string
		wantRefr   string
		wantExpiry time.Duration
		wantScopes []string
	}{
		{
			// Google's answer: "Using OAuth 2.0 for Web Server Applications", step 5
			// (developers.google.com/identity/protocols/oauth2/web-server#exchange-authorization-code).
			name: "google", provider: Google, method: http.MethodPost, wantCalls: 1,
			answer: func(int, url.Values) (int, string) {
				return 200, `{"access_token":"1/fFAGRNJru1FTz70BzhT3Zg","expires_in":3920,"token_type":"Bearer",
"scope":"https://www.googleapis.com/auth/drive.metadata.readonly https://www.googleapis.com/auth/calendar.readonly",
"refresh_token":"1//xEoDL4iW3cxlI7yDbSRFYNG01kVKM2C-259HOF2aQbI"}`
			},
			wantForm:   map[string]string{"grant_type": "authorization_code", "code_verifier": testVerifier},
			wantAccess: "1/fFAGRNJru1FTz70BzhT3Zg", wantRefr: "1//xEoDL4iW3cxlI7yDbSRFYNG01kVKM2C-259HOF2aQbI",
			wantExpiry: 3920 * time.Second,
			wantScopes: []string{"https://www.googleapis.com/auth/drive.metadata.readonly", "https://www.googleapis.com/auth/calendar.readonly"},
		},
		{
			// HubSpot's AccessTokenResponse (HubSpot-public-api-spec-collection
			// PublicApiSpecs/Auth/Oauth/Rollouts/155908/v1/oauth.json at 000ca44b).
			name: "hubspot", provider: HubSpot, method: http.MethodPost, wantCalls: 1,
			answer: func(int, url.Values) (int, string) {
				return 200, `{"token_type":"bearer","refresh_token":"hs-refresh-1","access_token":"hs-access-1","expires_in":1800,
"hub_id":62515,"user_id":1,"token_use":"access_token","scopes":["crm.objects.contacts.read","oauth"]}`
			},
			wantForm:   map[string]string{"grant_type": "authorization_code", "code_verifier": testVerifier},
			wantAccess: "hs-access-1", wantRefr: "hs-refresh-1", wantExpiry: 1800 * time.Second,
			wantScopes: []string{"crm.objects.contacts.read", "oauth"},
		},
		{
			// LinkedIn's sample answer, "Authorization Code Flow", step 3
			// (learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow).
			name: "linkedin", provider: LinkedIn, method: http.MethodPost, wantCalls: 1,
			answer: func(int, url.Values) (int, string) {
				return 200, `{"access_token":"AQUvlL_DYEzvT2wz1QJiEPeLioeA","expires_in":5184000,"refresh_token":"AQWAft_WjYZKwuWXLC5hQlghgTam",
"refresh_token_expires_in":525600,"scope":"r_ads,r_ads_reporting"}`
			},
			wantForm:   map[string]string{"grant_type": "authorization_code"},
			wantAccess: "AQUvlL_DYEzvT2wz1QJiEPeLioeA", wantRefr: "AQWAft_WjYZKwuWXLC5hQlghgTam", wantExpiry: 5184000 * time.Second,
			wantScopes: []string{"r_ads", "r_ads_reporting"},
		},
		{
			// Meta: "Manually Build a Login Flow" (exchanging code for an access
			// token: {access_token, token_type, expires_in}), then "Long-Lived
			// Access Tokens" (grant_type=fb_exchange_token).
			name: "meta short then long-lived", provider: Meta, method: http.MethodGet, wantCalls: 2,
			answer: func(n int, form url.Values) (int, string) {
				if n == 1 {
					return 200, `{"access_token":"EAAshort","token_type":"bearer","expires_in":5183}`
				}
				if form.Get("grant_type") != "fb_exchange_token" || form.Get("fb_exchange_token") != "EAAshort" {
					return 400, `{"error":{"message":"bad exchange","type":"OAuthException","code":100}}`
				}
				return 200, `{"access_token":"EAAlong","token_type":"bearer","expires_in":5183944}`
			},
			wantForm:   map[string]string{"code": testCode},
			wantAccess: "EAAlong", wantExpiry: 5183944 * time.Second,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := mustLookup(t, tt.provider)
			ts := &tokenServer{t: t, method: tt.method, answer: tt.answer}
			srv := httptest.NewServer(ts)
			defer srv.Close()
			c := &Client{Bases: map[string]string{p.Token.Key: srv.URL}, Now: func() time.Time { return fixedNow }}
			g, err := c.Exchange(context.Background(), p, testApp, testCode, testVerifier, "https://gw.example/cb")
			if err != nil {
				t.Fatal(err)
			}
			if len(ts.got) != tt.wantCalls {
				t.Fatalf("%d token calls, want %d", len(ts.got), tt.wantCalls)
			}
			first := ts.got[0]
			for k, v := range map[string]string{"code": testCode, "client_id": "client-1", "client_secret": testSecret,
				"redirect_uri": "https://gw.example/cb"} {
				if first.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, first.Get(k), v)
				}
			}
			for k, v := range tt.wantForm {
				if first.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, first.Get(k), v)
				}
			}
			if !p.PKCE && first.Has("code_verifier") {
				t.Error("code_verifier sent to a provider without PKCE")
			}
			if g.AccessToken != tt.wantAccess || g.RefreshToken != tt.wantRefr {
				t.Errorf("tokens %q/%q, want %q/%q", g.AccessToken, g.RefreshToken, tt.wantAccess, tt.wantRefr)
			}
			if want := fixedNow.Add(tt.wantExpiry); !g.ExpiresAt.Equal(want) {
				t.Errorf("ExpiresAt %v, want %v", g.ExpiresAt, want)
			}
			if strings.Join(g.Scopes, " ") != strings.Join(tt.wantScopes, " ") {
				t.Errorf("Scopes %q, want %q", g.Scopes, tt.wantScopes)
			}
			if !strings.HasPrefix(g.TokenEndpoint, srv.URL) {
				t.Errorf("TokenEndpoint %q", g.TokenEndpoint)
			}
		})
	}
}

func TestExchangeRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		provider string
		status   int
		body     string
		wantCode string
		wantMsg  string
	}{
		// RFC 6749 §5.2, as Google answers a used code.
		{name: "invalid_grant", provider: Google, status: 400,
			body:     `{"error":"invalid_grant","error_description":"Bad Request ` + testCode + `"}`,
			wantCode: gtmgate.EUpstream, wantMsg: "Google refused the authorization code: invalid_grant"},
		{name: "graph error", provider: Meta, status: 400,
			body:     `{"error":{"message":"Error validating client secret.","type":"OAuthException","code":1,"fbtrace_id":"A1"}}`,
			wantCode: gtmgate.EUpstream, wantMsg: "Meta refused the authorization code: OAuthException 1"},
		{name: "not JSON", provider: HubSpot, status: 502, body: `<html>bad gateway</html>`,
			wantCode: gtmgate.EUpstream, wantMsg: "HubSpot refused the authorization code: http_502"},
		{name: "2xx without a token", provider: LinkedIn, status: 200, body: `{"expires_in":10}`,
			wantCode: gtmgate.EUpstream, wantMsg: "LinkedIn refused the authorization code: invalid_response"},
		{name: "the code echoed as the error", provider: Google, status: 400, body: `{"error":"` + testCode + `"}`,
			wantCode: gtmgate.EUpstream, wantMsg: "Google refused the authorization code: [redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := mustLookup(t, tt.provider)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			c := &Client{Bases: map[string]string{p.Token.Key: srv.URL}}
			_, err := c.Exchange(context.Background(), p, testApp, testCode, testVerifier, "https://gw.example/cb")
			var e *gtmgate.Error
			if !errors.As(err, &e) || e.Code != tt.wantCode || e.Message != tt.wantMsg {
				t.Fatalf("error %v, want %s %q", err, tt.wantCode, tt.wantMsg)
			}
			for _, s := range []string{testCode, testSecret, testVerifier} {
				if strings.Contains(err.Error(), s) {
					t.Errorf("error %q carries a secret", err)
				}
			}
		})
	}
}

// TestExchangeTimeout: the token endpoint holds the request until the
// client gives up; the error is UPSTREAM_TIMEOUT and carries no secret
// (Meta's GET has them in its URL). The handler waits on the request's
// own context, so no timing is assumed.
func TestExchangeTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	p := mustLookup(t, Meta)
	c := &Client{Bases: map[string]string{p.Token.Key: srv.URL}, Timeout: time.Nanosecond}
	_, err := c.Exchange(context.Background(), p, testApp, testCode, "", "https://gw.example/cb")
	if code := gtmgate.ErrorCode(err); code != gtmgate.EUpstreamTimeout {
		t.Fatalf("code %s (%v), want %s", code, err, gtmgate.EUpstreamTimeout)
	}
	if strings.Contains(err.Error(), testSecret) || strings.Contains(err.Error(), testCode) {
		t.Errorf("error %q carries a secret", err)
	}
}

func TestExchangeEgressPolicy(t *testing.T) {
	t.Parallel()
	p := mustLookup(t, HubSpot)
	tests := []struct {
		name   string
		policy egress.Policy
		refuse bool
	}{
		{"loopback refused by default", egress.Policy{}, true},
		{"loopback allowed", egress.Policy{AllowLoopback: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(&tokenServer{t: t, method: http.MethodPost, answer: func(int, url.Values) (int, string) {
				return 200, `{"access_token":"at","refresh_token":"rt","expires_in":1800}`
			}})
			defer srv.Close()
			c := &Client{HTTP: NewHTTPClient(tt.policy), Bases: map[string]string{p.Token.Key: srv.URL}}
			_, err := c.Exchange(context.Background(), p, testApp, testCode, testVerifier, "https://gw.example/cb")
			if refused := errors.Is(err, egress.ErrRefused); refused != tt.refuse {
				t.Fatalf("refused %v (err %v), want %v", refused, err, tt.refuse)
			}
			if !tt.refuse && err != nil {
				t.Fatal(err)
			}
		})
	}
}
