package oauthapps

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// list serves GET /admin/oauth-apps.
func (a *API) list(w http.ResponseWriter, r *http.Request) {
	apps, err := a.opts.Store.ListOAuthApps(r.Context())
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	out := List{Apps: make([]View, 0, len(apps)), RedirectURI: a.redirectURI}
	for _, app := range apps {
		out.Apps = append(out.Apps, a.view(app))
	}
	jsonapi.Write(w, http.StatusOK, out)
}

// get serves GET …/oauth-apps/{provider}.
func (a *API) get(w http.ResponseWriter, r *http.Request) {
	tenant, provider, err := a.target(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	app, err := a.find(r.Context(), tenant, provider)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, Found{App: a.view(app)})
}

// put serves PUT …/oauth-apps/{provider}: 201 when it creates the app, 200
// when it replaces it.
func (a *API) put(w http.ResponseWriter, r *http.Request) {
	tenant, provider, err := a.target(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	var body Body
	if err := jsonapi.Decode(w, r, a.opts.MaxBodyBytes, &body); err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	scopes, err := validate(&body)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	app := &gtmgate.OAuthApp{TenantID: tenant, Provider: provider, ClientID: body.ClientID,
		ClientSecret: body.ClientSecret, ExtraScopes: scopes}
	kept := false
	if app.ClientSecret == "" {
		// The secret cannot be read back, so a replace may leave it out.
		prev, err := a.opts.Store.GetOAuthApp(r.Context(), tenant, provider)
		if errors.Is(err, gtmgate.ErrNotFound) {
			jsonapi.WriteError(w, r, gtmgate.Errorf(gtmgate.EValidation, "client_secret is required to create the %s app", provider).
				WithHint("send the secret from the provider's app settings; later replaces may leave it out to keep it"))
			return
		} else if err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		app.ClientSecret, kept = prev.ClientSecret, true
	}
	created, err := a.opts.Store.PutOAuthApp(r.Context(), app)
	if err != nil {
		jsonapi.WriteError(w, r, tenantError(tenant, err))
		return
	}
	detail := provider + " app replaced"
	switch {
	case created:
		detail = provider + " app created"
	case kept:
		detail += ", secret kept"
	}
	admin.SetAuditDetail(w, detail+", client id "+app.ClientID)
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	jsonapi.Write(w, status, Saved{App: a.view(app), Created: created})
}

// delete serves DELETE …/oauth-apps/{provider}.
func (a *API) delete(w http.ResponseWriter, r *http.Request) {
	tenant, provider, err := a.target(r)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	app, err := a.find(r.Context(), tenant, provider)
	if err != nil {
		jsonapi.WriteError(w, r, err)
		return
	}
	if err := a.opts.Store.DeleteOAuthApp(r.Context(), tenant, provider); err != nil {
		jsonapi.WriteError(w, r, a.notFound(tenant, provider, err))
		return
	}
	admin.SetAuditDetail(w, provider+" app deleted, client id "+app.ClientID)
	jsonapi.Write(w, http.StatusOK, Deleted{App: a.view(app), Deleted: true})
}

// target reads the route's tenant ("" for the gateway-wide app) and
// provider: VALIDATION_ERROR for an unknown provider, TENANT_NOT_FOUND for
// an unknown tenant.
func (a *API) target(r *http.Request) (tenant, provider string, err error) {
	tenant, provider = r.PathValue("tenant_id"), r.PathValue("provider")
	if err := validProvider(provider); err != nil {
		return "", "", err
	}
	if tenant == "" {
		// The gateway-wide route names no tenant; a ?tenant= here would
		// otherwise be ignored and the gateway-wide app overwritten.
		if t := r.URL.Query().Get("tenant"); t != "" || r.URL.Query().Has("tenant") {
			return "", "", gtmgate.Errorf(gtmgate.EValidation, "the gateway-wide app's route takes no tenant query parameter").
				WithHint("a tenant's own app is at /admin/tenants/" + url.PathEscape(cmp.Or(t, "{tenant_id}")) + "/oauth-apps/" + provider)
		}
		return "", provider, nil
	}
	if _, err := a.opts.Store.GetTenant(r.Context(), tenant); err != nil {
		return "", "", tenantError(tenant, err)
	}
	return tenant, provider, nil
}

// find reads an app; NOT_FOUND says how to register it.
func (a *API) find(ctx context.Context, tenant, provider string) (*gtmgate.OAuthApp, error) {
	app, err := a.opts.Store.GetOAuthApp(ctx, tenant, provider)
	if err != nil {
		return nil, a.notFound(tenant, provider, err)
	}
	return app, nil
}

func (a *API) notFound(tenant, provider string, err error) error {
	if !errors.Is(err, gtmgate.ErrNotFound) {
		return err
	}
	if tenant == "" {
		return gtmgate.Errorf(gtmgate.ENotFound, "no gateway-wide %s OAuth app is registered", provider).
			WithHint(fmt.Sprintf("register one with PUT /admin/oauth-apps/%s", provider))
	}
	return gtmgate.Errorf(gtmgate.ENotFound, "tenant %q has no %s OAuth app of its own", tenant, provider).
		WithHint(fmt.Sprintf("register one with PUT /admin/tenants/%s/oauth-apps/%s; without it the tenant uses the gateway-wide app", tenant, provider))
}

// tenantError turns the store's not-found for a tenant into TENANT_NOT_FOUND.
func tenantError(tenant string, err error) error {
	if tenant != "" && errors.Is(err, gtmgate.ErrNotFound) {
		return gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenant)
	}
	return err
}
