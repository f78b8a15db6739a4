package idpsandbox_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gtmgate/gtmgate/idpsandbox"
)

// The sandbox's people and the relying party of the tests.
var (
	ada = idpsandbox.Person{
		Subject:       "u-ada",
		Email:         "ada@example.com",
		EmailVerified: true,
		Name:          "Ada Lovelace",
		Groups:        []string{"engineering", "admins"},
	}
	bob = idpsandbox.Person{
		Subject: "u-bob",
		Email:   "bob@example.com",
		Name:    "Bob <b>Tables</b>",
	}
	rpClient = idpsandbox.Client{
		ID:                     "gtmgate",
		Secret:                 "s3cret",
		RedirectURIs:           []string{"http://rp.example/auth/callback"},
		PostLogoutRedirectURIs: []string{"http://rp.example/signed-out"},
	}
)

// clock is a settable clock for Options.Now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// sandbox is a Provider under httptest, mounted at its issuer's path the
// way gtmgate mounts it.
type sandbox struct {
	*idpsandbox.Provider
	issuer string
	server *httptest.Server
}

// startSandbox serves a Provider at the issuer path ("" or "/idp"), with
// ada, bob and rpClient unless opts says otherwise.
func startSandbox(t *testing.T, path string, opts idpsandbox.Options) *sandbox {
	t.Helper()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	opts.Issuer = srv.URL + path
	if opts.People == nil {
		opts.People = []idpsandbox.Person{ada, bob}
	}
	if opts.Clients == nil {
		opts.Clients = []idpsandbox.Client{rpClient}
	}
	p, err := idpsandbox.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	mux.Handle(path+"/", p)
	return &sandbox{Provider: p, issuer: opts.Issuer, server: srv}
}

// relyingParty is gtmgate's side of the flow: go-oidc and x/oauth2, and a
// browser that does not follow redirects, so a test can step through.
type relyingParty struct {
	ctx      context.Context
	provider *oidc.Provider
	config   oauth2.Config
	verifier *oidc.IDTokenVerifier
	browser  *http.Client
}

func newRelyingParty(t *testing.T, sb *sandbox) *relyingParty {
	t.Helper()
	ctx := t.Context()
	provider, err := oidc.NewProvider(ctx, sb.issuer)
	if err != nil {
		t.Fatalf("oidc.NewProvider(%q): %v", sb.issuer, err)
	}
	endpoint := provider.Endpoint()
	// Not the default auto-detection: after a refused first attempt it
	// retries with the other style, and the retry finds the code consumed.
	endpoint.AuthStyle = oauth2.AuthStyleInHeader
	return &relyingParty{
		ctx:      ctx,
		provider: provider,
		config: oauth2.Config{
			ClientID:     rpClient.ID,
			ClientSecret: rpClient.Secret,
			RedirectURL:  rpClient.RedirectURIs[0],
			Endpoint:     endpoint,
			Scopes:       []string{oidc.ScopeOpenID, "email", "profile", "groups"},
		},
		verifier: provider.Verifier(&oidc.Config{ClientID: rpClient.ID}),
		browser: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}},
	}
}

// attempt is one sign-in in progress: what the relying party keeps in its
// session between redirect and callback.
type attempt struct {
	state, nonce, verifier string
	loginURL               string // where /authorize sent the browser
	requestID              string
}

// start sends the browser to /authorize and returns where it lands.
func (rp *relyingParty) start(t *testing.T) *attempt {
	t.Helper()
	a := &attempt{state: randomString(), nonce: randomString(), verifier: oauth2.GenerateVerifier()}
	authURL := rp.config.AuthCodeURL(a.state, oauth2.S256ChallengeOption(a.verifier), oidc.Nonce(a.nonce))
	resp := rp.get(t, authURL)
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("GET /authorize: status %d, want 302; body %s", resp.StatusCode, readBody(t, resp))
	}
	a.loginURL = resp.Header.Get("Location")
	u, err := url.Parse(a.loginURL)
	if err != nil {
		t.Fatalf("login URL %q: %v", a.loginURL, err)
	}
	a.requestID = u.Query().Get("authRequestID")
	if a.requestID == "" {
		t.Fatalf("login URL %q has no authRequestID", a.loginURL)
	}
	return a
}

// choose posts the sign-in form for the subject and returns the response.
func (rp *relyingParty) choose(t *testing.T, a *attempt, subject string) *http.Response {
	t.Helper()
	form := url.Values{"id": {a.requestID}, "subject": {subject}}
	resp, err := rp.browser.PostForm(strings.Split(a.loginURL, "?")[0], form)
	if err != nil {
		t.Fatalf("POST sign-in: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// signIn runs the browser's part of the flow for the subject and returns
// the attempt and the code the relying party's callback receives.
func (rp *relyingParty) signIn(t *testing.T, subject string) (*attempt, string) {
	t.Helper()
	a := rp.start(t)
	page := rp.get(t, a.loginURL)
	if page.StatusCode != http.StatusOK {
		t.Fatalf("GET sign-in page: status %d", page.StatusCode)
	}
	resp := rp.choose(t, a, subject)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST sign-in: status %d, want 303; body %s", resp.StatusCode, readBody(t, resp))
	}
	resp = rp.get(t, resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("GET authorize callback: status %d, want 302; body %s", resp.StatusCode, readBody(t, resp))
	}
	callback, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if got := callback.Scheme + "://" + callback.Host + callback.Path; got != rp.config.RedirectURL {
		t.Fatalf("redirected to %q, want the client's redirect_uri %q", got, rp.config.RedirectURL)
	}
	q := callback.Query()
	if q.Get("state") != a.state {
		t.Fatalf("state = %q, want %q", q.Get("state"), a.state)
	}
	if q.Get("code") == "" {
		t.Fatalf("callback %q has no code", callback)
	}
	return a, q.Get("code")
}

// exchange redeems the code with the attempt's PKCE verifier.
func (rp *relyingParty) exchange(a *attempt, code string) (*oauth2.Token, error) {
	return rp.config.Exchange(rp.ctx, code, oauth2.VerifierOption(a.verifier))
}

// idToken verifies the token response's ID token and its nonce.
func (rp *relyingParty) idToken(t *testing.T, a *attempt, tok *oauth2.Token) *oidc.IDToken {
	t.Helper()
	raw, ok := tok.Extra("id_token").(string)
	if !ok {
		t.Fatal("token response has no id_token")
	}
	id, err := rp.verifier.Verify(rp.ctx, raw)
	if err != nil {
		t.Fatalf("verify ID token: %v", err)
	}
	if id.Nonce != a.nonce {
		t.Fatalf("nonce = %q, want %q", id.Nonce, a.nonce)
	}
	return id
}

func (rp *relyingParty) get(t *testing.T, u string) *http.Response {
	t.Helper()
	resp, err := rp.browser.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// claims are the claims the tests read from ID tokens and userinfo.
type claims struct {
	Subject           string   `json:"sub"`
	Email             string   `json:"email"`
	EmailVerified     bool     `json:"email_verified"`
	Name              string   `json:"name"`
	PreferredUsername string   `json:"preferred_username"`
	Groups            []string `json:"groups"`
}

func readBody(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return string(b)
}

func randomString() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}
