// Package oauthsandbox is the demo's sandbox OAuth MCP server (#42): an MCP
// endpoint protected by a small authorization server of its own, on one
// origin, so that connecting an OAuth MCP server through a link can be
// tried with nothing else installed.
//
// The MCP endpoint /mcp answers 401 with `WWW-Authenticate: Bearer
// resource_metadata="…/.well-known/oauth-protected-resource/mcp"` without a
// valid access token, and serves its protected resource metadata (RFC 9728).
// The authorization server (issuer …/as) serves RFC 8414 metadata, dynamic
// client registration (RFC 7591), client ID metadata documents when
// Options.ClientMetadataDocuments says so (cimd.go), an authorization
// endpoint with a consent
// page (Allow and Deny buttons, no JavaScript) that names itself as the
// demo's sandbox, and a token endpoint for the authorization-code grant with
// PKCE S256 (required) and the resource parameter (RFC 8707, checked), and
// for refresh tokens (rotated; the resource is checked there too).
//
// Client ids, access tokens and refresh tokens are signed with Options.Key
// and carry what they need, so they stay valid across restarts when the key
// does; only authorization codes (one minute) live in memory.
//
// It is a minimal authorization server on purpose: one consent, no accounts.
package oauthsandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
)

// Options configures a Server.
type Options struct {
	// MCP is the MCP handler served at /mcp once the token is checked.
	MCP http.Handler
	// Key signs client ids and tokens (a random key when empty: tokens
	// then die with the process).
	Key []byte
	// TokenTTL is an access token's lifetime (1 hour when 0).
	TokenTTL time.Duration
	// Scope is the one scope offered ("notes" when empty).
	Scope string
	// ClientMetadataDocuments advertises client_id_metadata_document_supported
	// and accepts a client_id that is the URL of the client's metadata
	// document (cimd.go); dynamic registration stays offered.
	ClientMetadataDocuments bool
	// MetadataClient fetches those documents (a client that follows no
	// redirect when nil).
	MetadataClient *http.Client
}

// Stats counts what the authorization server did since it started.
type Stats struct {
	Registrations int `json:"registrations"`
	Grants        int `json:"grants"`
	Refreshes     int `json:"refreshes"`
	Rejected      int `json:"rejected"`
	// MetadataFetches counts client ID metadata documents fetched and
	// accepted.
	MetadataFetches int `json:"metadata_fetches"`
}

// Server is the authorization server and the protected MCP endpoint.
type Server struct {
	opts Options
	base string // this server's origin, set by SetBase
	mux  *http.ServeMux

	mu            sync.Mutex
	codes         map[string]code
	usedRefresh   map[string]bool // rotated refresh tokens
	accessCutoff  time.Time       // access tokens issued before are rejected
	refreshCutoff time.Time       // refresh tokens issued before are rejected
	stats         Stats
}

type code struct {
	client, redirect, challenge, resource string
	expires                               time.Time
}

// New returns a Server; call SetBase with its address before serving.
func New(opts Options) *Server {
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = time.Hour
	}
	if opts.Scope == "" {
		opts.Scope = "notes"
	}
	if opts.MetadataClient == nil {
		opts.MetadataClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if len(opts.Key) == 0 {
		opts.Key = make([]byte, 32)
		rand.Read(opts.Key)
	}
	s := &Server{opts: opts, mux: http.NewServeMux(), codes: map[string]code{}, usedRefresh: map[string]bool{}}
	s.mux.Handle("/mcp", s.requireToken(opts.MCP))
	s.mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", s.resourceMetadata)
	s.mux.HandleFunc("GET /.well-known/oauth-protected-resource", s.resourceMetadata)
	s.mux.HandleFunc("GET /.well-known/oauth-authorization-server/as", s.serverMetadata)
	s.mux.HandleFunc("POST /as/register", s.register)
	s.mux.HandleFunc("GET /as/authorize", s.authorize)
	s.mux.HandleFunc("POST /as/authorize", s.consent)
	s.mux.HandleFunc("POST /as/token", s.token)
	return s
}

// SetBase sets the origin the server is reached at ("http://127.0.0.1:PORT").
func (s *Server) SetBase(base string) { s.base = strings.TrimSuffix(base, "/") }

// Handler serves every route.
func (s *Server) Handler() http.Handler { return s.mux }

// ExpireAccess makes every access token issued so far stop working, as if
// it expired early; refresh tokens still work.
func (s *Server) ExpireAccess() {
	s.mu.Lock()
	s.accessCutoff = time.Now()
	s.mu.Unlock()
}

// RevokeAll revokes every access and refresh token issued so far.
func (s *Server) RevokeAll() {
	s.mu.Lock()
	s.accessCutoff, s.refreshCutoff = time.Now(), time.Now()
	s.mu.Unlock()
}

// Stats returns the counts so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

func (s *Server) resource() string { return s.base + "/mcp" }
func (s *Server) issuer() string   { return s.base + "/as" }

func (s *Server) requireToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		var t claims
		valid := ok && s.open(tok, "at", &t) && time.Now().Before(time.Unix(0, t.Expires))
		s.mu.Lock()
		valid = valid && time.Unix(0, t.Issued).After(s.accessCutoff)
		if !valid {
			s.stats.Rejected++
		}
		s.mu.Unlock()
		if !valid {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token", resource_metadata="`+s.base+`/.well-known/oauth-protected-resource/mcp", scope="`+s.opts.Scope+`"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) resourceMetadata(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"resource": s.resource(), "authorization_servers": []string{s.issuer()},
		"scopes_supported": []string{s.opts.Scope}, "bearer_methods_supported": []string{"header"}})
}

func (s *Server) serverMetadata(w http.ResponseWriter, _ *http.Request) {
	m := map[string]any{"issuer": s.issuer(), "authorization_endpoint": s.issuer() + "/authorize",
		"token_endpoint": s.issuer() + "/token", "registration_endpoint": s.issuer() + "/register",
		"response_types_supported": []string{"code"}, "grant_types_supported": []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported": []string{"S256"}, "token_endpoint_auth_methods_supported": []string{"none"},
		"scopes_supported": []string{s.opts.Scope}}
	if s.opts.ClientMetadataDocuments {
		m["client_id_metadata_document_supported"] = true
	}
	writeJSON(w, http.StatusOK, m)
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&req); err != nil || len(req.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_redirect_uri"})
		return
	}
	id := s.seal("client", claims{RedirectURIs: req.RedirectURIs, Issued: time.Now().UnixNano()})
	s.mu.Lock()
	s.stats.Registrations++
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "redirect_uris": req.RedirectURIs, "token_endpoint_auth_method": "none"})
}

var consentPage = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow access to notes · gtmgate demo sandbox</title></head>
<body style="font-family:sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5">
<p style="background:#fff4d6;border:1px solid #e0c060;padding:.5rem .75rem;border-radius:4px"><strong>gtmgate demo sandbox authorization server.</strong>
This page stands in for a real MCP server's sign-in and consent: there is no account, and nothing leaves this machine.</p>
<h1>Allow access to your notes?</h1>
<p>An application asks to use the sandbox notes MCP server for you (scope <code>{{.Scope}}</code>).</p>
<form method="post" action="/as/authorize">
{{range $k, $v := .Params}}<input type="hidden" name="{{$k}}" value="{{$v}}">{{end}}
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form></body></html>`))

// authorize checks the request and shows the consent page.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if msg := s.checkAuthorize(r.Context(), q.Get("client_id"), q.Get("redirect_uri"), q.Get("response_type"), q.Get("code_challenge_method"),
		q.Get("code_challenge"), q.Get("resource")); msg != "" {
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	params := map[string]string{}
	for _, k := range []string{"client_id", "redirect_uri", "state", "code_challenge", "resource", "scope"} {
		params[k] = q.Get(k)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	consentPage.Execute(w, map[string]any{"Scope": q.Get("scope"), "Params": params})
}

func (s *Server) checkAuthorize(ctx context.Context, client, redirect, responseType, method, challenge, resource string) string {
	var c claims
	switch {
	case s.opts.ClientMetadataDocuments && isDocumentURL(client):
		redirects, err := s.fetchClient(ctx, client)
		if err != nil {
			return err.Error()
		}
		c.RedirectURIs = redirects
	case !s.open(client, "client", &c):
		return "unknown client_id"
	}
	switch {
	case !slices.Contains(c.RedirectURIs, redirect):
		return "redirect_uri not registered"
	case responseType != "code":
		return "response_type must be code"
	case method != "S256" || challenge == "":
		return "PKCE with S256 is required"
	case resource != s.resource():
		return "resource must be " + s.resource()
	}
	return ""
}

// consent answers the consent page: a code, or access_denied.
func (s *Server) consent(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	f := r.PostForm
	if msg := s.checkAuthorize(r.Context(), f.Get("client_id"), f.Get("redirect_uri"), "code", "S256", f.Get("code_challenge"), f.Get("resource")); msg != "" {
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	to := f.Get("redirect_uri") + "?state=" + template.URLQueryEscaper(f.Get("state"))
	if f.Get("decision") != "allow" {
		http.Redirect(w, r, to+"&error=access_denied", http.StatusSeeOther)
		return
	}
	c := random()
	s.mu.Lock()
	s.codes[c] = code{client: f.Get("client_id"), redirect: f.Get("redirect_uri"), challenge: f.Get("code_challenge"),
		resource: f.Get("resource"), expires: time.Now().Add(time.Minute)}
	s.mu.Unlock()
	http.Redirect(w, r, to+"&code="+c, http.StatusSeeOther)
}

// token serves the authorization-code and refresh-token grants.
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	f := r.PostForm
	s.mu.Lock()
	defer s.mu.Unlock()
	switch f.Get("grant_type") {
	case "authorization_code":
		c, ok := s.codes[f.Get("code")]
		delete(s.codes, f.Get("code"))
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if !ok || time.Now().After(c.expires) || c.client != f.Get("client_id") || c.redirect != f.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != c.challenge || f.Get("resource") != c.resource {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant"})
			return
		}
		s.stats.Grants++
	case "refresh_token":
		rt := f.Get("refresh_token")
		var c claims
		if !s.open(rt, "rt", &c) || s.usedRefresh[rt] || !time.Unix(0, c.Issued).After(s.refreshCutoff) {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "the refresh token is revoked or unknown"})
			return
		}
		// RFC 8707 and the MCP authorization specification: a refresh names
		// the resource as the code exchange did.
		if f.Get("resource") != s.resource() {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_target", "error_description": "resource must be " + s.resource()})
			return
		}
		s.usedRefresh[rt] = true // rotated
		s.stats.Refreshes++
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	now := time.Now()
	at := s.seal("at", claims{Issued: now.UnixNano(), Expires: now.Add(s.opts.TokenTTL).UnixNano(), Nonce: random()})
	rt := s.seal("rt", claims{Issued: now.UnixNano(), Nonce: random()})
	writeJSON(w, http.StatusOK, map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": int(s.opts.TokenTTL / time.Second),
		"refresh_token": rt, "scope": s.opts.Scope})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func random() string {
	var b [18]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
