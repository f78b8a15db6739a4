package sso

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
)

// Store is what sign-in needs of gtmgate.Store.
type Store interface {
	GetIdP(ctx context.Context, name string) (*gtmgate.IdP, error)
	ListRoleGrants(ctx context.Context, idp string) ([]*gtmgate.RoleGrant, error)
	SignedIn(ctx context.Context, idp string, id gtmgate.Identity, at time.Time) (*gtmgate.Person, error)
	CreateSignIn(ctx context.Context, s *gtmgate.SignIn) error
	TakeSignIn(ctx context.Context, stateHash string, at time.Time) (*gtmgate.SignIn, error)
}

// SignInLifetime is how long a person has at the IdP before the sign-in
// they started is void.
const SignInLifetime = 10 * time.Minute

// Options configures a Flow. Store and GatewayURL are required.
type Options struct {
	Store      Store
	GatewayURL string
	// Timeout bounds each call to an IdP (discovery, keys, code exchange).
	Timeout time.Duration
	// Transport, when set, carries the calls to IdPs (tests).
	Transport http.RoundTripper
	Now       func() time.Time
}

// Flow signs people in through the configured IdPs.
type Flow struct {
	opts   Options
	client *http.Client

	mu        sync.Mutex
	providers map[string]*discovered // by issuer
}

// discovered is an IdP's discovery document and key set, kept while its
// issuer stays the same: an IdP that is down later does not end sessions,
// and new sign-ins use what was found.
type discovered struct {
	provider *oidc.Provider
}

// New returns a Flow.
func New(opts Options) *Flow {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	return &Flow{opts: opts, client: &http.Client{Timeout: opts.Timeout, Transport: opts.Transport},
		providers: map[string]*discovered{}}
}

// Start begins a sign-in through the IdP named idpName: it stores the
// sign-in (state hash, nonce, PKCE verifier, where to go next) and returns
// the IdP's authorization URL and the state, which the caller binds to the
// browser in a cookie.
func (f *Flow) Start(ctx context.Context, idpName, next string) (authURL, state string, err error) {
	idp, err := f.idp(ctx, idpName)
	if err != nil {
		return "", "", err
	}
	p, err := f.discover(ctx, idp)
	if err != nil {
		return "", "", err
	}
	state, nonce, verifier := randomValue(), randomValue(), oauth2.GenerateVerifier()
	now := f.opts.Now()
	in := &gtmgate.SignIn{StateHash: secret.HashToken(state), IdP: idp.Name, Nonce: nonce, Verifier: verifier, Next: next,
		CreatedAt: now, ExpiresAt: now.Add(SignInLifetime)}
	if err := f.opts.Store.CreateSignIn(ctx, in); err != nil {
		return "", "", fmt.Errorf("sso: start sign-in: %w", err)
	}
	cfg := f.oauthConfig(idp, p)
	return cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oidc.Nonce(nonce)), state, nil
}

// Callback is what the IdP sent back to CallbackPath.
type Callback struct {
	State, Code             string
	Error, ErrorDescription string
	// BrowserState is the state the browser's cookie holds: a callback
	// from another browser (login CSRF) does not match it.
	BrowserState string
}

// ParseCallback reads a callback's query.
func ParseCallback(q url.Values, browserState string) Callback {
	return Callback{State: q.Get("state"), Code: q.Get("code"), Error: q.Get("error"),
		ErrorDescription: q.Get("error_description"), BrowserState: browserState}
}

// Result is a finished sign-in: the person, what the IdP asserted, and the
// grants that give them roles (never empty).
type Result struct {
	IdP      *gtmgate.IdP
	Identity gtmgate.Identity
	Person   *gtmgate.Person
	Grants   []gtmgate.RoleGrant
	Next     string
}

// Finish completes a sign-in from its callback: it takes the stored
// sign-in (once), exchanges the code with the PKCE verifier, verifies the
// ID token (signature by the IdP's keys, issuer, audience, expiry) and its
// nonce, checks the email domain, and finds the person's grants. A person
// with no grant is refused and nothing about them is stored.
func (f *Flow) Finish(ctx context.Context, cb Callback) (*Result, error) {
	if cb.State == "" {
		return nil, refuse(gtmgate.EValidation, "the IdP sent no state back", "start again from the sign-in page")
	}
	if cb.BrowserState == "" || !secret.EqualHash(secret.HashToken(cb.State), secret.HashToken(cb.BrowserState)) {
		return nil, refuse(gtmgate.EUnauthorized, "this sign-in was not started in this browser, or it has expired",
			"start again from the sign-in page in the same browser")
	}
	in, err := f.opts.Store.TakeSignIn(ctx, secret.HashToken(cb.State), f.opts.Now())
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, refuse(gtmgate.EUnauthorized, "this sign-in was already used or has expired",
			fmt.Sprintf("a sign-in is good once and for %s; start again from the sign-in page", SignInLifetime))
	}
	if err != nil {
		return nil, fmt.Errorf("sso: take sign-in: %w", err)
	}
	if cb.Error != "" {
		return nil, refuse(gtmgate.EUnauthorized, fmt.Sprintf("the identity provider refused the sign-in: %s %s", clip(cb.Error), clip(cb.ErrorDescription)),
			"ask the IdP's administrator whether you are assigned to the gtmgate application")
	}
	if cb.Code == "" {
		return nil, refuse(gtmgate.EValidation, "the IdP sent no authorization code back", "start again from the sign-in page")
	}
	idp, err := f.idp(ctx, in.IdP)
	if err != nil {
		return nil, err
	}
	p, err := f.discover(ctx, idp)
	if err != nil {
		return nil, err
	}
	id, err := f.verify(ctx, idp, p, in, cb.Code)
	if err != nil {
		return nil, err
	}
	if !idp.EmailAllowed(id.Email) || (len(idp.AllowedDomains) > 0 && !id.EmailVerified) {
		return nil, refuse(gtmgate.EForbidden, fmt.Sprintf("%s may not sign in through %s: only verified addresses at %s can",
			orUnknown(id.Email), idp.Name, strings.Join(idp.AllowedDomains, ", ")),
			"sign in with your work account, or ask an operator to add your domain to the IdP's allowed domains")
	}
	grants, err := f.grants(ctx, idp, id)
	if err != nil {
		return nil, err
	}
	if len(grants) == 0 {
		hint := fmt.Sprintf("ask an operator to grant you a role: gtmgate admin roles grant --idp %s --subject %s --role ROLE [--tenant T]", idp.Name, id.Subject)
		if id.Email != "" && id.EmailVerified {
			hint = fmt.Sprintf("ask an operator to grant you a role: gtmgate admin roles grant --idp %s --email %s --role ROLE [--tenant T]", idp.Name, id.Email)
		} else if id.Email != "" {
			hint += " (your IdP did not say your email is verified, so a grant by email will not match)"
		}
		return nil, refuse(gtmgate.EForbidden, fmt.Sprintf("you signed in as %s, but no role in gtmgate has been given to you", orUnknown(id.Email)), hint)
	}
	person, err := f.opts.Store.SignedIn(ctx, idp.Name, id, f.opts.Now())
	if err != nil {
		return nil, fmt.Errorf("sso: record sign-in: %w", err)
	}
	return &Result{IdP: idp, Identity: id, Person: person, Grants: grants, Next: in.Next}, nil
}

// verify exchanges the code and checks the ID token and its nonce.
func (f *Flow) verify(ctx context.Context, idp *gtmgate.IdP, p *oidc.Provider, in *gtmgate.SignIn, code string) (gtmgate.Identity, error) {
	ctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, f.client), f.opts.Timeout)
	defer cancel()
	tok, err := f.oauthConfig(idp, p).Exchange(ctx, code, oauth2.VerifierOption(in.Verifier))
	if err != nil {
		return gtmgate.Identity{}, refuseCause(gtmgate.EUpstream, fmt.Sprintf("%s did not accept the sign-in's code", idp.Name),
			"start again; if it keeps failing, check the IdP's client id and secret in gtmgate", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return gtmgate.Identity{}, refuse(gtmgate.EUpstream, fmt.Sprintf("%s sent no ID token", idp.Name),
			"the gtmgate application at the IdP must be an OpenID Connect client with the openid scope")
	}
	idt, err := p.VerifierContext(ctx, &oidc.Config{ClientID: idp.ClientID, Now: f.opts.Now}).Verify(ctx, raw)
	if err != nil {
		return gtmgate.Identity{}, refuseCause(gtmgate.EUnauthorized, fmt.Sprintf("the ID token from %s could not be verified", idp.Name),
			"start again; if it keeps failing, check the IdP's issuer and client id in gtmgate and the server clocks", err)
	}
	if idt.Nonce == "" || !secret.EqualHash(secret.HashToken(idt.Nonce), secret.HashToken(in.Nonce)) {
		return gtmgate.Identity{}, refuse(gtmgate.EUnauthorized, "the ID token was not issued for this sign-in (nonce mismatch)",
			"start again from the sign-in page")
	}
	return identityOf(idt, idp.GroupsClaim)
}

// identityOf reads the claims gtmgate uses from a verified ID token.
func identityOf(idt *oidc.IDToken, groupsClaim string) (gtmgate.Identity, error) {
	var claims map[string]any
	if err := idt.Claims(&claims); err != nil {
		return gtmgate.Identity{}, fmt.Errorf("sso: read ID token claims: %w", err)
	}
	id := gtmgate.Identity{Issuer: idt.Issuer, Subject: idt.Subject}
	id.Email, _ = claims["email"].(string)
	id.Name, _ = claims["name"].(string)
	switch v := claims["email_verified"].(type) {
	case bool:
		id.EmailVerified = v
	case string: // some IdPs send "true"
		id.EmailVerified = v == "true"
	}
	id.Groups = stringsClaim(claims[cmp.Or(groupsClaim, "groups")])
	return id, nil
}

// stringsClaim reads a claim that lists strings (or is one string).
func stringsClaim(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			if s, ok := e.(string); ok && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Actor returns the actor of a person's console session with the roles
// their grants give now; ErrNoRole when none is left (a grant or group
// mapping was removed), so the session must end.
func (f *Flow) Actor(ctx context.Context, s *gtmgate.ConsoleSession) (*gtmgate.Actor, error) {
	idp, err := f.opts.Store.GetIdP(ctx, s.IdP)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, ErrNoRole
	}
	if err != nil {
		return nil, fmt.Errorf("sso: session's idp: %w", err)
	}
	grants, err := f.grants(ctx, idp, s.Identity)
	if err != nil {
		return nil, err
	}
	if len(grants) == 0 {
		return nil, ErrNoRole
	}
	return PersonActor(s.PersonID, s.Identity, idp.Name, grants), nil
}

// PersonActor is the actor of a signed-in person.
func PersonActor(personID string, id gtmgate.Identity, idp string, grants []gtmgate.RoleGrant) *gtmgate.Actor {
	return &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: personID, Name: cmp.Or(id.Email, id.Name, id.Subject), Via: "sso:" + idp, Roles: grants}
}

// ErrNoRole means a signed-in person holds no role any more.
var ErrNoRole = errors.New("sso: no role is granted to this person")

func (f *Flow) grants(ctx context.Context, idp *gtmgate.IdP, id gtmgate.Identity) ([]gtmgate.RoleGrant, error) {
	all, err := f.opts.Store.ListRoleGrants(ctx, idp.Name)
	if err != nil {
		return nil, fmt.Errorf("sso: role grants: %w", err)
	}
	return gtmgate.GrantsFor(idp, all, id), nil
}

func (f *Flow) idp(ctx context.Context, name string) (*gtmgate.IdP, error) {
	idp, err := f.opts.Store.GetIdP(ctx, name)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, refuse(gtmgate.ENotFound, fmt.Sprintf("no identity provider is named %q", clip(name)),
			"choose one on the sign-in page; an operator adds them with gtmgate admin sso put")
	}
	if err != nil {
		return nil, fmt.Errorf("sso: idp %q: %w", name, err)
	}
	return idp, nil
}

// discover returns the IdP's discovered configuration, fetching it on first
// use and again when its issuer changed.
func (f *Flow) discover(ctx context.Context, idp *gtmgate.IdP) (*oidc.Provider, error) {
	f.mu.Lock()
	d := f.providers[idp.Issuer]
	f.mu.Unlock()
	if d != nil {
		return d.provider, nil
	}
	ctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, f.client), f.opts.Timeout)
	defer cancel()
	p, err := oidc.NewProvider(ctx, idp.Issuer)
	if err != nil {
		return nil, refuseCause(gtmgate.EUpstream, fmt.Sprintf("the identity provider %s cannot be reached at %s", idp.Name, idp.Issuer),
			"try again in a moment; if it persists, check the issuer URL against the IdP's /.well-known/openid-configuration. "+
				"Signed-in sessions go on, and the break-glass admin key still signs in", err)
	}
	f.mu.Lock()
	f.providers[idp.Issuer] = &discovered{provider: p}
	f.mu.Unlock()
	return p, nil
}

func (f *Flow) oauthConfig(idp *gtmgate.IdP, p *oidc.Provider) *oauth2.Config {
	// No "groups" scope: Google and Entra refuse scopes they do not know;
	// the groups claim is configured at the IdP (see the People docs).
	scopes := []string{oidc.ScopeOpenID, "email", "profile"}
	return &oauth2.Config{ClientID: idp.ClientID, ClientSecret: idp.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: RedirectURI(f.opts.GatewayURL), Scopes: scopes}
}

// refuse is a sign-in failure shown to the person: what happened and the fix.
func refuse(code, msg, hint string) error {
	return gtmgate.Errorf(code, "%s", msg).WithHint(hint)
}

func refuseCause(code, msg, hint string, cause error) error {
	return &gtmgate.Error{Code: code, Message: msg, Hint: hint, Err: cause}
}

func randomValue() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// clip bounds a value the IdP or the browser sent before it is shown.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

func orUnknown(email string) string { return cmp.Or(email, "an account without an email address") }
