// Package people is the admin API of single sign-on: the identity providers
// people sign in through, the people who have signed in, and the grants that
// give them roles.
package people

import (
	"cmp"
	"context"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/sso"
)

// DefaultGroupsClaim is the ID token claim read for a person's groups when
// an IdP names none.
const DefaultGroupsClaim = "groups"

// Store is what the routes need of gtmgate.Store.
type Store interface {
	gtmgate.PeopleStore
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
}

// Options configures the routes. Store and GatewayURL are required.
type Options struct {
	Store Store
	// GatewayURL is the gateway's public base URL (GTMGATE_GATEWAY_URL),
	// the base of the redirect URI registered at every IdP.
	GatewayURL   string
	MaxBodyBytes int64
	// Discover checks, before an IdP is stored, that issuer serves an
	// OpenID configuration naming itself; default: go-oidc's discovery
	// under DiscoveryTimeout. It returns a *gtmgate.Error to choose the
	// refusal; any other error is refused as UPSTREAM_ERROR.
	Discover func(ctx context.Context, issuer string) error
}

// API serves the single sign-on admin routes.
type API struct {
	opts        Options
	redirectURI string
}

// New returns the routes; mount them on the admin API with Mount.
func New(opts Options) *API {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = jsonapi.DefaultMaxBody
	}
	if opts.Discover == nil {
		opts.Discover = discover
	}
	return &API{opts: opts, redirectURI: sso.RedirectURI(opts.GatewayURL)}
}

// Mount adds the routes to the admin mux (pass it in admin.Options.Extra,
// which authenticates and audits them):
//
//	GET    /admin/sso/idps                  every IdP and the redirect URI to register
//	GET    /admin/sso/idps/{name}
//	PUT    /admin/sso/idps/{name}           create or replace, once its issuer is discovered
//	DELETE /admin/sso/idps/{name}           with its grants, people and their sessions
//	GET    /admin/people                    everyone who has signed in
//	DELETE /admin/people/{person_id}        with their subject grants and sessions
//	GET    /admin/role-grants               ?idp=NAME&tenant=ID
//	POST   /admin/role-grants
//	DELETE /admin/role-grants/{grant_id}
func (a *API) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/sso/idps", a.listIdPs)
	mux.HandleFunc("GET /admin/sso/idps/{name}", a.getIdP)
	mux.HandleFunc("PUT /admin/sso/idps/{name}", a.putIdP)
	mux.HandleFunc("DELETE /admin/sso/idps/{name}", a.deleteIdP)
	mux.HandleFunc("GET /admin/people", a.listPeople)
	mux.HandleFunc("DELETE /admin/people/{person_id}", a.deletePerson)
	mux.HandleFunc("GET /admin/role-grants", a.listGrants)
	mux.HandleFunc("POST /admin/role-grants", a.createGrant)
	mux.HandleFunc("DELETE /admin/role-grants/{grant_id}", a.deleteGrant)
}

// IdPBody is the body of PUT /admin/sso/idps/{name}.
type IdPBody struct {
	// DisplayName is shown on the sign-in page ("Sign in with …").
	DisplayName string `json:"display_name,omitempty"`
	// Issuer is the IdP's issuer URL, exactly as its
	// /.well-known/openid-configuration names it.
	Issuer string `json:"issuer"`
	// ClientID is the gateway's client id at the IdP.
	ClientID string `json:"client_id"`
	// ClientSecret is required when the IdP is created; omitted (or empty)
	// on a replace, the stored secret is kept.
	ClientSecret string `json:"client_secret,omitempty"`
	// TenantID makes the IdP a tenant's own: it can only grant that
	// tenant's roles.
	TenantID string `json:"tenant_id,omitempty"`
	// AllowedDomains, when set, are the only email domains that may sign
	// in (bare domain names, e.g. example.com).
	AllowedDomains []string `json:"allowed_domains,omitempty"`
	// GroupsClaim names the ID token claim listing the person's groups;
	// default "groups".
	GroupsClaim string `json:"groups_claim,omitempty"`
}

// IdPView is an IdP as the admin API shows it: never its secret.
type IdPView struct {
	Name            string `json:"name"`
	DisplayName     string `json:"display_name"`
	Issuer          string `json:"issuer"`
	ClientID        string `json:"client_id"`
	HasClientSecret bool   `json:"has_client_secret"`
	// TenantID is set for a tenant's own IdP.
	TenantID       string   `json:"tenant_id,omitempty"`
	AllowedDomains []string `json:"allowed_domains"`
	GroupsClaim    string   `json:"groups_claim"`
	// RedirectURI is to be registered at the IdP.
	RedirectURI string    `json:"redirect_uri"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// IdPList is the answer to GET /admin/sso/idps.
type IdPList struct {
	IdPs []IdPView `json:"idps"`
	// RedirectURI is every IdP's redirect URI, shown before any exists.
	RedirectURI string `json:"redirect_uri"`
}

// IdPFound is the answer to GET /admin/sso/idps/{name}.
type IdPFound struct {
	IdP IdPView `json:"idp"`
}

// IdPSaved is the answer to PUT: the IdP as stored, and whether it is new.
type IdPSaved struct {
	IdP     IdPView `json:"idp"`
	Created bool    `json:"created"`
}

// IdPDeleted is the answer to DELETE: the IdP as it was.
type IdPDeleted struct {
	IdP     IdPView `json:"idp"`
	Deleted bool    `json:"deleted"`
}

func (a *API) view(p *gtmgate.IdP) IdPView {
	domains := p.AllowedDomains
	if domains == nil {
		domains = []string{}
	}
	return IdPView{Name: p.Name, DisplayName: p.DisplayName, Issuer: p.Issuer, ClientID: p.ClientID,
		HasClientSecret: p.ClientSecret != "", TenantID: p.TenantID, AllowedDomains: domains,
		GroupsClaim: cmp.Or(p.GroupsClaim, DefaultGroupsClaim), RedirectURI: a.redirectURI,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// PeopleList is the answer to GET /admin/people.
type PeopleList struct {
	People []*gtmgate.Person `json:"people"`
}

// PersonDeleted is the answer to DELETE /admin/people/{person_id}: the
// person as they were.
type PersonDeleted struct {
	Person  *gtmgate.Person `json:"person"`
	Deleted bool            `json:"deleted"`
}

// GrantBody is the body of POST /admin/role-grants.
type GrantBody struct {
	// IdP names the identity provider whose assertions the grant trusts.
	IdP string `json:"idp"`
	// Kind is subject, email or group.
	Kind string `json:"kind"`
	// Match is the subject, verified email address or group matched.
	Match string `json:"match"`
	// Role is admin or viewer without a tenant; owner, approver, member or
	// viewer with one.
	Role     string `json:"role"`
	TenantID string `json:"tenant_id,omitempty"`
	// Categories and Tools limit an approver to these approval categories
	// or tools.
	Categories []string `json:"categories,omitempty"`
	Tools      []string `json:"tools,omitempty"`
}

// GrantList is the answer to GET /admin/role-grants.
type GrantList struct {
	Grants []*gtmgate.RoleGrant `json:"grants"`
}

// GrantCreated is the answer to POST /admin/role-grants.
type GrantCreated struct {
	Grant *gtmgate.RoleGrant `json:"grant"`
}

// GrantDeleted is the answer to DELETE /admin/role-grants/{grant_id}.
type GrantDeleted struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}
