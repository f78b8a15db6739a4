// Package connectflow is the connect-link flow of issue #33: the admin
// routes that create connect links, and the public pages on the gateway
// where an account's owner opens a link, consents at the provider, picks
// the accounts the grant reaches, and gtmgate stores the tokens (sealed)
// and seeds the refresher. No token passes through a person's hands, and
// none appears in a page, a log, an error or an audit entry.
package connectflow

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/formtoken"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/oauthapps"
	"github.com/gtmgate/gtmgate/refresh"
	"github.com/gtmgate/gtmgate/registry"
)

// Store is what the flow needs of gtmgate.Store.
type Store interface {
	gtmgate.ConnectStore
	gtmgate.PersonFinder
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
	PutTenant(ctx context.Context, t *gtmgate.Tenant) (bool, error)
	PutProviderToken(ctx context.Context, t *gtmgate.ProviderToken) error
	GetProviderOAuth(ctx context.Context, tenantID, provider, accountID string) (*gtmgate.ProviderOAuth, error)
	GetMCPServer(ctx context.Context, tenantID, name string) (*gtmgate.MCPServer, error)
}

// Seeder stores an account's refresh record: *refresh.Refresher, whose
// POST /admin/seed-oauth runs the same code.
type Seeder interface {
	Seed(ctx context.Context, rec refresh.SeedRecord) (*refresh.SeedResult, error)
}

// Recorder writes the flow's audit entries (gtmgate.Recorder's Record).
type Recorder interface {
	Record(ctx context.Context, a gtmgate.AuditEntry, u *gtmgate.UsageEvent) error
}

// Options configures the flow. Store, Registry, Client, Seeder, Recorder
// and GatewayURL are required.
type Options struct {
	Store    Store
	Registry *registry.Registry
	// Client speaks the providers' OAuth endpoints and discovery APIs.
	Client   *connect.Client
	Seeder   Seeder
	Recorder Recorder
	// GatewayURL is the gateway's public base URL: the links' base and the
	// redirect URI's.
	GatewayURL string
	// OperatorName names, on every connect page, who asks for access
	// ("Northwind Agency asks to connect your Google Ads account");
	// DefaultOperatorName when empty.
	OperatorName string
	// OperatorLogoURL, when set, is the operator's logo on every connect
	// page: an https URL or a path the gateway serves (config checks it).
	OperatorLogoURL string
	MaxBodyBytes    int64
	// FormKey signs the link pages' form tokens (guard.go); every replica
	// needs the same. A random key of this process when empty.
	FormKey []byte
	// MCPClient speaks to upstream MCP servers' authorization servers (links
	// to "mcp:<server>"): it must follow the outbound address policy.
	MCPClient *http.Client
	// AllowLoopbackClientMetadata offers gtmgate's client ID metadata
	// document from an http gateway URL on a loopback host to an
	// authorization server on one too (the demo, tests); https otherwise.
	AllowLoopbackClientMetadata bool
	// OnMCPConnected, when set, is called (on its own goroutine) after a
	// grant to a tenant's upstream MCP server was stored, to list its
	// tools; by is the actor who made the link.
	OnMCPConnected func(tenantID, server, by string)
	// Now is the clock of expiries; time.Now when nil.
	Now    func() time.Time
	Logger *slog.Logger
}

// Flow serves the connect-link routes.
type Flow struct {
	opts        Options
	redirectURI string
	secure      bool
	forms       formtoken.Signer
	crossOrigin *http.CrossOriginProtection
}

// DefaultOperatorName names the operator on the connect pages when
// Options.OperatorName is empty.
const DefaultOperatorName = "gtmgate"

// Default and longest lifetime of a link.
const (
	DefaultExpiry = 15 * time.Minute
	MaxExpiry     = 7 * 24 * time.Hour
)

// New returns the flow; mount its admin routes with MountAdmin and its
// public pages with Mount.
func New(opts Options) *Flow {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = jsonapi.DefaultMaxBody
	}
	if opts.OperatorName == "" {
		opts.OperatorName = DefaultOperatorName
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	forms, crossOrigin := newGuard(opts)
	return &Flow{opts: opts, redirectURI: oauthapps.RedirectURI(opts.GatewayURL),
		secure: strings.HasPrefix(opts.GatewayURL, "https://"), forms: forms, crossOrigin: crossOrigin}
}

func (f *Flow) now() time.Time { return f.opts.Now().UTC() }

// LinkURL is the public address of a link's secret.
func (f *Flow) LinkURL(secret string) string {
	return strings.TrimSuffix(f.opts.GatewayURL, "/") + "/connect/" + secret
}

// newSecret is 32 random bytes, base64url: a link's secret, a state, a
// PKCE verifier (43 characters, within RFC 7636's 43–128).
func newSecret() string {
	var b [32]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// hash is the SHA-256 hex under which secrets and states are stored.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// app is the tenant's own OAuth app of the family, else the gateway-wide one.
func (f *Flow) app(ctx context.Context, tenantID, family string) (*gtmgate.OAuthApp, error) {
	a, err := f.opts.Store.GetOAuthApp(ctx, tenantID, family)
	if errors.Is(err, gtmgate.ErrNotFound) {
		a, err = f.opts.Store.GetOAuthApp(ctx, "", family)
	}
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.EValidation, "no %s OAuth app is registered for tenant %q or gateway-wide", family, tenantID).
			WithHint("register one with PUT /admin/oauth-apps/" + family + " (client id and secret from the provider's app settings)")
	}
	return a, err
}

// keys are the provider keys a link's scopes serve: those of the tools
// that need them.
func keys(needs []connect.ToolNeed) []string {
	var out []string
	for _, n := range needs {
		if !slices.Contains(out, n.Provider) {
			out = append(out, n.Provider)
		}
	}
	return out
}
