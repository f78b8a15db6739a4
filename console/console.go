// Package console is the operator console: server-rendered pages at
// /console on the gateway listener, over the admin API. Every page and
// action is an admin API request served in-process by the admin handler
// (one code path: the same routes, validation and audit, recorded with
// source "console"); the console adds sign-in with the admin key, a
// session cookie, CSRF tokens and the browser's security headers.
package console

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/formtoken"
	"github.com/gtmgate/gtmgate/secret"
	"github.com/gtmgate/gtmgate/sso"
	"github.com/gtmgate/gtmgate/throttle"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// SessionLifetime is how long a sign-in lasts; there is no sliding renewal,
// so a stolen cookie is bounded too.
const SessionLifetime = 8 * time.Hour

// Headers every console response carries: no framing, no inline script or
// style, no caching of pages that hold tenant data.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	"X-Frame-Options":              "DENY",
	"X-Content-Type-Options":       "nosniff",
	"Referrer-Policy":              "same-origin",
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
	"Cache-Control":                "no-store",
}

// AdminAPI runs an admin API request the console has authenticated
// (admin.Handler) as the session's actor.
type AdminAPI interface {
	CallSignedIn(r *http.Request, source string, actor *gtmgate.Actor) (status int, body []byte)
}

// Options configures the console. Admin, Sessions, Recorder, KeyHash and
// CSRFKey are required.
type Options struct {
	Admin    AdminAPI
	Sessions gtmgate.ConsoleStore
	Recorder gtmgate.Recorder
	// KeyHash is the SHA-256 hex of the admin key; a session opened under
	// another key hash (the key was rotated) is over.
	KeyHash string
	// KeyGuard throttles wrong admin keys per client address, shared with
	// the admin API.
	KeyGuard *throttle.Guard
	// CSRFKey signs the forms' CSRF tokens.
	CSRFKey []byte
	// GatewayURL is the gateway's public URL: an https URL makes the
	// cookies Secure, and a form must come from its origin.
	GatewayURL   string
	MaxBodyBytes int64
	Now          func() time.Time
	Logger       *slog.Logger
	// Client returns the client address of a request, for the audit.
	Client func(r *http.Request) string
	// SSO signs people in through the configured IdPs; nil: only the
	// break-glass admin key signs in.
	SSO *sso.Flow
	// IdPs lists the IdPs the sign-in page offers.
	IdPs func(ctx context.Context) ([]*gtmgate.IdP, error)
	// Tenants lists every tenant, for the OAuth consent page of an
	// operator (SignedIn, Tenants).
	Tenants func(ctx context.Context) ([]*gtmgate.Tenant, error)
	// Providers are the gateway's known provider keys (the admin API's
	// list), offered by the tenant configuration form.
	Providers []string
}

// Console serves /console/.
type Console struct {
	opts  Options
	mux   *http.ServeMux
	pages map[string]pageTemplate
	// signInForms and sessionForms sign the sign-in form's token (of a
	// pre-session nonce) and every other form's (of the session cookie).
	signInForms, sessionForms formtoken.Signer
	crossOrigin               *http.CrossOriginProtection
}

// New returns the console.
func New(opts Options) (*Console, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	if opts.Client == nil {
		opts.Client = func(r *http.Request) string { return r.RemoteAddr }
	}
	secure := strings.HasPrefix(opts.GatewayURL, "https://")
	c := &Console{opts: opts, mux: http.NewServeMux(), crossOrigin: http.NewCrossOriginProtection(),
		signInForms:  formtoken.Signer{Key: opts.CSRFKey, Label: "gtmgate console csrf\x00signin", Secure: secure},
		sessionForms: formtoken.Signer{Key: opts.CSRFKey, Label: "gtmgate console csrf\x00session", Secure: secure}}
	if u, err := url.Parse(opts.GatewayURL); err == nil && u.Host != "" && !strings.HasSuffix(u.Host, ":0") {
		if err := c.crossOrigin.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
			return nil, fmt.Errorf("console: GATEWAY_URL origin: %w", err)
		}
	}
	pages, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	c.pages = pages
	c.routes()
	return c, nil
}

// ServeHTTP sets the security headers and routes.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for k, v := range securityHeaders {
		w.Header().Set(k, v)
	}
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, c.opts.MaxBodyBytes)
	}
	c.mux.ServeHTTP(w, r)
}

func (c *Console) routes() {
	static, _ := fs.Sub(staticFS, "static")
	c.mux.Handle("GET /console/static/", http.StripPrefix("/console/static/", http.FileServerFS(static)))
	c.mux.HandleFunc("GET /console/signin", c.signInPage)
	c.mux.HandleFunc("POST /console/signin", c.signIn)
	c.mux.HandleFunc("GET /console/sso/start", c.startSSO)
	c.mux.HandleFunc("GET "+sso.CallbackPath, c.ssoCallback)
	c.mux.HandleFunc("GET /console", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/console/", http.StatusMovedPermanently)
	})
	for pattern, h := range c.pageRoutes() {
		if !tenantPages[pattern] {
			h = operatorOnly(c, h)
		}
		c.mux.Handle(pattern, c.signedIn(h))
	}
	c.mux.HandleFunc("/console/", func(w http.ResponseWriter, r *http.Request) {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Not found"})
	})
}

// session is a signed-in request: a person's, or the break-glass key's.
type session struct {
	value string // the cookie's value: only its hash is stored
	hash  string
	csrf  string
	flash string
	actor *gtmgate.Actor
}

type sessionKey struct{}

func sessionOf(r *http.Request) *session {
	s, _ := r.Context().Value(sessionKey{}).(*session)
	return s
}

// handler is a page handler of a signed-in operator.
type handler func(w http.ResponseWriter, r *http.Request, s *session)

// signedIn checks the session cookie and, for a form post, its CSRF token
// and origin.
func (c *Console) signedIn(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, err := c.session(r)
		if err != nil {
			if r.Method == http.MethodGet {
				http.Redirect(w, r, "/console/signin?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			c.refuse(w, r, http.StatusUnauthorized, "Your session has ended. Sign in again.")
			return
		}
		if r.Method == http.MethodPost && !c.formAllowed(r, c.sessionForms, s.value) {
			c.refuse(w, r, http.StatusForbidden, "This form was not sent from the console's own page, or it expired. Go back, reload the page and try again.")
			return
		}
		if f, err := r.Cookie(c.cookieName("flash")); err == nil {
			s.flash, _ = url.QueryUnescape(f.Value)
			http.SetCookie(w, c.cookie("flash", "", -1))
		}
		h(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, s)), s)
	})
}

func (c *Console) session(r *http.Request) (*session, error) {
	ck, err := r.Cookie(c.cookieName("session"))
	if err != nil || len(ck.Value) != formtoken.ValueLength {
		return nil, errors.New("no session cookie")
	}
	hash := secret.HashToken(ck.Value)
	stored, err := c.opts.Sessions.GetConsoleSession(r.Context(), hash, c.opts.Now())
	if err != nil {
		return nil, err
	}
	s := &session{value: ck.Value, hash: hash, csrf: c.sessionForms.Token(ck.Value)}
	if stored.PersonID == "" {
		if !secret.EqualHash(stored.KeyHash, c.opts.KeyHash) {
			return nil, errors.New("the admin key changed since sign-in")
		}
		s.actor = gtmgate.BreakGlass("console:admin-key")
		return s, nil
	}
	if c.opts.SSO == nil {
		return nil, errors.New("single sign-on is no longer configured")
	}
	// The person's roles as their grants give them now: a grant or group
	// mapping removed on any replica ends the session at its next request.
	if s.actor, err = c.opts.SSO.Actor(r.Context(), stored); errors.Is(err, sso.ErrNoRole) {
		if err := c.opts.Sessions.DeleteConsoleSession(r.Context(), hash); err != nil {
			c.opts.Logger.Warn("console: end a session without roles", "error", err)
		}
		return nil, err
	}
	return s, err
}

// formAllowed checks that a posted form came from the console's own origin
// (the standard library's cross-origin protection: Sec-Fetch-Site, else
// Origin against Host; GATEWAY_URL's origin is trusted behind a proxy) and
// carries the token of its cookie's value.
func (c *Console) formAllowed(r *http.Request, forms formtoken.Signer, value string) bool {
	if err := c.crossOrigin.Check(r); err != nil {
		return false
	}
	if err := r.ParseForm(); err != nil {
		return false
	}
	return forms.Check(value, r.PostForm.Get("csrf"))
}

// cookieName and cookie name the console's cookies apart from others on
// the gateway's host.
func (c *Console) cookieName(name string) string {
	return c.sessionForms.CookieName("gtmgate_console_" + name)
}

func (c *Console) cookie(name, value string, maxAge int) *http.Cookie {
	return c.sessionForms.Cookie("gtmgate_console_"+name, value, maxAge)
}

// signInPage shows the sign-in form with a CSRF token bound to a
// pre-session cookie.
func (c *Console) signInPage(w http.ResponseWriter, r *http.Request) {
	if _, err := c.session(r); err == nil {
		http.Redirect(w, r, safeNext(r.URL.Query().Get("next")), http.StatusSeeOther)
		return
	}
	c.renderSignIn(w, r, http.StatusOK, "")
}

func (c *Console) renderSignIn(w http.ResponseWriter, r *http.Request, status int, msg string) {
	nonce := c.signInForms.Nonce(w, r, "gtmgate_console_presession", 3600)
	var idps []*gtmgate.IdP
	if c.opts.SSO != nil && c.opts.IdPs != nil {
		var err error
		if idps, err = c.opts.IdPs(r.Context()); err != nil {
			c.opts.Logger.Warn("console: list IdPs for sign-in", "error", err)
		}
	}
	c.render(w, r, status, "signin", &page{Title: "Sign in", Error: msg,
		Data: signInView{CSRF: c.signInForms.Token(nonce), Next: safeNext(r.FormValue("next")), IdPs: idps}})
}

// signInView is the sign-in page's data.
type signInView struct {
	CSRF, Next string
	IdPs       []*gtmgate.IdP
}

// signIn checks the admin key (throttled per client address like the admin
// API's) and opens a session.
func (c *Console) signIn(w http.ResponseWriter, r *http.Request) {
	start := c.opts.Now()
	pre, err := r.Cookie(c.cookieName("presession"))
	if err != nil || !c.formAllowed(r, c.signInForms, pre.Value) {
		c.refuse(w, r, http.StatusForbidden, "This sign-in form expired or was not sent from the console's page. Reload the page and sign in again.")
		return
	}
	if err := c.opts.KeyGuard.Check(r); err != nil {
		c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeDenied, http.StatusTooManyRequests, "", "console:admin-key", "too many wrong admin keys")
		c.renderSignIn(w, r, http.StatusTooManyRequests, gtmgate.AsError(err).Message)
		return
	}
	key := strings.TrimSpace(r.PostForm.Get("admin_key"))
	if key == "" || !secret.EqualHash(secret.HashToken(key), c.opts.KeyHash) {
		c.opts.KeyGuard.Fail(r)
		c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeDenied, http.StatusUnauthorized, "", "console:admin-key", "wrong admin key")
		c.renderSignIn(w, r, http.StatusUnauthorized, "That is not the admin key.")
		return
	}
	value := formtoken.NewValue()
	s := &gtmgate.ConsoleSession{Hash: secret.HashToken(value), KeyHash: c.opts.KeyHash, Address: c.opts.Client(r),
		CreatedAt: start.UTC(), ExpiresAt: start.Add(SessionLifetime).UTC()}
	if err := c.opts.Sessions.CreateConsoleSession(r.Context(), s); err != nil {
		c.opts.Logger.Error("console: store session", "error", err)
		c.renderSignIn(w, r, http.StatusServiceUnavailable, "The session could not be stored. Try again in a moment.")
		return
	}
	c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeOK, http.StatusSeeOther, gtmgate.ActorBreakGlass, "console:admin-key", "signed in from "+s.Address)
	http.SetCookie(w, c.cookie("session", value, int(SessionLifetime/time.Second)))
	http.SetCookie(w, c.cookie("presession", "", -1))
	http.Redirect(w, r, safeNext(r.PostForm.Get("next")), http.StatusSeeOther)
}

func (c *Console) signOut(w http.ResponseWriter, r *http.Request, s *session) {
	start := c.opts.Now()
	if err := c.opts.Sessions.DeleteConsoleSession(r.Context(), s.hash); err != nil {
		c.refuse(w, r, http.StatusServiceUnavailable, "Signing out failed: the session could not be removed. Try again.")
		return
	}
	c.auditSignIn(r, start, "console.signout", gtmgate.OutcomeOK, http.StatusSeeOther, s.actor.AuditKey(), s.actor.Via, "")
	http.SetCookie(w, c.cookie("session", "", -1))
	http.Redirect(w, r, "/console/signin", http.StatusSeeOther)
}

func (c *Console) auditSignIn(r *http.Request, start time.Time, action, outcome string, status int, key, via, detail string) {
	e := gtmgate.AuditEntry{Time: start, Action: action, Source: gtmgate.SourceConsole, Key: key, Via: via, Outcome: outcome, Status: status,
		RequestID: gtmgate.RequestIDFromContext(r.Context()), CorrelationID: gtmgate.CorrelationIDFromContext(r.Context()),
		Detail: detail, DurationMS: float64(c.opts.Now().Sub(start).Microseconds()) / 1000}
	if err := c.opts.Recorder.Record(r.Context(), e, nil); err != nil {
		c.opts.Logger.Error("console: audit "+action, "error", err)
	}
}

// safeNext keeps a redirect after sign-in inside the console, or on the
// OAuth consent page that sent the person to sign in.
func safeNext(next string) string {
	if !(strings.HasPrefix(next, "/console/") || strings.HasPrefix(next, "/oauth/authorize?")) ||
		strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
		return "/console/"
	}
	return next
}

// apiError is an admin API error answer.
type apiError struct {
	Status  int
	Code    string
	Message string
	Hint    string
	// Field is the JSON path of the request body's field at fault, as the
	// admin API names it ("" when none).
	Field string
}

func (e *apiError) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}

// call makes an admin API request in-process as the signed-in operator and
// decodes its JSON answer into out (when not nil).
func (c *Console) call(r *http.Request, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("console: encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(r.Context(), method, path, rd)
	if err != nil {
		return fmt.Errorf("console: %s %s: %w", method, path, err)
	}
	req.RemoteAddr = r.RemoteAddr
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	status, answer := c.opts.Admin.CallSignedIn(req, gtmgate.SourceConsole, sessionOf(r).actor)
	if status >= 400 {
		var env struct {
			Error struct{ Code, Message, Hint, Field string }
		}
		json.Unmarshal(answer, &env)
		return &apiError{Status: status, Code: env.Error.Code, Message: cmp.Or(env.Error.Message, http.StatusText(status)), Hint: env.Error.Hint, Field: env.Error.Field}
	}
	if out == nil || status == http.StatusNoContent {
		return nil
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("console: decode %s %s: %w", method, path, err)
	}
	return nil
}

// done ends an action: a flash message for the next page and a redirect
// there (post, redirect, get).
func (c *Console) done(w http.ResponseWriter, r *http.Request, to, msg string) {
	http.SetCookie(w, c.cookie("flash", url.QueryEscape(msg), 60))
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// refuse answers a refused request with a page that says why.
func (c *Console) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	c.render(w, r, status, "refused", &page{Title: http.StatusText(status), Error: msg})
}
