package refresh

import (
	"context"
	"errors"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Mount adds the refresher's admin routes to the admin mux (pass it in
// admin.Options.Extra, which authenticates and audits them):
//
//	POST /admin/seed-oauth     configure an account's refresh (the OAuth seeding record)
//	GET  /admin/oauth-refresh  list seeded accounts without secrets; query tenant filters
func (r *Refresher) Mount(mux gtmgate.Router) {
	mux.HandleFunc("POST /admin/seed-oauth", r.seedOAuth)
	mux.HandleFunc("GET /admin/oauth-refresh", r.listAccounts)
}

// SeedResult is the answer to POST /admin/seed-oauth: the record without its secrets.
type SeedResult struct {
	AccountStatus
	// Refreshed reports whether a new access token was obtained during the call.
	Refreshed bool `json:"refreshed"`
}

// seedOAuth serves POST /admin/seed-oauth: it validates and stores the
// record (secrets sealed by the store, any needs_reauth cleared) and, when
// the account has no token or one about to expire, refreshes it at once. A
// failed refresh does not fail the call: the response shows last_error and
// needs_reauth.
func (r *Refresher) seedOAuth(w http.ResponseWriter, req *http.Request) {
	var rec SeedRecord
	if err := jsonapi.Decode(w, req, r.opts.MaxBodyBytes, &rec); err != nil {
		jsonapi.WriteError(w, req, err)
		return
	}
	res, err := r.Seed(req.Context(), rec)
	if err != nil {
		jsonapi.WriteError(w, req, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, res)
}

// Seed validates and stores rec, then refreshes the account when it has no
// usable token. Errors: VALIDATION_ERROR, TENANT_NOT_FOUND.
func (r *Refresher) Seed(ctx context.Context, rec SeedRecord) (*SeedResult, error) {
	if err := r.validate(ctx, rec); err != nil {
		return nil, err
	}
	a := account{tenant: rec.TenantID, provider: rec.Provider, id: rec.AccountID}
	o := &gtmgate.ProviderOAuth{TenantID: rec.TenantID, Provider: rec.Provider, AccountID: rec.AccountID,
		ClientID: rec.ClientID, ClientSecret: rec.ClientSecret, TokenEndpoint: rec.TokenEndpoint,
		RefreshToken: rec.RefreshToken, Resource: rec.Resource, UpdatedAt: r.opts.Now().UTC()}
	prev, err := r.opts.Store.GetProviderOAuth(ctx, a.tenant, a.provider, a.id)
	switch {
	case err == nil:
		o.LastRefreshAt = prev.LastRefreshAt
	case !errors.Is(err, gtmgate.ErrNotFound):
		return nil, err
	}
	if err := r.opts.Store.PutProviderOAuth(ctx, o); err != nil {
		if errors.Is(err, gtmgate.ErrNotFound) {
			return nil, tenantNotFound(rec.TenantID)
		}
		return nil, err
	}
	// Credentials changed: a remembered client authentication style may not hold.
	r.basicAuth.Delete(a.key())
	r.opts.Logger.Info("oauth refresh seeded", "account", a.String(), "token_endpoint", rec.TokenEndpoint)

	res := &SeedResult{}
	before, err := r.opts.Store.GetProviderToken(ctx, a.tenant, a.provider, a.id)
	if err != nil && !errors.Is(err, gtmgate.ErrNotFound) {
		return nil, err
	}
	if before == nil || r.due(before, r.opts.Now()) {
		out, err := r.shared(ctx, a, r.due, false)
		res.Refreshed = err == nil && out.renewed
	}
	stored, err := r.opts.Store.GetProviderOAuth(ctx, a.tenant, a.provider, a.id)
	if err != nil {
		return nil, err
	}
	if res.AccountStatus, err = r.status(ctx, stored); err != nil {
		return nil, err
	}
	return res, nil
}

// listAccounts serves GET /admin/oauth-refresh[?tenant=ID].
func (r *Refresher) listAccounts(w http.ResponseWriter, req *http.Request) {
	tenant := req.URL.Query().Get("tenant")
	if tenant != "" {
		if _, err := r.opts.Store.GetTenant(req.Context(), tenant); errors.Is(err, gtmgate.ErrNotFound) {
			jsonapi.WriteError(w, req, tenantNotFound(tenant))
			return
		} else if err != nil {
			jsonapi.WriteError(w, req, err)
			return
		}
	}
	accounts, err := r.Accounts(req.Context(), tenant)
	if err != nil {
		jsonapi.WriteError(w, req, err)
		return
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"accounts": accounts})
}

func tenantNotFound(id string) error {
	return gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", id)
}
