package gtmgate

import (
	"context"
	"slices"
)

// Actor kinds: who makes an admin request or console action.
const (
	// ActorPerson is a person signed in through an IdP.
	ActorPerson = "person"
	// ActorBreakGlass is whoever holds the bootstrap ADMIN_API_KEY.
	ActorBreakGlass = "admin-key"
	// ActorAPIKey is a named admin API key of a person or an automation.
	ActorAPIKey = "api-key"
)

// Admin key scopes: what a named admin API key may do.
const (
	ScopeRead    = "read"
	ScopeApprove = "approve"
	ScopeWrite   = "write"
)

// Actor is the authenticated maker of an admin request: a signed-in person
// with the roles their grants give, or the break-glass admin key. Every
// admin route asks it whether it Allows the route's access on the route's
// tenant; audit entries and approval decisions name it.
type Actor struct {
	Kind string `json:"kind"`
	// ID is the person's id ("" for the break-glass key).
	ID string `json:"id,omitempty"`
	// Name is shown as who acted: a person's email (or name), the key's name.
	Name string `json:"name"`
	// Via is how the actor signed in: "sso:<idp>", "x-admin-key",
	// "console:admin-key".
	Via string `json:"via"`
	// Roles are the grants that matched at this request.
	Roles []RoleGrant `json:"roles,omitempty"`
	// Scopes and Tenants are a named admin key's: what it may do, and the
	// tenants it is limited to (none: every tenant and the operator's
	// routes).
	Scopes  []string `json:"scopes,omitempty"`
	Tenants []string `json:"tenants,omitempty"`
}

// BreakGlass is the actor of the bootstrap admin key, signed in via how.
func BreakGlass(via string) *Actor {
	return &Actor{Kind: ActorBreakGlass, Name: "admin key", Via: via}
}

// AuditKey names the actor in audit entries: "person:<id>",
// "api-key:<id>" or "admin-key".
func (a *Actor) AuditKey() string {
	switch a.Kind {
	case ActorPerson:
		return "person:" + a.ID
	case ActorAPIKey:
		return "api-key:" + a.ID
	}
	return a.Kind
}

// Operator reports the actor's operator role: admin, viewer or "". A named
// key limited to no tenant is an operator's: admin with the write scope,
// viewer with read.
func (a *Actor) Operator() string {
	switch a.Kind {
	case ActorBreakGlass:
		return RoleAdmin
	case ActorAPIKey:
		switch {
		case len(a.Tenants) > 0:
			return ""
		case slices.Contains(a.Scopes, ScopeWrite):
			return RoleAdmin
		case slices.Contains(a.Scopes, ScopeRead):
			return RoleViewer
		}
		return ""
	}
	role := ""
	for _, g := range a.Roles {
		if g.TenantID != "" {
			continue
		}
		if g.Role == RoleAdmin {
			return RoleAdmin
		}
		role = RoleViewer
	}
	return role
}

// TenantIDs lists the tenants the actor holds a tenant role in (a named
// key: the tenants it is limited to), sorted.
func (a *Actor) TenantIDs() []string {
	if a.Kind == ActorAPIKey {
		return slices.Sorted(slices.Values(a.Tenants))
	}
	var ids []string
	for _, g := range a.Roles {
		if g.TenantID != "" && !slices.Contains(ids, g.TenantID) {
			ids = append(ids, g.TenantID)
		}
	}
	slices.Sort(ids)
	return ids
}

// SeesTenant reports whether the actor may read tenantID at all.
func (a *Actor) SeesTenant(tenantID string) bool { return a.Allows(AccessRead, tenantID) }

// Allows reports whether the actor may make a request needing need on
// tenantID ("" for a route that names no tenant: the operator's).
func (a *Actor) Allows(need Access, tenantID string) bool {
	if a.Kind == ActorAPIKey {
		return a.keyAllows(need, tenantID)
	}
	switch a.Operator() {
	case RoleAdmin:
		return true
	case RoleViewer:
		if need == AccessRead {
			return true
		}
	}
	if tenantID == "" || need == AccessOperator {
		return false
	}
	for _, g := range a.Roles {
		if g.TenantID == tenantID && slices.Contains(tenantAccess[g.Role], need) {
			return true
		}
	}
	return false
}

// keyAllows is Allows for a named key: read and approve as scoped, write
// also for the owner's routes, and the operator's routes only for a write
// key limited to no tenant.
func (a *Actor) keyAllows(need Access, tenantID string) bool {
	if len(a.Tenants) > 0 && !slices.Contains(a.Tenants, tenantID) {
		return false
	}
	switch need {
	case AccessRead:
		return slices.Contains(a.Scopes, ScopeRead)
	case AccessApprove:
		return slices.Contains(a.Scopes, ScopeApprove)
	case AccessWrite, AccessOwner:
		return slices.Contains(a.Scopes, ScopeWrite)
	case AccessOperator:
		return len(a.Tenants) == 0 && slices.Contains(a.Scopes, ScopeWrite)
	}
	return false
}

// tenantAccess is what each tenant role may do in its tenant.
var tenantAccess = map[string][]Access{
	RoleViewer:   {AccessRead},
	RoleApprover: {AccessRead, AccessApprove},
	RoleMember:   {AccessRead, AccessWrite},
	RoleOwner:    {AccessRead, AccessApprove, AccessWrite, AccessOwner},
}

// CanDecide reports whether the actor may approve or reject a held call of
// tenantID in category by tool: operators' admins and the tenant's owners
// always, its approvers when their grant is unlimited or names the
// category or the tool.
func (a *Actor) CanDecide(tenantID, category, tool string) bool {
	if a.Kind == ActorAPIKey {
		return a.keyAllows(AccessApprove, tenantID)
	}
	if a.Operator() == RoleAdmin {
		return true
	}
	for _, g := range a.Roles {
		if g.TenantID != tenantID {
			continue
		}
		switch g.Role {
		case RoleOwner:
			return true
		case RoleApprover:
			if len(g.Categories) == 0 && len(g.Tools) == 0 ||
				slices.Contains(g.Categories, category) || slices.Contains(g.Tools, tool) {
				return true
			}
		}
	}
	return false
}

type actorKey struct{}

// WithActor returns ctx carrying the admin request's actor.
func WithActor(ctx context.Context, a *Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFromContext returns the admin request's actor, nil when none.
func ActorFromContext(ctx context.Context) *Actor {
	a, _ := ctx.Value(actorKey{}).(*Actor)
	return a
}

// ActorKeyFromContext names the request's actor as audit entries do
// (Actor.AuditKey); the break-glass key when none is in ctx, as on the
// admin routes that predate actors.
func ActorKeyFromContext(ctx context.Context) string {
	if a := ActorFromContext(ctx); a != nil {
		return a.AuditKey()
	}
	return ActorBreakGlass
}
