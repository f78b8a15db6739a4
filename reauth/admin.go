package reauth

import (
	"errors"
	"net/http"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

// Mount adds the admin route (pass it in admin.Options.Extra, which
// authenticates and audits it):
//
//	GET /admin/reauth  accounts that need re-authorisation; query tenant filters
func (l *Lister) Mount(mux gtmgate.Router) {
	mux.HandleFunc("GET /admin/reauth", l.list)
}

// list serves GET /admin/reauth[?tenant=ID].
func (l *Lister) list(w http.ResponseWriter, req *http.Request) {
	tenant := req.URL.Query().Get("tenant")
	if tenant != "" {
		if _, err := l.store.GetTenant(req.Context(), tenant); errors.Is(err, gtmgate.ErrNotFound) {
			jsonapi.WriteError(w, req, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q is not provisioned", tenant))
			return
		} else if err != nil {
			jsonapi.WriteError(w, req, err)
			return
		}
	}
	accounts, err := l.Accounts(req.Context(), tenant)
	if err != nil {
		jsonapi.WriteError(w, req, err)
		return
	}
	if accounts == nil {
		accounts = []Account{}
	}
	jsonapi.Write(w, http.StatusOK, map[string]any{"accounts": accounts})
}
