// Package oauthapps is the admin API of the operator's OAuth apps at each
// provider: the client through which account owners connect their accounts
// (connect links, issue #33). An app is gateway-wide or a tenant's own
// (white-label); its client secret is sealed by the store and never shown.
package oauthapps

import (
	"context"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Providers are the connect providers an app can be registered for: one
// Google app serves every Google tool (Ads, GA4, Search Console, Gmail,
// Calendar, BigQuery, Sheets).
var Providers = []string{"google", "hubspot", "meta", "linkedin"}

// CallbackPath is where providers send the account owner back after
// consent, on the gateway's public URL.
const CallbackPath = "/connect/callback"

// Store is what the routes need of gtmgate.Store.
type Store interface {
	gtmgate.ConnectStore
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
}

// Options configures the routes. Store and GatewayURL are required.
type Options struct {
	Store Store
	// GatewayURL is the gateway's public base URL (GTMGATE_GATEWAY_URL),
	// the base of the redirect URI.
	GatewayURL   string
	MaxBodyBytes int64
}

// API serves the OAuth-app admin routes.
type API struct {
	opts        Options
	redirectURI string
}

// New returns the routes; mount them on the admin API with Mount.
func New(opts Options) *API {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = jsonapi.DefaultMaxBody
	}
	return &API{opts: opts, redirectURI: RedirectURI(opts.GatewayURL)}
}

// RedirectURI is the redirect URI of every provider app: the gateway's
// callback, which the operator registers in the provider's app settings.
func RedirectURI(gatewayURL string) string {
	return strings.TrimSuffix(gatewayURL, "/") + CallbackPath
}

// Mount adds the routes to the admin mux (pass it in admin.Options.Extra,
// which authenticates and audits them):
//
//	GET    /admin/oauth-apps                                  every app, gateway-wide and per tenant
//	PUT    /admin/oauth-apps/{provider}                       create or replace the gateway-wide app
//	GET    /admin/oauth-apps/{provider}
//	DELETE /admin/oauth-apps/{provider}
//	PUT    /admin/tenants/{tenant_id}/oauth-apps/{provider}   a tenant's own app
//	GET    /admin/tenants/{tenant_id}/oauth-apps/{provider}
//	DELETE /admin/tenants/{tenant_id}/oauth-apps/{provider}
func (a *API) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/oauth-apps", a.list)
	mux.HandleFunc("PUT /admin/oauth-apps/{provider}", a.put)
	mux.HandleFunc("GET /admin/oauth-apps/{provider}", a.get)
	mux.HandleFunc("DELETE /admin/oauth-apps/{provider}", a.delete)
	mux.HandleFunc("PUT /admin/tenants/{tenant_id}/oauth-apps/{provider}", a.put)
	mux.HandleFunc("GET /admin/tenants/{tenant_id}/oauth-apps/{provider}", a.get)
	mux.HandleFunc("DELETE /admin/tenants/{tenant_id}/oauth-apps/{provider}", a.delete)
}

// Body is the body of PUT …/oauth-apps/{provider}.
type Body struct {
	// ClientID is the app's client id at the provider.
	ClientID string `json:"client_id"`
	// ClientSecret is required when the app is created; omitted (or empty)
	// on a replace, the stored secret is kept.
	ClientSecret string `json:"client_secret,omitempty"`
	// ExtraScopes are asked for on top of the scopes the tenant's tools
	// need; a replace without them stores none.
	ExtraScopes []string `json:"extra_scopes,omitempty"`
}

// View is an app as the admin API shows it: never its secret.
type View struct {
	Provider string `json:"provider"`
	// TenantID is empty for the gateway-wide app.
	TenantID        string   `json:"tenant_id,omitempty"`
	ClientID        string   `json:"client_id"`
	HasClientSecret bool     `json:"has_client_secret"`
	ExtraScopes     []string `json:"extra_scopes"`
	// RedirectURI is to be registered in the provider's app settings.
	RedirectURI string    `json:"redirect_uri"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// List is the answer to GET /admin/oauth-apps.
type List struct {
	Apps []View `json:"oauth_apps"`
	// RedirectURI is every app's redirect URI, shown before any exists.
	RedirectURI string `json:"redirect_uri"`
}

// Found is the answer to GET …/oauth-apps/{provider}.
type Found struct {
	App View `json:"oauth_app"`
}

// Saved is the answer to PUT: the app as stored, and whether it is new.
type Saved struct {
	App     View `json:"oauth_app"`
	Created bool `json:"created"`
}

// Deleted is the answer to DELETE: the app as it was.
type Deleted struct {
	App     View `json:"oauth_app"`
	Deleted bool `json:"deleted"`
}

func (a *API) view(app *gtmgate.OAuthApp) View {
	scopes := app.ExtraScopes
	if scopes == nil {
		scopes = []string{}
	}
	return View{Provider: app.Provider, TenantID: app.TenantID, ClientID: app.ClientID,
		HasClientSecret: app.ClientSecret != "", ExtraScopes: scopes, RedirectURI: a.redirectURI,
		CreatedAt: app.CreatedAt, UpdatedAt: app.UpdatedAt}
}
