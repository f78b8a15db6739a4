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
	"crypto/hmac"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/secret"
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

// AdminAPI serves an admin API request the console has authenticated.
type AdminAPI interface {
	ServeSignedIn(w http.ResponseWriter, r *http.Request, source, key string)
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
}

// Console serves /console/.
type Console struct {
	opts        Options
	mux         *http.ServeMux
	pages       map[string]*template.Template
	secure      bool
	crossOrigin *http.CrossOriginProtection
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
	c := &Console{opts: opts, mux: http.NewServeMux(), secure: strings.HasPrefix(opts.GatewayURL, "https://"),
		crossOrigin: http.NewCrossOriginProtection()}
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
	c.mux.HandleFunc("GET /console", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/console/", http.StatusMovedPermanently)
	})
	for pattern, h := range c.pageRoutes() {
		c.mux.Handle(pattern, c.signedIn(h))
	}
	c.mux.HandleFunc("/console/", func(w http.ResponseWriter, r *http.Request) {
		c.render(w, r, http.StatusNotFound, "notfound", &page{Title: "Not found"})
	})
}

// session is a signed-in operator's request.
type session struct {
	value string // the cookie's value: only its hash is stored
	hash  string
	csrf  string
	flash string
}

// actor names the session in audit entries without the cookie's value.
func (s *session) actor() string { return "console:" + s.hash[:12] }

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
		if r.Method == http.MethodPost && !c.formAllowed(r, s.csrf) {
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
	if err != nil || len(ck.Value) != 43 {
		return nil, errors.New("no session cookie")
	}
	hash := secret.HashToken(ck.Value)
	stored, err := c.opts.Sessions.GetConsoleSession(r.Context(), hash, c.opts.Now())
	if err != nil {
		return nil, err
	}
	if !secret.EqualHash(stored.KeyHash, c.opts.KeyHash) {
		return nil, errors.New("the admin key changed since sign-in")
	}
	return &session{value: ck.Value, hash: hash, csrf: c.csrfToken("session", ck.Value)}, nil
}

// formAllowed checks that a posted form came from the console's own origin
// (the standard library's cross-origin protection: Sec-Fetch-Site, else
// Origin against Host; GATEWAY_URL's origin is trusted behind a proxy) and
// carries its CSRF token.
func (c *Console) formAllowed(r *http.Request, want string) bool {
	if err := c.crossOrigin.Check(r); err != nil {
		return false
	}
	if err := r.ParseForm(); err != nil {
		return false
	}
	got := r.PostForm.Get("csrf")
	return got != "" && hmac.Equal([]byte(got), []byte(want))
}

func (c *Console) csrfToken(purpose, nonce string) string {
	m := hmac.New(sha256.New, c.opts.CSRFKey)
	m.Write([]byte("gtmgate console csrf\x00" + purpose + "\x00" + nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// cookieName uses the __Host- prefix over https, which pins a cookie to
// this host and path "/".
func (c *Console) cookieName(name string) string {
	if c.secure {
		return "__Host-gtmgate_console_" + name
	}
	return "gtmgate_console_" + name
}

func (c *Console) cookie(name, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: c.cookieName(name), Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		Secure: c.secure, SameSite: http.SameSiteStrictMode}
}

// randomValue is a session or nonce value: 32 random bytes, 43 characters.
func randomValue() string {
	v, err := secret.NewToken("")
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return v
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
	nonce := ""
	if ck, err := r.Cookie(c.cookieName("presession")); err == nil && len(ck.Value) == 43 {
		nonce = ck.Value
	} else {
		nonce = randomValue()
		http.SetCookie(w, c.cookie("presession", nonce, 3600))
	}
	c.render(w, r, status, "signin", &page{Title: "Sign in", Error: msg,
		Data: map[string]string{"csrf": c.csrfToken("signin", nonce), "next": safeNext(r.FormValue("next"))}})
}

// signIn checks the admin key (throttled per client address like the admin
// API's) and opens a session.
func (c *Console) signIn(w http.ResponseWriter, r *http.Request) {
	start := c.opts.Now()
	pre, err := r.Cookie(c.cookieName("presession"))
	if err != nil || !c.formAllowed(r, c.csrfToken("signin", pre.Value)) {
		c.refuse(w, r, http.StatusForbidden, "This sign-in form expired or was not sent from the console's page. Reload the page and sign in again.")
		return
	}
	if err := c.opts.KeyGuard.Check(r); err != nil {
		c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeDenied, http.StatusTooManyRequests, "", "too many wrong admin keys")
		c.renderSignIn(w, r, http.StatusTooManyRequests, gtmgate.AsError(err).Message)
		return
	}
	key := strings.TrimSpace(r.PostForm.Get("admin_key"))
	if key == "" || !secret.EqualHash(secret.HashToken(key), c.opts.KeyHash) {
		c.opts.KeyGuard.Fail(r)
		c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeDenied, http.StatusUnauthorized, "", "wrong admin key")
		c.renderSignIn(w, r, http.StatusUnauthorized, "That is not the admin key.")
		return
	}
	value := randomValue()
	s := &gtmgate.ConsoleSession{Hash: secret.HashToken(value), KeyHash: c.opts.KeyHash, Address: c.opts.Client(r),
		CreatedAt: start.UTC(), ExpiresAt: start.Add(SessionLifetime).UTC()}
	if err := c.opts.Sessions.CreateConsoleSession(r.Context(), s); err != nil {
		c.opts.Logger.Error("console: store session", "error", err)
		c.renderSignIn(w, r, http.StatusServiceUnavailable, "The session could not be stored. Try again in a moment.")
		return
	}
	c.auditSignIn(r, start, "console.signin", gtmgate.OutcomeOK, http.StatusSeeOther, "console:"+s.Hash[:12], "signed in from "+s.Address)
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
	c.auditSignIn(r, start, "console.signout", gtmgate.OutcomeOK, http.StatusSeeOther, s.actor(), "")
	http.SetCookie(w, c.cookie("session", "", -1))
	http.Redirect(w, r, "/console/signin", http.StatusSeeOther)
}

func (c *Console) auditSignIn(r *http.Request, start time.Time, action, outcome string, status int, key, detail string) {
	e := gtmgate.AuditEntry{Time: start, Action: action, Source: gtmgate.SourceConsole, Key: key, Outcome: outcome, Status: status,
		RequestID: gtmgate.RequestIDFromContext(r.Context()), Detail: detail,
		DurationMS: float64(c.opts.Now().Sub(start).Microseconds()) / 1000}
	if err := c.opts.Recorder.Record(r.Context(), e, nil); err != nil {
		c.opts.Logger.Error("console: audit "+action, "error", err)
	}
}

// safeNext keeps a redirect after sign-in inside the console.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/console/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n") {
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
}

func (e *apiError) Error() string {
	if e.Hint != "" {
		return e.Message + " (" + e.Hint + ")"
	}
	return e.Message
}

// memoryResponse holds an in-process admin answer.
type memoryResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (m *memoryResponse) Header() http.Header { return m.header }
func (m *memoryResponse) WriteHeader(code int) {
	if m.status == 0 {
		m.status = code
	}
}
func (m *memoryResponse) Write(p []byte) (int, error) {
	if m.status == 0 {
		m.status = http.StatusOK
	}
	return m.body.Write(p)
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
	resp := &memoryResponse{header: http.Header{}}
	c.opts.Admin.ServeSignedIn(resp, req, gtmgate.SourceConsole, sessionOf(r).actor())
	if resp.status >= 400 {
		var env struct {
			Error struct{ Code, Message, Hint string }
		}
		json.Unmarshal(resp.body.Bytes(), &env)
		return &apiError{Status: resp.status, Code: env.Error.Code, Message: cmp.Or(env.Error.Message, http.StatusText(resp.status)), Hint: env.Error.Hint}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(resp.body.Bytes(), out); err != nil {
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
