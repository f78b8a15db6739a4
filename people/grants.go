package people

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// listGrants serves GET /admin/role-grants?idp=NAME&tenant=ID.
func (a *API) listGrants(w http.ResponseWriter, r *http.Request) {
	grants, err := a.opts.Store.ListRoleGrants(r.Context(), r.URL.Query().Get("idp"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := GrantList{Grants: []*gtmgate.RoleGrant{}}
	tenant := r.URL.Query().Get("tenant")
	for _, g := range grants {
		if tenant == "" || g.TenantID == tenant {
			out.Grants = append(out.Grants, g)
		}
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// createGrant serves POST /admin/role-grants. A tenant's own IdP only
// grants that tenant's roles; sign-in enforces it too (gtmgate.GrantsFor),
// but a grant it would never honour is refused here rather than kept.
func (a *API) createGrant(w http.ResponseWriter, r *http.Request) {
	var body GrantBody
	if err := jsonapi.Decode(w, r, a.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	g, err := validateGrant(&body)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	idp, err := a.findIdP(r.Context(), g.IdP)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if idp.TenantID != "" && g.TenantID != idp.TenantID {
		jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "identity provider %q is tenant %s's own: it can only grant roles in %s; "+
			"a client company's IdP never grants operator roles or other tenants' roles", idp.Name, idp.TenantID, idp.TenantID).
			WithHint(fmt.Sprintf("set tenant_id to %s, or grant the role through an IdP of the operator's", idp.TenantID)))
		return
	}
	if g.TenantID != "" {
		if _, err := a.opts.Store.GetTenant(r.Context(), g.TenantID); err != nil {
			jsonapi.WriteError(w, r, tenantError(g.TenantID, err))
			return
		}
	}
	g.CreatedBy = gtmgate.ActorBreakGlass
	if actor := gtmgate.ActorFromContext(r.Context()); actor != nil {
		g.CreatedBy = actor.AuditKey()
	}
	if err := a.opts.Store.PutRoleGrant(r.Context(), g); err != nil {
		if errors.Is(err, gtmgate.ErrConflict) {
			err = gtmgate.Errorf(gtmgate.EConflict, "identity provider %q already grants %s to %s %q%s", g.IdP, g.Role, g.Kind, g.Match, inTenant(g.TenantID)).
				WithHint("list the grants with GET /admin/role-grants?idp=" + g.IdP + "; to change a grant's limits, revoke it and grant again")
		}
		jsonapi.WriteError(w, r, err)
		return
	}
	admin.SetAuditDetail(w, fmt.Sprintf("grant %s: %s%s to %s %q of idp %s", g.ID, g.Role, inTenant(g.TenantID), g.Kind, g.Match, g.IdP))
	jsonapi.Write(w, http.StatusCreated, GrantCreated{Grant: g})
}

// deleteGrant serves DELETE /admin/role-grants/{grant_id}. Roles are read
// on every request, so the sessions the grant carried lose its role on
// their next one.
func (a *API) deleteGrant(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("grant_id")
	if err := a.opts.Store.DeleteRoleGrant(r.Context(), id); err != nil {
		if errors.Is(err, gtmgate.ErrNotFound) {
			err = gtmgate.Errorf(gtmgate.ENotFound, "no role grant %q", id).WithHint("list the grants with GET /admin/role-grants")
		}
		jsonapi.WriteError(w, r, err)
		return
	}
	admin.SetAuditDetail(w, "grant "+id+" revoked")
	jsonapi.Write(w, http.StatusOK, GrantDeleted{Deleted: true, ID: id})
}

// inTenant says where a role holds: " in tenant T", or "" for an operator role.
func inTenant(tenant string) string {
	if tenant == "" {
		return ""
	}
	return " in tenant " + tenant
}
