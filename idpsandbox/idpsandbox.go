// Package idpsandbox is a sandbox OpenID provider for the demo and tests, built on zitadel/oidc's certified op package.
//
// It speaks the authorization code flow with PKCE (S256 only) to confidential
// web clients, signs ID tokens with an RSA key generated in memory (RS256)
// and serves discovery, JWKS, token, userinfo, introspection, revocation and
// end_session under the issuer's path. Instead of a password its sign-in
// page lets whoever holds the browser choose one of the configured people:
// anyone can sign in as anyone, so it must never face real users.
package idpsandbox

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// Person is someone the sandbox can sign in. The JSON names are those of
// the e2e helper's people file.
type Person struct {
	Subject       string   `json:"subject"`        // stable "sub"
	Email         string   `json:"email"`          // also sent as preferred_username
	EmailVerified bool     `json:"email_verified"` // false is sent as an absent email_verified claim
	Name          string   `json:"name"`           // display name
	Groups        []string `json:"groups"`         // sent in the groups claim
}

// Client is a relying party registered with the sandbox.
type Client struct {
	ID           string   `json:"id"`            // client_id
	Secret       string   `json:"secret"`        // confidential web client (client_secret_basic and client_secret_post both accepted)
	RedirectURIs []string `json:"redirect_uris"` // exact match
	// PostLogoutRedirectURIs are where end_session may send the browser back
	// to (exact match); without one it shows the sandbox's signed-out page.
	PostLogoutRedirectURIs []string `json:"post_logout_redirect_uris,omitempty"`
}

// Options configures a Provider.
type Options struct {
	// Issuer is the provider's issuer URL, http or https, without a trailing
	// slash, e.g. "http://127.0.0.1:8080/demo-idp". The handler serves every
	// path under the issuer's path (discovery at
	// Issuer+"/.well-known/openid-configuration").
	Issuer      string
	People      []Person
	Clients     []Client
	GroupsClaim string // claim name for groups; default "groups"
	// Logger gets the sandbox's sign-ins and refused sign-ins; default
	// discards. zitadel's op logs its own refusals to slog.Default (its
	// WithLogger option has no effect in v3.52).
	Logger *slog.Logger
	// Now is the clock for the lifetimes of sign-in requests, codes and
	// access tokens; default time.Now. (zitadel's op stamps iat and exp of
	// the ID token with the real clock.)
	Now func() time.Time
}

// Errors of SetGroups and of the sign-in page.
var (
	ErrUnknownSubject = errors.New("idpsandbox: unknown subject")
	ErrUnknownRequest = errors.New("idpsandbox: unknown or expired sign-in request")
)

// Paths under the issuer that the sandbox serves itself, beside zitadel's
// endpoints (authorize, oauth/token, userinfo, keys, ...).
const (
	loginPath     = "/login"
	loggedOutPath = "/logged-out"
)

// Provider is a running sandbox OpenID provider; it is an http.Handler.
type Provider struct {
	issuer     string
	issuerPath string // "" for an issuer without a path
	store      *store
	op         *op.Provider
	opHandler  http.Handler
	logger     *slog.Logger
}

// New returns a Provider with a fresh signing key, serving opts.Issuer.
func New(opts Options) (*Provider, error) {
	issuerPath, err := checkIssuer(opts.Issuer)
	if err != nil {
		return nil, err
	}
	if err := checkPeople(opts.People); err != nil {
		return nil, err
	}
	if err := checkClients(opts.Clients); err != nil {
		return nil, err
	}
	if opts.GroupsClaim == "" {
		opts.GroupsClaim = "groups"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	key, err := newSigningKey()
	if err != nil {
		return nil, err
	}
	st := newStore(storeOptions{
		loginURL:    opts.Issuer + loginPath,
		groupsClaim: opts.GroupsClaim,
		now:         opts.Now,
		key:         key,
		people:      opts.People,
		clients:     opts.Clients,
	})
	// The access tokens are opaque: zitadel encrypts "tokenID:subject" with
	// this key, which only needs to live as long as the process.
	var cryptoKey [32]byte
	rand.Read(cryptoKey[:])
	config := &op.Config{
		CryptoKey:                cryptoKey,
		CryptoKeyId:              "idpsandbox",
		DefaultLogoutRedirectURI: opts.Issuer + loggedOutPath,
		CodeMethodS256:           true,
		AuthMethodPost:           true,
		SupportedScopes:          []string{oidc.ScopeOpenID, oidc.ScopeEmail, oidc.ScopeProfile, groupsScope},
		SupportedClaims:          append(slices.Clone(op.DefaultSupportedClaims), opts.GroupsClaim),
	}
	provider, err := op.NewProvider(config, st, op.StaticIssuer(opts.Issuer), op.WithAllowInsecure())
	if err != nil {
		return nil, fmt.Errorf("idpsandbox: %w", err)
	}
	p := &Provider{
		issuer:     opts.Issuer,
		issuerPath: issuerPath,
		store:      st,
		op:         provider,
		opHandler:  provider,
		logger:     opts.Logger,
	}
	// zitadel routes its endpoints at the root ("/authorize", "/keys") and
	// only puts the issuer's path into the URLs it hands out, so the path
	// comes off here rather than in every caller's mux.
	if issuerPath != "" {
		p.opHandler = http.StripPrefix(issuerPath, provider)
	}
	return p, nil
}

// ServeHTTP serves every path under the issuer's path, as received (the
// caller mounts it as mux.Handle(issuerPath+"/", p), without StripPrefix).
func (p *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case p.issuerPath + loginPath:
		p.serveLogin(w, r)
		return
	case p.issuerPath + loggedOutPath:
		p.serveLoggedOut(w, r)
		return
	}
	if p.issuerPath != "" && !strings.HasPrefix(r.URL.Path, p.issuerPath+"/") {
		http.NotFound(w, r)
		return
	}
	p.opHandler.ServeHTTP(w, r)
}

// SetGroups replaces the groups of the person with the subject, for the
// tokens and userinfo answers issued from now on. It returns
// ErrUnknownSubject for a subject the sandbox does not know.
func (p *Provider) SetGroups(subject string, groups []string) error {
	return p.store.setGroups(subject, groups)
}

// AddClient registers c, replacing a client with the same ID.
func (p *Provider) AddClient(c Client) {
	p.store.addClient(c)
}

// Issuer returns the issuer URL the provider was built with.
func (p *Provider) Issuer() string {
	return p.issuer
}

// callbackURL is where the sign-in page sends the browser once the request
// is done: zitadel's authorize callback, which redirects to the client.
func (p *Provider) callbackURL(ctx context.Context, requestID string) string {
	return op.AuthCallbackURL(p.op)(op.ContextWithIssuer(ctx, p.issuer), requestID)
}

// checkIssuer validates the issuer and returns its path ("" when it has none).
func checkIssuer(issuer string) (string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return "", fmt.Errorf("idpsandbox: issuer: %w", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("idpsandbox: issuer %q: scheme must be http or https", issuer)
	case u.Host == "":
		return "", fmt.Errorf("idpsandbox: issuer %q: no host", issuer)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", fmt.Errorf("idpsandbox: issuer %q: must not have a query, fragment or user", issuer)
	case strings.HasSuffix(u.Path, "/"):
		// Relying parties compare the issuer byte for byte, so one spelling.
		return "", fmt.Errorf("idpsandbox: issuer %q: must not end with a slash", issuer)
	case u.RawPath != "":
		return "", fmt.Errorf("idpsandbox: issuer %q: path must not need escaping", issuer)
	}
	return u.Path, nil
}

func checkPeople(people []Person) error {
	seen := map[string]bool{}
	for _, person := range people {
		switch {
		case person.Subject == "":
			return fmt.Errorf("idpsandbox: person %q: empty subject", person.Email)
		case strings.Contains(person.Subject, ":"):
			// zitadel's opaque access token is "tokenID:subject", split on ":".
			return fmt.Errorf("idpsandbox: person %q: subject must not contain ':'", person.Subject)
		case seen[person.Subject]:
			return fmt.Errorf("idpsandbox: person %q: duplicate subject", person.Subject)
		}
		seen[person.Subject] = true
	}
	return nil
}

func checkClients(clients []Client) error {
	seen := map[string]bool{}
	for _, c := range clients {
		switch {
		case c.ID == "" || c.Secret == "":
			return fmt.Errorf("idpsandbox: client %q: ID and Secret are required", c.ID)
		case seen[c.ID]:
			return fmt.Errorf("idpsandbox: client %q: duplicate ID", c.ID)
		}
		seen[c.ID] = true
	}
	return nil
}
