package idpsandbox_test

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	"github.com/gtmgate/gtmgate/idpsandbox"
)

func TestSignIn(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	tests := []struct {
		name      string
		person    idpsandbox.Person
		authStyle oauth2.AuthStyle
		want      claims
	}{
		{
			name:      "verified with groups, client_secret_basic",
			person:    ada,
			authStyle: oauth2.AuthStyleInHeader,
			want: claims{
				Subject: "u-ada", Email: "ada@example.com", EmailVerified: true, Name: "Ada Lovelace",
				PreferredUsername: "ada@example.com", Groups: []string{"engineering", "admins"},
			},
		},
		{
			name:      "unverified without groups, client_secret_post",
			person:    bob,
			authStyle: oauth2.AuthStyleInParams,
			want: claims{
				Subject: "u-bob", Email: "bob@example.com", EmailVerified: false, Name: "Bob <b>Tables</b>",
				PreferredUsername: "bob@example.com", Groups: []string{},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rp := newRelyingParty(t, sb)
			rp.config.Endpoint.AuthStyle = tt.authStyle
			a, code := rp.signIn(t, tt.person.Subject)
			tok, err := rp.exchange(a, code)
			if err != nil {
				t.Fatalf("exchange: %v", err)
			}
			id := rp.idToken(t, a, tok)
			var got claims
			if err := id.Claims(&got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ID token claims (-want +got):\n%s", diff)
			}
			if id.Issuer != sb.issuer || id.Audience[0] != rpClient.ID {
				t.Errorf("iss %q aud %q, want %q and %q", id.Issuer, id.Audience, sb.issuer, rpClient.ID)
			}

			info, err := rp.provider.UserInfo(rp.ctx, oauth2.StaticTokenSource(tok))
			if err != nil {
				t.Fatalf("userinfo: %v", err)
			}
			var gotInfo claims
			if err := info.Claims(&gotInfo); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, gotInfo); diff != "" {
				t.Errorf("userinfo claims (-want +got):\n%s", diff)
			}
		})
	}
}

// Without the email and profile scopes only sub and groups are sent.
func TestSignInScopes(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	rp := newRelyingParty(t, sb)
	rp.config.Scopes = []string{"openid"}
	a, code := rp.signIn(t, ada.Subject)
	tok, err := rp.exchange(a, code)
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	var got claims
	if err := rp.idToken(t, a, tok).Claims(&got); err != nil {
		t.Fatal(err)
	}
	want := claims{Subject: ada.Subject, Groups: ada.Groups}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ID token claims (-want +got):\n%s", diff)
	}
}

func TestGroupsClaimName(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{GroupsClaim: "roles"})
	rp := newRelyingParty(t, sb)
	a, code := rp.signIn(t, ada.Subject)
	tok, err := rp.exchange(a, code)
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	var got map[string]any
	if err := rp.idToken(t, a, tok).Claims(&got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["groups"]; ok {
		t.Errorf("ID token has a groups claim besides roles: %v", got)
	}
	if diff := cmp.Diff([]any{"engineering", "admins"}, got["roles"]); diff != "" {
		t.Errorf("roles claim (-want +got):\n%s", diff)
	}
}

func TestSetGroups(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	rp := newRelyingParty(t, sb)
	signInGroups := func() []string {
		t.Helper()
		a, code := rp.signIn(t, ada.Subject)
		tok, err := rp.exchange(a, code)
		if err != nil {
			t.Fatalf("exchange: %v", err)
		}
		var got claims
		if err := rp.idToken(t, a, tok).Claims(&got); err != nil {
			t.Fatal(err)
		}
		return got.Groups
	}
	if diff := cmp.Diff(ada.Groups, signInGroups()); diff != "" {
		t.Fatalf("groups before SetGroups (-want +got):\n%s", diff)
	}
	if err := sb.SetGroups(ada.Subject, []string{"sales"}); err != nil {
		t.Fatalf("SetGroups: %v", err)
	}
	if diff := cmp.Diff([]string{"sales"}, signInGroups()); diff != "" {
		t.Errorf("groups after SetGroups (-want +got):\n%s", diff)
	}
	if err := sb.SetGroups("u-nobody", nil); !errors.Is(err, idpsandbox.ErrUnknownSubject) {
		t.Errorf("SetGroups(unknown) = %v, want ErrUnknownSubject", err)
	}
}

func TestAddClient(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{Clients: []idpsandbox.Client{}})
	rp := newRelyingParty(t, sb)
	resp := rp.get(t, rp.config.AuthCodeURL("st", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())))
	if resp.StatusCode == http.StatusFound {
		t.Fatalf("authorize for an unregistered client redirected to %q", resp.Header.Get("Location"))
	}
	sb.AddClient(rpClient)
	a, code := rp.signIn(t, ada.Subject)
	if _, err := rp.exchange(a, code); err != nil {
		t.Fatalf("exchange after AddClient: %v", err)
	}
}

// The token endpoint refuses these exchanges with the OAuth error code.
func TestExchangeRefused(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	tests := []struct {
		name string
		// exchange redeems the code the way the case is about.
		exchange func(rp *relyingParty, a *attempt, code string) error
		want     string
	}{
		{
			name: "reused code",
			exchange: func(rp *relyingParty, a *attempt, code string) error {
				if _, err := rp.exchange(a, code); err != nil {
					return err
				}
				_, err := rp.exchange(a, code)
				return err
			},
			want: "invalid_grant",
		},
		{
			name: "wrong PKCE verifier",
			exchange: func(rp *relyingParty, _ *attempt, code string) error {
				_, err := rp.config.Exchange(rp.ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier()))
				return err
			},
			want: "invalid_grant",
		},
		{
			// A failed attempt consumes the code too.
			name: "right verifier after a wrong one",
			exchange: func(rp *relyingParty, a *attempt, code string) error {
				if _, err := rp.config.Exchange(rp.ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier())); err == nil {
					return errors.New("wrong verifier accepted")
				}
				_, err := rp.exchange(a, code)
				return err
			},
			want: "invalid_grant",
		},
		{
			name: "no PKCE verifier",
			exchange: func(rp *relyingParty, _ *attempt, code string) error {
				_, err := rp.config.Exchange(rp.ctx, code)
				return err
			},
			want: "invalid_request",
		},
		{
			name: "wrong client secret",
			exchange: func(rp *relyingParty, a *attempt, code string) error {
				rp.config.ClientSecret = "wrong"
				_, err := rp.exchange(a, code)
				return err
			},
			want: "invalid_client",
		},
		{
			name: "other redirect_uri",
			exchange: func(rp *relyingParty, a *attempt, code string) error {
				rp.config.RedirectURL = "http://rp.example/other"
				_, err := rp.exchange(a, code)
				return err
			},
			want: "invalid_grant",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rp := newRelyingParty(t, sb)
			a, code := rp.signIn(t, ada.Subject)
			err := tt.exchange(rp, a, code)
			var re *oauth2.RetrieveError
			if !errors.As(err, &re) {
				t.Fatalf("exchange error = %v, want a RetrieveError", err)
			}
			if re.ErrorCode != tt.want {
				t.Errorf("error code = %q (%s), want %q", re.ErrorCode, re.ErrorDescription, tt.want)
			}
		})
	}
}

// /authorize refuses these requests by redirecting the error to the client.
func TestAuthorizeRefused(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	verifier := oauth2.GenerateVerifier()
	tests := []struct {
		name string
		opts []oauth2.AuthCodeOption
		want string
	}{
		{name: "no PKCE", want: "invalid_request"},
		{
			name: "plain PKCE",
			opts: []oauth2.AuthCodeOption{
				oauth2.SetAuthURLParam("code_challenge", verifier),
				oauth2.SetAuthURLParam("code_challenge_method", "plain"),
			},
			want: "invalid_request",
		},
		{
			name: "PKCE without a method (plain by default)",
			opts: []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("code_challenge", verifier)},
			want: "invalid_request",
		},
		{
			name: "prompt=none",
			opts: []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("prompt", "none")},
			want: "login_required",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rp := newRelyingParty(t, sb)
			resp := rp.get(t, rp.config.AuthCodeURL("st-1", tt.opts...))
			if resp.StatusCode != http.StatusFound {
				t.Fatalf("status %d, want 302 to the client; body %s", resp.StatusCode, readBody(t, resp))
			}
			loc, err := url.Parse(resp.Header.Get("Location"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(loc.String(), rpClient.RedirectURIs[0]+"?") {
				t.Fatalf("redirected to %q, want the client's redirect_uri", loc)
			}
			if got := loc.Query().Get("error"); got != tt.want {
				t.Errorf("error = %q (%s), want %q", got, loc.Query().Get("error_description"), tt.want)
			}
			if got := loc.Query().Get("state"); got != "st-1" {
				t.Errorf("state = %q, want st-1", got)
			}
		})
	}
}

// These requests never reach the sign-in page nor the redirect_uri they
// name: an unregistered redirect_uri gets an error page, and the implicit
// flow, which zitadel's discovery advertises, is not registered for
// clients.
func TestAuthorizeNotRedirected(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	challenge := oauth2.S256ChallengeOption(oauth2.GenerateVerifier())
	tests := []struct {
		name        string
		redirectURI string
		opts        []oauth2.AuthCodeOption
	}{
		{name: "unregistered redirect_uri", redirectURI: "http://evil.example/callback", opts: []oauth2.AuthCodeOption{challenge}},
		{name: "implicit flow", redirectURI: rpClient.RedirectURIs[0], opts: []oauth2.AuthCodeOption{
			challenge, oidc.Nonce("n"), oauth2.SetAuthURLParam("response_type", "id_token"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rp := newRelyingParty(t, sb)
			rp.config.RedirectURL = tt.redirectURI
			resp := rp.get(t, rp.config.AuthCodeURL("st", tt.opts...))
			loc := resp.Header.Get("Location")
			if strings.HasPrefix(loc, sb.issuer+"/login") || strings.Contains(loc, "code=") || strings.Contains(loc, "id_token=") {
				t.Errorf("status %d, redirected to %q", resp.StatusCode, loc)
			}
			if tt.redirectURI != rpClient.RedirectURIs[0] && loc != "" {
				t.Errorf("redirected to %q for an unregistered redirect_uri", loc)
			}
		})
	}
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// run steps through a flow, advancing clk where the case says.
		run  func(t *testing.T, rp *relyingParty, clk *clock) int
		want int // the status of the step that must fail
	}{
		{
			name: "sign-in request outlives its 10 minutes",
			run: func(t *testing.T, rp *relyingParty, clk *clock) int {
				a := rp.start(t)
				clk.Advance(11 * time.Minute)
				return rp.choose(t, a, ada.Subject).StatusCode
			},
			want: http.StatusBadRequest,
		},
		{
			name: "code outlives its minute",
			run: func(t *testing.T, rp *relyingParty, clk *clock) int {
				a, code := rp.signIn(t, ada.Subject)
				clk.Advance(2 * time.Minute)
				_, err := rp.exchange(a, code)
				var re *oauth2.RetrieveError
				if !errors.As(err, &re) {
					t.Fatalf("exchange error = %v, want a RetrieveError", err)
				}
				return re.Response.StatusCode
			},
			want: http.StatusBadRequest,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			clk := &clock{now: time.Now()}
			sb := startSandbox(t, "/idp", idpsandbox.Options{Now: clk.Now})
			if got := tt.run(t, newRelyingParty(t, sb), clk); got != tt.want {
				t.Errorf("status %d, want %d", got, tt.want)
			}
		})
	}
}

// end_session sends the browser to a registered post_logout_redirect_uri
// and forgets the person's access tokens.
func TestEndSession(t *testing.T) {
	t.Parallel()
	sb := startSandbox(t, "/idp", idpsandbox.Options{})
	rp := newRelyingParty(t, sb)
	a, code := rp.signIn(t, ada.Subject)
	tok, err := rp.exchange(a, code)
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	var meta struct {
		EndSession string `json:"end_session_endpoint"`
	}
	if err := rp.provider.Claims(&meta); err != nil {
		t.Fatal(err)
	}
	q := url.Values{
		"id_token_hint":            {tok.Extra("id_token").(string)},
		"post_logout_redirect_uri": {rpClient.PostLogoutRedirectURIs[0]},
		"state":                    {"bye"},
	}
	resp := rp.get(t, meta.EndSession+"?"+q.Encode())
	if got, want := resp.Header.Get("Location"), rpClient.PostLogoutRedirectURIs[0]+"?state=bye"; got != want {
		t.Fatalf("end_session: status %d Location %q, want %q", resp.StatusCode, got, want)
	}
	if _, err := rp.provider.UserInfo(rp.ctx, oauth2.StaticTokenSource(tok)); err == nil {
		t.Error("userinfo still answers for the access token after end_session")
	}

	// Without a post_logout_redirect_uri: the sandbox's signed-out page.
	resp = rp.get(t, meta.EndSession)
	loc := resp.Header.Get("Location")
	if loc != sb.issuer+"/logged-out" {
		t.Fatalf("end_session without redirect: Location %q", loc)
	}
	if page := rp.get(t, loc); page.StatusCode != http.StatusOK || !strings.Contains(readBody(t, page), "not for production") {
		t.Errorf("signed-out page: status %d", page.StatusCode)
	}
}
