package gtmgate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// Roles a person holds. RoleAdmin and RoleViewer granted without a tenant
// are operator roles over every tenant; with a tenant, RoleViewer is that
// tenant's viewer. RoleOwner, RoleApprover and RoleMember are always a
// tenant's.
const (
	RoleAdmin    = "admin"
	RoleViewer   = "viewer"
	RoleOwner    = "owner"
	RoleApprover = "approver"
	RoleMember   = "member"
)

// Access is what an admin route needs of its caller, in the order of
// growing power.
type Access string

const (
	// AccessRead reads one tenant's data (the tenant is named by the route)
	// or, without a tenant, the operator's.
	AccessRead Access = "read"
	// AccessApprove decides a tenant's held calls.
	AccessApprove Access = "approve"
	// AccessWrite changes a tenant's working data: MCP servers, connect
	// links, provider tokens, schedules.
	AccessWrite Access = "write"
	// AccessOwner manages who and what may act for a tenant: its bearer
	// tokens, OAuth grants, OAuth apps.
	AccessOwner Access = "owner"
	// AccessOperator changes what only the operator controls: tenants'
	// configuration and billing, gateway-wide settings, people's roles,
	// replays and background jobs.
	AccessOperator Access = "operator"
)

// Grant kinds: what a RoleGrant matches on sign-in.
const (
	// GrantSubject matches one person by the IdP's subject (their "sub").
	GrantSubject = "subject"
	// GrantEmail matches a verified email address (lower case).
	GrantEmail = "email"
	// GrantGroup matches a group in the IdP's groups claim.
	GrantGroup = "group"
)

// RoleGrant gives a role to the people of one IdP who match it: one
// person by subject, whoever proves an email address, or a group. Grants
// are read on every request of a signed-in person, so removing one ends
// the sessions it carried at once, on every replica.
type RoleGrant struct {
	ID string `json:"id"`
	// IdP is the name of the identity provider whose assertions the grant
	// trusts: the same group name or email from another IdP never matches.
	IdP   string `json:"idp"`
	Kind  string `json:"kind"`
	Match string `json:"match"`
	Role  string `json:"role"`
	// TenantID is "" for the operator roles admin and viewer.
	TenantID string `json:"tenant_id,omitempty"`
	// Categories and Tools limit an approver to the approvals of these
	// approval categories or tools; empty: every approval of the tenant.
	Categories []string  `json:"categories,omitempty"`
	Tools      []string  `json:"tools,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	CreatedBy  string    `json:"created_by"`
}

// Validate checks the grant's shape: a known kind and role, a tenant for
// the tenant roles, limits only on approvers.
func (g *RoleGrant) Validate() error {
	switch g.Kind {
	case GrantSubject, GrantEmail, GrantGroup:
	default:
		return Errorf(EValidation, "kind %q is not subject, email or group", g.Kind)
	}
	if strings.TrimSpace(g.Match) == "" || g.IdP == "" {
		return Errorf(EValidation, "a grant needs the idp and the %s it matches", g.Kind)
	}
	switch g.Role {
	case RoleAdmin:
		if g.TenantID != "" {
			return Errorf(EValidation, "admin is an operator role: leave tenant_id empty, or give the tenant's owner role")
		}
	case RoleViewer:
	case RoleOwner, RoleApprover, RoleMember:
		if g.TenantID == "" {
			return Errorf(EValidation, "%s is a tenant role: tenant_id is required", g.Role)
		}
	default:
		return Errorf(EValidation, "role %q is not admin, viewer, owner, approver or member", g.Role)
	}
	if g.Role != RoleApprover && (len(g.Categories) > 0 || len(g.Tools) > 0) {
		return Errorf(EValidation, "categories and tools limit an approver; role %s takes no limits", g.Role)
	}
	return nil
}

// Matches reports whether the grant applies to a person signed in through
// idp with subject, email (when verified) and groups.
func (g *RoleGrant) Matches(idp string, id Identity) bool {
	if g.IdP != idp {
		return false
	}
	switch g.Kind {
	case GrantSubject:
		return g.Match == id.Subject
	case GrantEmail:
		return id.EmailVerified && id.Email != "" && strings.EqualFold(g.Match, id.Email)
	case GrantGroup:
		return slices.Contains(id.Groups, g.Match)
	}
	return false
}

// Identity is what an IdP asserted about a person at sign-in.
type Identity struct {
	Issuer        string   `json:"issuer"`
	Subject       string   `json:"subject"`
	Email         string   `json:"email,omitempty"`
	EmailVerified bool     `json:"email_verified"`
	Name          string   `json:"name,omitempty"`
	Groups        []string `json:"groups,omitempty"`
}

// Person is someone who has signed in, identified by issuer and subject.
type Person struct {
	ID         string    `json:"id"`
	IdP        string    `json:"idp"`
	Issuer     string    `json:"issuer"`
	Subject    string    `json:"subject"`
	Email      string    `json:"email,omitempty"`
	Name       string    `json:"name,omitempty"`
	CreatedAt  time.Time `json:"created_at"`
	LastSeenAt time.Time `json:"last_seen_at"`
}

// IdP is an OpenID Connect identity provider people sign in through. A
// tenant's own IdP (TenantID set) can only grant that tenant's roles: a
// client company's IdP never makes anyone an operator.
type IdP struct {
	Name         string `json:"name"`
	DisplayName  string `json:"display_name,omitempty"`
	Issuer       string `json:"issuer"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"-"` // sealed at rest, never shown
	TenantID     string `json:"tenant_id,omitempty"`
	// AllowedDomains, when set, are the only email domains that may sign in.
	AllowedDomains []string `json:"allowed_domains,omitempty"`
	// GroupsClaim names the ID token claim listing the person's groups.
	GroupsClaim string    `json:"groups_claim,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// EmailAllowed reports whether a person with email may sign in through p.
func (p *IdP) EmailAllowed(email string) bool {
	if len(p.AllowedDomains) == 0 {
		return true
	}
	_, domain, ok := strings.Cut(email, "@")
	return ok && slices.ContainsFunc(p.AllowedDomains, func(d string) bool { return strings.EqualFold(d, domain) })
}

// SignIn is a sign-in under way: what the callback needs and nobody else
// may read. Only the SHA-256 hex of its state is stored, and it is used
// once.
type SignIn struct {
	StateHash string
	IdP       string
	Nonce     string
	// Verifier is the PKCE code verifier, sealed at rest.
	Verifier  string
	Next      string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// PeopleStore keeps identity providers, people, their role grants and the
// sign-ins under way.
type PeopleStore interface {
	// PutIdP creates or replaces an IdP by name, its client secret sealed;
	// ErrNotFound when TenantID names no tenant.
	PutIdP(ctx context.Context, p *IdP) (created bool, err error)
	// GetIdP returns ErrNotFound for an unknown name.
	GetIdP(ctx context.Context, name string) (*IdP, error)
	ListIdPs(ctx context.Context) ([]*IdP, error)
	// DeleteIdP removes the IdP, its grants, its people and their sessions;
	// ErrNotFound for an unknown name.
	DeleteIdP(ctx context.Context, name string) error

	// PutRoleGrant stores a new grant; ErrConflict when the same grant
	// (idp, kind, match, role, tenant) exists.
	PutRoleGrant(ctx context.Context, g *RoleGrant) error
	// ListRoleGrants returns the grants of idp ("" for every IdP's).
	ListRoleGrants(ctx context.Context, idp string) ([]*RoleGrant, error)
	// DeleteRoleGrant returns ErrNotFound for an unknown id.
	DeleteRoleGrant(ctx context.Context, id string) error

	// SignedIn records a person's sign-in (creating them on their first)
	// and returns them.
	SignedIn(ctx context.Context, idp string, id Identity, at time.Time) (*Person, error)
	// GetPerson returns ErrNotFound for an unknown id.
	GetPerson(ctx context.Context, id string) (*Person, error)
	ListPeople(ctx context.Context) ([]*Person, error)
	// DeletePerson removes a person, their subject grants, their console
	// sessions and their own grants of upstream MCP servers; ErrNotFound
	// for an unknown id.
	DeletePerson(ctx context.Context, id string) error

	// CreateSignIn stores a sign-in under way.
	CreateSignIn(ctx context.Context, s *SignIn) error
	// TakeSignIn returns and deletes the sign-in of stateHash, so a
	// replayed callback finds nothing; ErrNotFound when it is unknown,
	// used or expired by at.
	TakeSignIn(ctx context.Context, stateHash string, at time.Time) (*SignIn, error)
}

// GrantsFor returns the grants that give roles to a person signed in
// through idp as id. A tenant's own IdP only gives that tenant's roles.
func GrantsFor(idp *IdP, grants []*RoleGrant, id Identity) []RoleGrant {
	var out []RoleGrant
	for _, g := range grants {
		if !g.Matches(idp.Name, id) {
			continue
		}
		if idp.TenantID != "" && g.TenantID != idp.TenantID {
			continue
		}
		out = append(out, *g)
	}
	return out
}

// PersonFinder is what PersonOfTenant reads of the people store.
type PersonFinder interface {
	GetPerson(ctx context.Context, id string) (*Person, error)
	ListPeople(ctx context.Context) ([]*Person, error)
	GetIdP(ctx context.Context, name string) (*IdP, error)
}

// PersonOfTenant finds the person ref names (their id "p_…", or the email
// they signed in with) as someone an agent of tenantID may act for, or
// whose own accounts a connect link of tenantID connects. They must have
// signed in at least once, and not through another tenant's own IdP. The
// error is a VALIDATION_ERROR naming field.
func PersonOfTenant(ctx context.Context, s PersonFinder, tenantID, field, ref string) (*Person, error) {
	ref = strings.TrimSpace(ref)
	var found []*Person
	if strings.HasPrefix(ref, "p_") {
		p, err := s.GetPerson(ctx, ref)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return nil, err
		}
		if p != nil {
			found = append(found, p)
		}
	} else if strings.Contains(ref, "@") {
		people, err := s.ListPeople(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range people {
			if strings.EqualFold(p.Email, ref) {
				found = append(found, p)
			}
		}
	}
	switch {
	case len(found) == 0:
		return nil, Errorf(EValidation, "%s %q is nobody who has signed in: name a person by id (p_…) or email", field, ref).
			WithHint("the person signs in to the console once; GET /admin/people lists who has")
	case len(found) > 1:
		return nil, Errorf(EValidation, "%s %q names %d people (one per IdP they signed in through)", field, ref, len(found)).
			WithHint("name one by id (p_…); GET /admin/people lists them")
	}
	p := found[0]
	idp, err := s.GetIdP(ctx, p.IdP)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if idp != nil && idp.TenantID != "" && idp.TenantID != tenantID {
		return nil, Errorf(EValidation, "%s %q signs in through tenant %q's own IdP, so cannot act in tenant %q", field, ref, idp.TenantID, tenantID)
	}
	return p, nil
}
