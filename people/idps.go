package people

import (
	"context"
	"errors"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// listIdPs serves GET /admin/sso/idps.
func (a *API) listIdPs(w http.ResponseWriter, r *http.Request) {
	idps, err := a.opts.Store.ListIdPs(r.Context())
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := IdPList{IdPs: make([]IdPView, 0, len(idps)), RedirectURI: a.redirectURI}
	for _, p := range idps {
		out.IdPs = append(out.IdPs, a.view(p))
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// getIdP serves GET /admin/sso/idps/{name}.
func (a *API) getIdP(w http.ResponseWriter, r *http.Request) {
	p, err := a.findIdP(r.Context(), r.PathValue("name"))
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, IdPFound{IdP: a.view(p)})
}

// putIdP serves PUT /admin/sso/idps/{name}: 201 when it creates the IdP,
// 200 when it replaces it. The issuer is discovered first, so an IdP
// nobody could sign in through is never stored.
func (a *API) putIdP(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if err := validName(name); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	var body IdPBody
	if err := jsonapi.Decode(w, r, a.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	p, err := validateIdP(&body)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	p.Name = name
	kept, err := a.checkReplace(r.Context(), p)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if p.TenantID != "" {
		if _, err := a.opts.Store.GetTenant(r.Context(), p.TenantID); err != nil {
			jsonapi.WriteError(w, r, tenantError(p.TenantID, err))
			return
		}
	}
	if err := a.opts.Discover(r.Context(), p.Issuer); err != nil {
		jsonapi.WriteError(w, r, discoveryError(p.Issuer, err))
		return
	}
	created, err := a.opts.Store.PutIdP(r.Context(), p)
	if err != nil {
		jsonapi.WriteError(w, r, tenantError(p.TenantID, err))
		return
	}
	detail := "idp " + name + " replaced"
	switch {
	case created:
		detail = "idp " + name + " created"
	case kept:
		detail += ", secret kept"
	}
	if p.TenantID != "" {
		detail += ", tenant " + p.TenantID + "'s own"
	}
	admin.SetAuditDetail(w, detail+", issuer "+p.Issuer+", client id "+p.ClientID)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	jsonapi.Write(w, status, IdPSaved{IdP: a.view(p), Created: created})
}

// checkReplace compares p with the IdP it replaces, if any: it keeps the
// stored secret when p has none (kept), requires one to create, and
// refuses a replace that would change what the IdP's grants mean.
func (a *API) checkReplace(ctx context.Context, p *gtmgate.IdP) (kept bool, err error) {
	prev, err := a.opts.Store.GetIdP(ctx, p.Name)
	if errors.Is(err, gtmgate.ErrNotFound) {
		if p.ClientSecret == "" {
			return false, gtmgate.Errorf(gtmgate.EValidation, "client_secret is required to create identity provider %q", p.Name).
				WithHint("send the secret of the gateway's app at the IdP; later replaces may leave it out to keep it")
		}
		return false, nil
	} else if err != nil {
		return false, err
	}
	if p.ClientSecret == "" {
		// The secret cannot be read back, so a replace may leave it out.
		p.ClientSecret, kept = prev.ClientSecret, true
	}
	if prev.Issuer == p.Issuer && prev.TenantID == p.TenantID {
		return kept, nil
	}
	grants, err := a.opts.Store.ListRoleGrants(ctx, p.Name)
	if err != nil {
		return false, err
	}
	for _, g := range grants {
		switch {
		case prev.Issuer != p.Issuer && g.Kind == gtmgate.GrantSubject:
			// A subject is unique only within its issuer: at another
			// issuer the same "sub" may be someone else.
			return false, gtmgate.Errorf(gtmgate.EConflict, "identity provider %q has subject grants (%s), which would match whoever "+
				"has the same subject at issuer %s", p.Name, g.ID, p.Issuer).
				WithHint("revoke its subject grants first (DELETE /admin/role-grants/{grant_id}), or add the new issuer as another IdP")
		case p.TenantID != "" && g.TenantID != p.TenantID:
			return false, gtmgate.Errorf(gtmgate.EConflict, "identity provider %q has grants outside tenant %s (%s), which a tenant's own IdP "+
				"cannot give", p.Name, p.TenantID, g.ID).
				WithHint("revoke those grants first (DELETE /admin/role-grants/{grant_id})")
		}
	}
	return kept, nil
}

// deleteIdP serves DELETE /admin/sso/idps/{name}; the store removes the
// IdP's grants, people and their sessions with it.
func (a *API) deleteIdP(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	p, err := a.findIdP(r.Context(), name)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if err := a.opts.Store.DeleteIdP(r.Context(), name); err != nil {
		jsonapi.WriteError(w, r, idpNotFound(name, err))
		return
	}
	admin.SetAuditDetail(w, "idp "+name+" deleted with its grants, people and their sessions, issuer "+p.Issuer)
	jsonapi.Write(w, http.StatusOK, IdPDeleted{IdP: a.view(p), Deleted: true})
}

// findIdP reads an IdP; NOT_FOUND names it.
func (a *API) findIdP(ctx context.Context, name string) (*gtmgate.IdP, error) {
	p, err := a.opts.Store.GetIdP(ctx, name)
	if err != nil {
		return nil, idpNotFound(name, err)
	}
	return p, nil
}

func idpNotFound(name string, err error) error {
	if !errors.Is(err, gtmgate.ErrNotFound) {
		return err
	}
	return gtmgate.Errorf(gtmgate.ENotFound, "no identity provider %q", name).
		WithHint("list them with GET /admin/sso/idps")
}

// tenantError turns the store's not-found for a tenant into TENANT_NOT_FOUND.
func tenantError(tenant string, err error) error {
	if tenant != "" && errors.Is(err, gtmgate.ErrNotFound) {
		return gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenant)
	}
	return err
}
