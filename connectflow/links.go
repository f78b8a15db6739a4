package connectflow

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/connect"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// MountAdmin adds the admin routes to the admin mux (pass it in
// admin.Options.Extra, which authenticates and audits them):
//
//	POST /admin/tenants/{tenant_id}/connect-links       create a link
//	POST /admin/tenants/{tenant_id}/connect-links/mine  create a link for the signed-in person's own account
//	GET  /admin/connect-links                           list links; query tenant, limit
func (f *Flow) MountAdmin(mux gtmgate.Router) {
	mux.HandleFunc("POST /admin/tenants/{tenant_id}/connect-links", f.create)
	mux.HandleFunc("POST /admin/tenants/{tenant_id}/connect-links/mine", f.createMine)
	mux.HandleFunc("GET /admin/connect-links", f.list)
}

// CreateBody is the body of POST /admin/tenants/{id}/connect-links.
type CreateBody struct {
	// Provider is the family (google, hubspot, meta, linkedin) or one of
	// its products by provider key (google_ads, ga4, gmail, meta_ads,
	// linkedin_ads…): a product connects that product alone; or
	// "mcp:<server>", one of the tenant's upstream MCP servers of auth
	// kind oauth (connectflow/mcp.go).
	Provider string `json:"provider"`
	// Products narrows the link to these products of the family: it asks
	// for their scopes only and finds only their accounts. Empty: every
	// product of the family (or the one Provider names).
	Products []string `json:"products,omitempty"`
	// AccountHint, when it names a discovered account, picks it.
	AccountHint string `json:"account_hint,omitempty"`
	// ExpiresIn is the link's lifetime in seconds (900 when 0, at most 7 days).
	ExpiresIn int64 `json:"expires_in,omitempty"`
	// ReadOnly asks for read scopes only.
	ReadOnly bool `json:"read_only,omitempty"`
	// Person, when set (id "p_…" or the email they sign in with), makes
	// the accounts the link connects that person's own: only agents acting
	// for them reach them.
	Person string `json:"person,omitempty"`
}

// Created is the answer to POST …/connect-links: URL holds the link's
// secret, shown this once.
type Created struct {
	ID          string    `json:"id"`
	URL         string    `json:"url"`
	TenantID    string    `json:"tenant_id"`
	Provider    string    `json:"provider"`
	AccountHint string    `json:"account_hint,omitempty"`
	Products    []string  `json:"products,omitempty"`
	Person      string    `json:"person,omitempty"`
	Scopes      []string  `json:"scopes"`
	ExpiresAt   time.Time `json:"expires_at"`
	RedirectURI string    `json:"redirect_uri"`
}

// List is the answer to GET /admin/connect-links: no secrets.
type List struct {
	Links []*gtmgate.ConnectLink `json:"connect_links"`
}

// create serves POST /admin/tenants/{tenant_id}/connect-links.
func (f *Flow) create(w http.ResponseWriter, r *http.Request) {
	var body CreateBody
	if err := jsonapi.Decode(w, r, f.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	f.issue(w, r, body)
}

// issue creates the link body asks for in the path's tenant and answers
// Created.
func (f *Flow) issue(w http.ResponseWriter, r *http.Request, body CreateBody) {
	if isMCP(strings.TrimSpace(body.Provider)) {
		body.Provider = strings.TrimSpace(body.Provider)
		f.issueMCP(w, r, body)
		return
	}
	tenantID := r.PathValue("tenant_id")
	p, expiry, err := validate(&body)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	t, err := f.opts.Store.GetTenant(r.Context(), tenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenantID))
		return
	} else if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	// A link hinted at a person's own account reconnects it for them.
	person := ownerOf(t, p, body.AccountHint)
	if body.Person != "" {
		who, err := gtmgate.PersonOfTenant(r.Context(), f.opts.Store, tenantID, "person", body.Person)
		if err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		person = who.ID
	}
	app, err := f.app(r.Context(), tenantID, p.Name)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	needs := connect.Needs(f.opts.Registry, t, p, body.Products, body.ReadOnly)
	now := f.now()
	secret := newSecret()
	l := &gtmgate.ConnectLink{ID: gtmgate.NewID("cl_"), TokenHash: hash(secret), TenantID: tenantID, Provider: p.Name,
		AccountHint: body.AccountHint, Products: body.Products, Person: person, Scopes: connect.Scopes(p, needs, app.ExtraScopes),
		Status: gtmgate.ConnectCreated, CreatedBy: gtmgate.ActorKeyFromContext(r.Context()), CreatedAt: now, ExpiresAt: now.Add(expiry)}
	f.createLink(w, r, l, secret, "provider "+p.Name)
}

// createLink stores l, whose secret is secret, and answers 201 with the
// link's URL (shown this once). what names the link's target in the audit
// detail, which is set here so the secret never reaches the audit.
func (f *Flow) createLink(w http.ResponseWriter, r *http.Request, l *gtmgate.ConnectLink, secret, what string) {
	if err := f.opts.Store.CreateConnectLink(r.Context(), l); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	detail := "connect link created: tenant " + l.TenantID + ", " + what + ", id " + l.ID
	if l.Person != "" {
		detail += ", for person " + l.Person
	}
	admin.SetAuditDetail(w, detail)
	jsonapi.Write(w, http.StatusCreated, Created{ID: l.ID, URL: f.LinkURL(secret), TenantID: l.TenantID, Provider: l.Provider,
		AccountHint: l.AccountHint, Products: l.Products, Person: l.Person, Scopes: l.Scopes, ExpiresAt: l.ExpiresAt, RedirectURI: f.redirectURI})
}

// ownerOf is the person whose own account of family p the tenant's
// account hint names, "" when it names none of a person's.
func ownerOf(t *gtmgate.Tenant, p connect.Provider, hint string) string {
	if hint == "" {
		return ""
	}
	for _, key := range p.Covers {
		if a, ok := t.Providers[key].Account(hint); ok && a.Person != "" {
			return a.Person
		}
	}
	return ""
}

// validate checks the body and returns the family and the lifetime. A
// product named as the provider becomes the family with that one product;
// b.Products is left in the family's order, each once.
func validate(b *CreateBody) (connect.Provider, time.Duration, error) {
	b.Provider = strings.TrimSpace(strings.ToLower(b.Provider))
	p, ok := connect.Lookup(b.Provider)
	if !ok {
		if p, ok = connect.Family(b.Provider); ok {
			b.Products = append(b.Products, b.Provider)
		}
	}
	if !ok {
		return p, 0, gtmgate.Errorf(gtmgate.EValidation, "provider %q is neither a family (google, hubspot, meta, linkedin) nor one of their products", b.Provider).
			WithHint("one Google link serves every Google tool; name a product (google_ads, ga4, gmail…) or list products to connect fewer")
	}
	var products []string
	for _, key := range p.Covers {
		if slices.Contains(b.Products, key) {
			products = append(products, key)
		}
	}
	for _, key := range b.Products {
		if !p.Covering(key) {
			return p, 0, gtmgate.Errorf(gtmgate.EValidation, "%q is not a product of %s", key, p.Name).
				WithHint(p.Name + "'s products: " + strings.Join(p.Covers, ", "))
		}
	}
	b.Products = products
	if len(b.AccountHint) > 200 {
		return p, 0, gtmgate.Errorf(gtmgate.EValidation, "account_hint is longer than 200 characters")
	}
	expiry := DefaultExpiry
	if b.ExpiresIn != 0 {
		if b.ExpiresIn < 60 || b.ExpiresIn > int64(MaxExpiry/time.Second) {
			return p, 0, gtmgate.Errorf(gtmgate.EValidation, "expires_in must be between 60 and %d seconds (7 days)", int64(MaxExpiry/time.Second))
		}
		expiry = time.Duration(b.ExpiresIn) * time.Second
	}
	return p, expiry, nil
}

// list serves GET /admin/connect-links[?tenant=ID&limit=N].
func (f *Flow) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, err := jsonapi.QueryLimit(q.Get("limit"), 50, 500)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	links, err := f.opts.Store.ListConnectLinks(r.Context(), q.Get("tenant"), limit)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if links == nil {
		links = []*gtmgate.ConnectLink{}
	}
	jsonapi.Write(w, http.StatusOK, List{Links: links})
}
