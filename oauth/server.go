// Package oauth is the gateway's OAuth 2.1 authorization server and the
// resource-server side of /mcp, as the MCP authorization specification
// (revision 2025-11-25) asks: protected resource metadata (RFC 9728),
// authorization server metadata (RFC 8414), dynamic client registration
// (RFC 7591) and client ID metadata documents, the authorization code grant
// with PKCE S256 only, resource indicators (RFC 8707) bound into tokens as
// their audience, rotating refresh tokens, revocation (RFC 7009), and the
// verification of access tokens presented to /mcp.
//
// A person authorizes a client for one tenant by entering on the consent
// page either a tenant bearer token or a one-time connect code an operator
// created through the admin API. Access tokens are opaque and stored hashed.
package oauth

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/clientip"
	"github.com/gtmgate/gtmgate/throttle"
)

// Store is what the authorization server keeps and reads: its own state and
// tenant tokens (to verify the person's credential on the consent page).
type Store interface {
	gtmgate.OAuthStore
	FindTenantToken(ctx context.Context, hash string) (*gtmgate.TenantToken, error)
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
}

// Options configures the server. Store and BaseURL are required.
type Options struct {
	Store Store
	// BaseURL is the gateway's public base URL (GATEWAY_URL): the issuer,
	// and with "/mcp" the protected resource.
	BaseURL string
	// CSRFKey signs consent-page CSRF tokens. Replicas behind one URL must
	// share it; when empty a random per-process key is used.
	CSRFKey []byte
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// AccessTokenTTL defaults to 1 h, RefreshTokenTTL to 30 days, CodeTTL to
	// 60 s, ConnectCodeTTL (default of connect codes) to 15 min.
	AccessTokenTTL  time.Duration
	RefreshTokenTTL time.Duration
	CodeTTL         time.Duration
	ConnectCodeTTL  time.Duration
	// RedirectSchemes lists private-use URI schemes accepted as redirect URIs
	// of native apps besides https and loopback http (for example "cursor").
	RedirectSchemes []string
	// RegistrationsPerMinute bounds registrations per client IP (default 10).
	RegistrationsPerMinute int
	// Clients finds a request's client address (behind trusted proxies) for
	// the registration limit; the peer address when nil.
	Clients *clientip.Resolver
	// CredentialGuard throttles wrong credentials on the consent page.
	CredentialGuard *throttle.Guard
	// TokenGuard throttles failed token requests (wrong client secret,
	// code, verifier or refresh token) per client address.
	TokenGuard *throttle.Guard
	// ClientMetadata configures fetching client ID metadata documents.
	ClientMetadata ClientMetadataOptions
	// CredentialsRevoked, when set, is told of every grant or token the
	// server revokes (a client's revocation, a replayed code or refresh
	// token), so the schedules and agent runs acting for it stop.
	CredentialsRevoked gtmgate.RevocationListener
	Logger             *slog.Logger
	// People lets the person at the consent page sign in through the
	// console's IdPs instead of pasting a tenant token; nil: tokens and
	// connect codes only.
	People PeopleSignIn
}

// PeopleSignIn is what the consent page needs of single sign-on: who is
// signed in on a request, the sign-in links that come back to next, and
// the tenants a person may connect an application to.
type PeopleSignIn interface {
	// SignedIn returns the person signed in on r, nil when nobody is.
	SignedIn(r *http.Request) *gtmgate.Actor
	// SignInLinks are the IdPs' sign-in URLs that return to next.
	SignInLinks(ctx context.Context, next string) []SignInLink
	// Tenants lists the tenants a may connect an application to.
	Tenants(ctx context.Context, a *gtmgate.Actor) ([]string, error)
}

// SignInLink is one IdP's sign-in button.
type SignInLink struct{ Label, URL string }

// UsePeople lets the consent page sign people in through p (the console,
// which is built after the server).
func (s *Server) UsePeople(p PeopleSignIn) { s.opts.People = p }

// ClientMetadataOptions configures the fetching of client ID metadata documents.
type ClientMetadataOptions struct {
	// Timeout bounds one fetch (default 5 s); CacheTTL how long a document is
	// reused (default 10 min).
	Timeout  time.Duration
	CacheTTL time.Duration
	// AllowLoopback lets documents be fetched from loopback addresses. For
	// tests only: it weakens the SSRF guard.
	AllowLoopback bool
	// TLSConfig overrides the fetcher's TLS configuration (tests: trust an
	// httptest server's certificate).
	TLSConfig *tls.Config
}

// Server is the authorization server and token verifier.
type Server struct {
	opts     Options
	issuer   string // BaseURL without a trailing slash
	resource string // issuer + "/mcp"
	csrfKey  []byte
	clients  *metadataFetcher
	limiter  *ipLimiter
}

// New checks opts and returns the server.
func New(opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, fmt.Errorf("oauth: a Store is required")
	}
	u, err := url.Parse(opts.BaseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("oauth: BaseURL %q must be an absolute http(s) URL without query or fragment", opts.BaseURL)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	setDefault(&opts.AccessTokenTTL, time.Hour)
	setDefault(&opts.RefreshTokenTTL, 30*24*time.Hour)
	setDefault(&opts.CodeTTL, time.Minute)
	setDefault(&opts.ConnectCodeTTL, 15*time.Minute)
	setDefault(&opts.ClientMetadata.Timeout, 5*time.Second)
	setDefault(&opts.ClientMetadata.CacheTTL, 10*time.Minute)
	if opts.RegistrationsPerMinute <= 0 {
		opts.RegistrationsPerMinute = 10
	}
	key := opts.CSRFKey
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	issuer := strings.TrimSuffix(opts.BaseURL, "/")
	return &Server{
		opts: opts, issuer: issuer, resource: issuer + "/mcp", csrfKey: key,
		clients: newMetadataFetcher(opts.ClientMetadata, opts.Now),
		limiter: newIPLimiter(opts.RegistrationsPerMinute, opts.Now, opts.Clients),
	}, nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// Resource returns the protected resource identifier: BaseURL + "/mcp".
func (s *Server) Resource() string { return s.resource }

// ResourceMetadataURL returns the URL of the protected resource metadata of /mcp.
func (s *Server) ResourceMetadataURL() string {
	return s.issuer + "/.well-known/oauth-protected-resource/mcp"
}

// Mount adds the OAuth routes to the gateway mux (it implements gateway.Mounter).
func (s *Server) Mount(mux gtmgate.Router) {
	cors := allowAnyOrigin
	for _, p := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		mux.Handle("GET "+p, cors(http.HandlerFunc(s.handleResourceMetadata)))
		mux.Handle("OPTIONS "+p, cors(nil))
	}
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		mux.Handle("GET "+p, cors(http.HandlerFunc(s.handleServerMetadata)))
		mux.Handle("OPTIONS "+p, cors(nil))
	}
	mux.Handle("POST /oauth/register", cors(http.HandlerFunc(s.handleRegister)))
	mux.Handle("POST /oauth/token", cors(http.HandlerFunc(s.handleToken)))
	mux.Handle("POST /oauth/revoke", cors(http.HandlerFunc(s.handleRevoke)))
	for _, p := range []string{"/oauth/register", "/oauth/token", "/oauth/revoke"} {
		mux.Handle("OPTIONS "+p, cors(nil))
	}
	// The authorization endpoint is a page for people: no CORS.
	mux.HandleFunc("GET /oauth/authorize", s.handleAuthorize)
	mux.HandleFunc("POST /oauth/authorize", s.handleAuthorize)
}

// MountAdmin adds POST /admin/oauth/connect-codes to the admin mux (pass it
// in admin.Options.Extra; the admin handler authenticates and audits).
func (s *Server) MountAdmin(mux gtmgate.Router) {
	mux.HandleFunc("POST /admin/oauth/connect-codes", s.handleCreateConnectCode)
}

// allowAnyOrigin lets browser-based MCP clients (the MCP Inspector) read
// metadata and call the registration, token and revocation endpoints. None
// of them uses cookies, so any origin is safe. A nil next answers preflights.
func allowAnyOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions || next == nil {
			h.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, MCP-Protocol-Version")
			h.Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
