package oauth

import (
	"errors"
	"github.com/gtmgate/gtmgate/throttle"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// wantOAuthError checks that err is a token endpoint error with code.
func wantOAuthError(t *testing.T, err error, code string) {
	t.Helper()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != code {
		t.Fatalf("error = %v, want %s", err, code)
	}
	if cc := re.Response.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
}

func TestCodeExchangeRefusals(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	reg := e.register(t, &oauthex.ClientRegistrationMetadata{
		RedirectURIs: []string{redirectURI, redirectURI + "2"}, TokenEndpointAuthMethod: "none"})
	conf := e.config(reg, oauth2.AuthStyleInParams)
	// code returns a fresh authorization code and its verifier.
	code := func() (string, string) {
		v := oauth2.GenerateVerifier()
		q := e.authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)), e.tokens["acme"])
		return q.Get("code"), v
	}
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"wrong PKCE verifier", func() error {
			c, _ := code()
			_, err := conf.Exchange(ctx, c, oauth2.VerifierOption(oauth2.GenerateVerifier()))
			return err
		}, errInvalidGrant},
		{"no PKCE verifier", func() error {
			c, _ := code()
			_, err := conf.Exchange(ctx, c)
			return err
		}, errInvalidGrant},
		{"mismatched redirect URI", func() error {
			c, v := code()
			other := *conf
			other.RedirectURL = redirectURI + "2"
			_, err := other.Exchange(ctx, c, oauth2.VerifierOption(v))
			return err
		}, errInvalidGrant},
		{"other resource at the token endpoint", func() error {
			c, v := code()
			_, err := conf.Exchange(ctx, c, oauth2.VerifierOption(v), oauth2.SetAuthURLParam("resource", "https://other.example/mcp"))
			return err
		}, errInvalidTarget},
		{"expired code", func() error {
			c, v := code()
			e.clock.Add(61 * time.Second)
			_, err := conf.Exchange(ctx, c, oauth2.VerifierOption(v))
			return err
		}, errInvalidGrant},
		{"code of another client", func() error {
			c, v := code()
			other := e.publicClient(t)
			_, err := other.Exchange(ctx, c, oauth2.VerifierOption(v))
			return err
		}, errInvalidGrant},
		{"unknown client", func() error {
			c, v := code()
			other := *conf
			other.ClientID = "mcp_nobody"
			_, err := other.Exchange(ctx, c, oauth2.VerifierOption(v))
			return err
		}, errInvalidClient},
	} {
		t.Run(tc.name, func(t *testing.T) { wantOAuthError(t, tc.run(), tc.want) })
	}
}

func TestReusedCodeRevokesItsTokens(t *testing.T) {
	e := newEnv(t)
	conf := e.publicClient(t)
	v := oauth2.GenerateVerifier()
	q := e.authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)), e.tokens["acme"])
	tok, err := conf.Exchange(t.Context(), q.Get("code"), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	if resp := e.callMCP(t, "/mcp", tok.AccessToken, toolsList); resp.StatusCode != http.StatusOK {
		t.Fatalf("first token: status %d", resp.StatusCode)
	}
	_, err = conf.Exchange(t.Context(), q.Get("code"), oauth2.VerifierOption(v))
	wantOAuthError(t, err, errInvalidGrant)
	if resp := e.callMCP(t, "/mcp", tok.AccessToken, toolsList); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("token of a replayed code: status %d, want 401", resp.StatusCode)
	}
	_, err = conf.TokenSource(t.Context(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	wantOAuthError(t, err, errInvalidGrant)
}

func TestReusedRefreshTokenRevokesFamily(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	conf := e.publicClient(t)
	first := e.tokensFor(t, conf, "acme")
	second, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: first.RefreshToken}).Token()
	if err != nil {
		t.Fatal(err)
	}
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: first.RefreshToken}).Token()
	wantOAuthError(t, err, errInvalidGrant)
	for name, tok := range map[string]string{"first access": first.AccessToken, "second access": second.AccessToken} {
		if resp := e.callMCP(t, "/mcp", tok, toolsList); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s after reuse: status %d, want 401", name, resp.StatusCode)
		}
	}
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: second.RefreshToken}).Token()
	wantOAuthError(t, err, errInvalidGrant)
}

func TestExpiredAccessToken(t *testing.T) {
	e := newEnv(t)
	tok := e.tokensFor(t, e.publicClient(t), "acme")
	e.clock.Add(time.Hour - time.Second)
	if resp := e.callMCP(t, "/mcp", tok.AccessToken, toolsList); resp.StatusCode != http.StatusOK {
		t.Fatalf("before expiry: status %d", resp.StatusCode)
	}
	e.clock.Add(time.Second)
	resp := e.callMCP(t, "/mcp", tok.AccessToken, toolsList)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
		t.Errorf("expired: status %d, challenge %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
}

func TestRevocation(t *testing.T) {
	e := newEnv(t)
	conf := e.publicClient(t)
	revoke := func(token string) {
		t.Helper()
		resp, err := http.PostForm(e.base+"/oauth/revoke", url.Values{"token": {token}, "client_id": {conf.ClientID}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("revoke: status %d", resp.StatusCode)
		}
	}
	a := e.tokensFor(t, conf, "acme")
	revoke(a.AccessToken)
	if resp := e.callMCP(t, "/mcp", a.AccessToken, toolsList); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("revoked access token: status %d", resp.StatusCode)
	}
	b := e.tokensFor(t, conf, "acme")
	revoke(b.RefreshToken)
	if resp := e.callMCP(t, "/mcp", b.AccessToken, toolsList); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("access token of a revoked refresh token: status %d", resp.StatusCode)
	}
	revoke("gtmat_unknown-token") // unknown tokens answer 200 too
}

func TestConfidentialClient(t *testing.T) {
	e := newEnv(t)
	for _, tc := range []struct {
		method string
		style  oauth2.AuthStyle
	}{{"client_secret_basic", oauth2.AuthStyleInHeader}, {"client_secret_post", oauth2.AuthStyleInParams}} {
		t.Run(tc.method, func(t *testing.T) {
			reg := e.register(t, &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirectURI}, TokenEndpointAuthMethod: tc.method})
			if !strings.HasPrefix(reg.ClientSecret, "mcps_") {
				t.Fatalf("secret = %q", reg.ClientSecret)
			}
			stored, err := e.store.GetOAuthClient(t.Context(), reg.ClientID)
			if err != nil || stored.SecretHash == "" || strings.Contains(stored.SecretHash, reg.ClientSecret) {
				t.Fatalf("stored client %+v: %v", stored, err)
			}
			conf := e.config(reg, tc.style)
			e.tokensFor(t, conf, "acme")
			wrong := *conf
			wrong.ClientSecret = "mcps_wrong"
			v := oauth2.GenerateVerifier()
			q := e.authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)), e.tokens["acme"])
			_, err = wrong.Exchange(t.Context(), q.Get("code"), oauth2.VerifierOption(v))
			wantOAuthError(t, err, errInvalidClient)
		})
	}
}

// TestAudienceOfAnotherServer checks that a token issued under one
// GATEWAY_URL is refused by a server configured with another, though they
// share the store.
func TestAudienceOfAnotherServer(t *testing.T) {
	e := newEnv(t)
	tok := e.tokensFor(t, e.publicClient(t), "acme")
	other, err := New(Options{Store: e.store, BaseURL: "https://other.example", Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Verify(t.Context(), tok.AccessToken); err == nil || errors.Is(err, errUnknownClient) {
		t.Fatalf("token for %s accepted by https://other.example: %v", e.base, err)
	}
	if _, err := e.srv.Verify(t.Context(), tok.AccessToken); err != nil {
		t.Fatalf("own server: %v", err)
	}
	if _, err := e.srv.Verify(t.Context(), tok.RefreshToken); err == nil {
		t.Error("a refresh token was accepted as an access token")
	}
}

func TestTenantBinding(t *testing.T) {
	e := newEnv(t)
	tok := e.tokensFor(t, e.publicClient(t), "acme")
	if resp := e.callMCP(t, "/mcp/tenants/acme", tok.AccessToken, toolsList); resp.StatusCode != http.StatusOK {
		t.Errorf("own tenant: status %d", resp.StatusCode)
	}
	if resp := e.callMCP(t, "/mcp/tenants/beta", tok.AccessToken, toolsList); resp.StatusCode != http.StatusNotFound {
		t.Errorf("acme's token on beta: status %d, want 404", resp.StatusCode)
	}
	p, err := e.srv.Verify(t.Context(), tok.AccessToken)
	if err != nil || p.TenantID != "acme" {
		t.Errorf("principal = %+v, %v", p, err)
	}
}

// TestTokenEndpointThrottled: failed token requests from one address end in
// 429 with Retry-After, even for a valid request, until the budget refills.
func TestTokenEndpointThrottled(t *testing.T) {
	e := newEnv(t, func(o *Options) {
		o.TokenGuard = throttle.New(throttle.Options{Name: "oauth_token", Burst: 3, Refill: time.Hour})
	})
	post := func(form url.Values) *http.Response {
		resp, err := http.PostForm(e.base+"/oauth/token", form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	bad := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"gtmrt_guess"}, "client_id": {"nobody"}}
	for i := range 3 {
		if resp := post(bad); resp.StatusCode == http.StatusTooManyRequests {
			t.Fatalf("attempt %d already refused", i+1)
		}
	}
	if resp := post(bad); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after 3 failures: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
