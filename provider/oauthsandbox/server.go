// Package oauthsandbox is the authorization-code core of the providers'
// sandbox authorization servers: the consent page, codes bound to client,
// redirect URI and PKCE challenge, and the access and refresh tokens they
// become. Each provider package wraps it in its provider's paths, parameter
// names and error shapes (hubspot, googleapi, metaads, linkedinads).
package oauthsandbox

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Options describe one provider's sandbox authorization server.
type Options struct {
	// Name is the provider as people know it ("Google"), in the page title.
	Name string
	// ClientID and ClientSecret are the one registered client.
	ClientID, ClientSecret string
	// RedirectURIs are the client's registered redirect URIs (Register
	// adds more): an authorization request must name one exactly, as
	// RFC 6749 §3.1.2.3 lets a server require and every provider served
	// here does; none registered, every request is refused.
	RedirectURIs []string
	// KnownScopes are the scopes the provider knows, the ones a client may
	// request; a request with any other is refused (RFC 6749 §4.1.2.1
	// invalid_scope).
	KnownScopes []string
	// RedirectMismatch words the error page shown for a redirect URI the
	// client did not register; it is always a page, never a redirect
	// (RFC 6749 §4.1.2.1). nil: RFC 6749's redirect_uri_mismatch.
	RedirectMismatch func(redirectURI string) Refusal
	// InvalidScope words the refusal of a request naming scopes the
	// provider does not know (unknown; known are the request's others).
	// nil: RFC 6749's redirect with error=invalid_scope.
	InvalidScope func(unknown, known []string) Refusal
	// ScopeSeparator splits the scope parameter: " " for most, "," for Meta.
	ScopeSeparator string
	// TokenPrefix starts every token issued, so a reader of a sandbox log
	// can tell issued tokens from seeded ones.
	TokenPrefix string
	// AccessTTL is the lifetime of an access token issued from a code.
	AccessTTL time.Duration
	// Refresh says when a refresh token is issued with a code's access
	// token; nil: never.
	Refresh func(params url.Values) bool
	// Scopes, when set, turns the scopes a person consented to into those
	// the grant holds (Google's include_granted_scopes adds earlier ones);
	// nil: the consented scopes.
	Scopes func(consented []string, params url.Values) []string
	// RotateRefresh issues a new refresh token on every refresh and retires
	// the old one; otherwise the refresh token stays the same.
	RotateRefresh bool
	// Denial is the query a denied consent redirects with, state excluded.
	Denial url.Values
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// Refusal is how the authorize endpoint answers a request it refuses:
// an error page when Page is set, else a redirect to the registered
// redirect URI with error=Code and error_description=Description.
type Refusal struct {
	Page bool
	// Title heads the page ("Authorization Error"); "": "error".
	Title string
	// Code is the OAuth error code; a page shows it as "Error 400: code"
	// (Google's wording) unless it is "".
	Code        string
	Description string
}

// CodeTTL is how long an authorization code can be exchanged: RFC 6749
// §4.1.2 recommends at most ten minutes; the sandbox keeps five.
const CodeTTL = 5 * time.Minute

// Grant is what an issued token was granted.
type Grant struct {
	ClientID string
	Scopes   []string
	// Params are the authorize request's parameters (access_type, …).
	Params  url.Values
	Expires time.Time // zero: does not expire
}

// Issued is the answer of a token request, for the provider to encode.
type Issued struct {
	AccessToken  string
	RefreshToken string // "" when none is issued
	ExpiresIn    int    // seconds
	Grant        Grant
}

// Error is an OAuth error (RFC 6749 §5.2 codes) for the provider to encode.
// Description never holds a secret.
type Error struct {
	Code        string // invalid_request, invalid_client, invalid_grant, unsupported_grant_type
	Description string
}

func (e *Error) Error() string { return e.Code + ": " + e.Description }

// Server is a sandbox authorization server, safe for concurrent use.
type Server struct {
	opts Options

	mu        sync.Mutex
	redirects []string                // registered redirect URIs
	pending   map[string]*authRequest // consent page id → request
	codes     map[string]*authCode
	access    map[string]Grant
	refresh   map[string]Grant
	issueLog  []string // issued access tokens, oldest first
}

type authRequest struct {
	redirect *url.URL
	// redirectURI is the request's redirect_uri as sent, which the code
	// exchange must repeat (RFC 6749 §4.1.3).
	redirectURI string
	state       string
	scopes      []string
	challenge   string
	params      url.Values
	expires     time.Time
}

type authCode struct {
	req     *authRequest
	expires time.Time
}

// New returns a server that knows no grant.
func New(opts Options) *Server {
	if opts.ScopeSeparator == "" {
		opts.ScopeSeparator = " "
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.AccessTTL == 0 {
		opts.AccessTTL = time.Hour
	}
	if opts.RedirectMismatch == nil {
		opts.RedirectMismatch = func(string) Refusal {
			return Refusal{Page: true, Code: "redirect_uri_mismatch", Description: "The redirect URI is not registered for this client."}
		}
	}
	if opts.InvalidScope == nil {
		opts.InvalidScope = func(unknown, _ []string) Refusal {
			return Refusal{Code: "invalid_scope", Description: "unknown scope: " + strings.Join(unknown, " ")}
		}
	}
	return &Server{opts: opts, redirects: slices.Clone(opts.RedirectURIs), pending: map[string]*authRequest{},
		codes: map[string]*authCode{}, access: map[string]Grant{}, refresh: map[string]Grant{}}
}

// Register adds redirect URIs to the client's registered ones, as a
// developer adds them in the provider's app settings; a request must name
// one of them exactly.
func (s *Server) Register(redirectURIs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range redirectURIs {
		if !slices.Contains(s.redirects, u) {
			s.redirects = append(s.redirects, u)
		}
	}
}

func (s *Server) registered(redirectURI string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.redirects, redirectURI)
}

// ClientID returns the registered client's id.
func (s *Server) ClientID() string { return s.opts.ClientID }

// NewSecret returns a random client secret.
func NewSecret() string { return random(24) }

func random(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Lookup returns the grant of an unexpired access token this server issued.
func (s *Server) Lookup(token string) (Grant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.access[token]
	if !ok || (!g.Expires.IsZero() && !s.opts.Now().Before(g.Expires)) {
		return Grant{}, false
	}
	return g, true
}

// RefreshGrant returns the grant of a refresh token this server issued.
func (s *Server) RefreshGrant(token string) (Grant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.refresh[token]
	return g, ok
}

// Authorize validates an authorization request and renders the consent
// page. A request with an unknown client or a redirect URI the client did
// not register gets an error page, never a redirect (RFC 6749 §4.1.2.1);
// unknown scopes get the provider's InvalidScope refusal; other faults
// redirect with error= as the RFC says. Meta defaults response_type to
// code; the caller sets it before calling when its provider does.
func (s *Server) Authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("client_id") == "" || q.Get("client_id") != s.opts.ClientID {
		s.errorPage(w, Refusal{Code: "invalid_client", Description: "The OAuth client was not found."})
		return
	}
	redirectURI := q.Get("redirect_uri")
	redirect, ok := absoluteRedirect(redirectURI)
	if !ok {
		s.errorPage(w, Refusal{Code: "redirect_uri_mismatch", Description: "The redirect URI is missing or not an absolute http(s) URL."})
		return
	}
	if !s.registered(redirectURI) {
		s.errorPage(w, s.opts.RedirectMismatch(redirectURI))
		return
	}
	state := q.Get("state")
	refuse := func(ref Refusal) {
		if ref.Page {
			s.errorPage(w, ref)
			return
		}
		v := url.Values{"error": {ref.Code}, "error_description": {ref.Description}}
		redirectTo(w, r, redirect, v, state)
	}
	fail := func(code, desc string) { refuse(Refusal{Code: code, Description: desc}) }
	if q.Get("response_type") != "code" {
		fail("unsupported_response_type", "response_type must be code")
		return
	}
	scopes := splitScopes(q.Get("scope"), s.opts.ScopeSeparator)
	if len(scopes) == 0 {
		fail("invalid_scope", "scope is missing")
		return
	}
	if unknown, known := s.sortScopes(scopes); len(unknown) > 0 {
		refuse(s.opts.InvalidScope(unknown, known))
		return
	}
	challenge := q.Get("code_challenge")
	if challenge != "" && q.Get("code_challenge_method") != "S256" {
		fail("invalid_request", "code_challenge_method must be S256")
		return
	}
	if challenge != "" && (len(challenge) < 43 || len(challenge) > 128) {
		fail("invalid_request", "code_challenge must be 43 to 128 characters")
		return
	}
	id := random(18)
	s.mu.Lock()
	s.sweep()
	s.pending[id] = &authRequest{redirect: redirect, redirectURI: redirectURI, state: state, scopes: scopes, challenge: challenge,
		params: q, expires: s.opts.Now().Add(CodeTTL * 2)}
	s.mu.Unlock()
	s.consentPage(w, r, id, scopes)
}

// Decide answers the consent page's form: decision=allow redirects with a
// code and the state, anything else with the provider's denial.
func (s *Server) Decide(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, Refusal{Code: "invalid_request", Description: "The consent form could not be read."})
		return
	}
	id := r.PostForm.Get("request")
	s.mu.Lock()
	req, ok := s.pending[id]
	delete(s.pending, id)
	now := s.opts.Now()
	if ok && !now.Before(req.expires) {
		ok = false
	}
	var code string
	if ok && r.PostForm.Get("decision") == "allow" {
		code = random(24)
		s.codes[code] = &authCode{req: req, expires: now.Add(CodeTTL)}
	}
	s.mu.Unlock()
	if !ok {
		s.errorPage(w, Refusal{Code: "invalid_request", Description: "This consent request is unknown, used or expired. Start again from the application."})
		return
	}
	if code == "" {
		redirectTo(w, r, req.redirect, s.opts.Denial, req.state)
		return
	}
	redirectTo(w, r, req.redirect, url.Values{"code": {code}}, req.state)
}

// TokenRequest is a token endpoint's input, read by ReadTokenRequest.
type TokenRequest struct {
	GrantType, Code, RedirectURI, Verifier, RefreshToken string
	ClientID, ClientSecret                               string
	// Form is every parameter, for provider-specific grants.
	Form url.Values
}

// ReadTokenRequest reads a token request's parameters from a form body
// (or, for GET, the query, as Meta takes them) and the client's
// credentials from the body (client_secret_post) or HTTP Basic
// (client_secret_basic, RFC 6749 §2.3.1: both parts form-encoded). Using
// both at once is refused, as the RFC says.
func ReadTokenRequest(w http.ResponseWriter, r *http.Request) (TokenRequest, *Error) {
	var form url.Values
	if r.Method == http.MethodGet {
		form = r.URL.Query()
	} else {
		r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
		if err := r.ParseForm(); err != nil {
			return TokenRequest{}, &Error{"invalid_request", "the body is not a form"}
		}
		form = r.PostForm
	}
	tr := TokenRequest{GrantType: form.Get("grant_type"), Code: form.Get("code"), RedirectURI: form.Get("redirect_uri"),
		Verifier: form.Get("code_verifier"), RefreshToken: form.Get("refresh_token"),
		ClientID: form.Get("client_id"), ClientSecret: form.Get("client_secret"), Form: form}
	if user, pass, ok := r.BasicAuth(); ok {
		if tr.ClientSecret != "" {
			return tr, &Error{"invalid_request", "client credentials were sent twice"}
		}
		id, err1 := url.QueryUnescape(user)
		secret, err2 := url.QueryUnescape(pass)
		if err1 != nil || err2 != nil || (tr.ClientID != "" && tr.ClientID != id) {
			return tr, &Error{"invalid_client", "the client credentials could not be read"}
		}
		tr.ClientID, tr.ClientSecret = id, secret
	}
	return tr, nil
}

// Authenticate checks the client's id and secret.
func (s *Server) Authenticate(tr TokenRequest) *Error {
	idOK := subtle.ConstantTimeCompare([]byte(tr.ClientID), []byte(s.opts.ClientID)) == 1
	secretOK := subtle.ConstantTimeCompare([]byte(tr.ClientSecret), []byte(s.opts.ClientSecret)) == 1
	if !idOK || !secretOK || tr.ClientSecret == "" {
		return &Error{"invalid_client", "the client id or secret is wrong"}
	}
	return nil
}

// Consent serves the consent page (GET) and its form (POST). It reports
// false for any other method, which each provider answers in its own shape.
func (s *Server) Consent(w http.ResponseWriter, r *http.Request) bool {
	switch r.Method {
	case http.MethodGet:
		s.Authorize(w, r)
	case http.MethodPost:
		s.Decide(w, r)
	default:
		return false
	}
	return true
}

// Grant answers a token request of the authorization_code or
// refresh_token grant; any other grant type is unsupported_grant_type with
// no description, which each provider words its own way.
func (s *Server) Grant(tr TokenRequest) (Issued, *Error) {
	switch tr.GrantType {
	case "authorization_code":
		return s.ExchangeCode(tr)
	case "refresh_token":
		return s.RefreshToken(tr)
	}
	return Issued{}, &Error{Code: "unsupported_grant_type"}
}

// ExchangeCode turns a code into tokens once: the code must be unexpired
// and was issued to this client for this redirect URI, and the verifier
// must match the code's S256 challenge. Any failure spends the code, so a
// replay always fails (RFC 6749 §4.1.2).
func (s *Server) ExchangeCode(tr TokenRequest) (Issued, *Error) {
	if e := s.Authenticate(tr); e != nil {
		return Issued{}, e
	}
	if tr.Code == "" {
		return Issued{}, &Error{"invalid_request", "code is missing"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.codes[tr.Code]
	delete(s.codes, tr.Code)
	switch {
	case !ok:
		return Issued{}, &Error{"invalid_grant", "the code is unknown or was already used"}
	case !s.opts.Now().Before(c.expires):
		return Issued{}, &Error{"invalid_grant", "the code expired"}
	case tr.RedirectURI != c.req.redirectURI:
		return Issued{}, &Error{"invalid_grant", "redirect_uri does not match the authorization request"}
	case c.req.challenge != "" && !verifierMatches(tr.Verifier, c.req.challenge):
		return Issued{}, &Error{"invalid_grant", "code_verifier does not match the code_challenge"}
	case c.req.challenge == "" && tr.Verifier != "":
		return Issued{}, &Error{"invalid_grant", "code_verifier was sent for a code issued without a challenge"}
	}
	scopes := slices.Clone(c.req.scopes)
	if s.opts.Scopes != nil {
		scopes = s.opts.Scopes(scopes, c.req.params)
	}
	g := Grant{ClientID: s.opts.ClientID, Scopes: scopes, Params: c.req.params}
	iss := s.issueLocked(g, s.opts.AccessTTL)
	if s.opts.Refresh != nil && s.opts.Refresh(c.req.params) {
		iss.RefreshToken = s.opts.TokenPrefix + "r-" + random(24)
		s.refresh[iss.RefreshToken] = g
	}
	return iss, nil
}

// RefreshToken issues a new access token for a refresh token; with
// RotateRefresh it also replaces the refresh token.
func (s *Server) RefreshToken(tr TokenRequest) (Issued, *Error) {
	if e := s.Authenticate(tr); e != nil {
		return Issued{}, e
	}
	if tr.RefreshToken == "" {
		return Issued{}, &Error{"invalid_request", "refresh_token is missing"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.refresh[tr.RefreshToken]
	if !ok {
		return Issued{}, &Error{"invalid_grant", "the refresh token is unknown or was revoked"}
	}
	iss := s.issueLocked(g, s.opts.AccessTTL)
	iss.RefreshToken = tr.RefreshToken
	if s.opts.RotateRefresh {
		delete(s.refresh, tr.RefreshToken)
		iss.RefreshToken = s.opts.TokenPrefix + "r-" + random(24)
		s.refresh[iss.RefreshToken] = g
	}
	return iss, nil
}

// Extend exchanges an unexpired access token for one living ttl, with the
// same grant: Meta's fb_exchange_token.
func (s *Server) Extend(tr TokenRequest, token string, ttl time.Duration) (Issued, *Error) {
	if e := s.Authenticate(tr); e != nil {
		return Issued{}, e
	}
	g, ok := s.Lookup(token)
	if !ok {
		return Issued{}, &Error{"invalid_grant", "the access token is unknown or expired"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issueLocked(g, ttl), nil
}

// issueLocked makes an access token for g; s.mu is held.
func (s *Server) issueLocked(g Grant, ttl time.Duration) Issued {
	token := s.opts.TokenPrefix + random(24)
	g.Expires = s.opts.Now().Add(ttl)
	s.access[token] = g
	s.issueLog = append(s.issueLog, token)
	return Issued{AccessToken: token, ExpiresIn: int(ttl / time.Second), Grant: g}
}

// sweep forgets expired consent requests, codes and access tokens; s.mu is held.
func (s *Server) sweep() {
	now := s.opts.Now()
	for id, p := range s.pending {
		if !now.Before(p.expires) {
			delete(s.pending, id)
		}
	}
	for c, v := range s.codes {
		if !now.Before(v.expires) {
			delete(s.codes, c)
		}
	}
	kept := s.issueLog[:0]
	for _, t := range s.issueLog {
		if g, ok := s.access[t]; ok && !now.Before(g.Expires) {
			delete(s.access, t)
			continue
		}
		kept = append(kept, t)
	}
	s.issueLog = kept
}

// verifierMatches checks an RFC 7636 S256 verifier against its challenge.
func verifierMatches(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// absoluteRedirect accepts an absolute http(s) URL without a fragment
// (RFC 6749 §3.1.2).
func absoluteRedirect(raw string) (*url.URL, bool) {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" || u.User != nil {
		return nil, false
	}
	return u, true
}

// sortScopes splits requested scopes into those the provider does not
// know and those it does.
func (s *Server) sortScopes(requested []string) (unknown, known []string) {
	for _, sc := range requested {
		if slices.Contains(s.opts.KnownScopes, sc) {
			known = append(known, sc)
		} else {
			unknown = append(unknown, sc)
		}
	}
	return unknown, known
}

func splitScopes(raw, sep string) []string {
	var out []string
	for _, s := range strings.Split(raw, sep) {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// redirectTo sends the browser to base with params and state added to its
// own query (RFC 6749 §4.1.2: the redirect URI's query is kept).
func redirectTo(w http.ResponseWriter, r *http.Request, base *url.URL, params url.Values, state string) {
	u := *base
	q := u.Query()
	for k, vs := range params {
		q[k] = slices.Clone(vs)
	}
	if state != "" {
		q.Set("state", state)
	}
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusFound)
}
