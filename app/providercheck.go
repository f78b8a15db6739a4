package app

import (
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/providercheck"
	"github.com/gtmgate/gtmgate/toolrun"
)

// providerChecker checks tenants' accounts with each provider's probe read.
func (a *App) providerChecker() *providercheck.Checker {
	probes := map[string]providercheck.Probe{}
	for _, p := range providers() {
		if p.probe.Tool != "" {
			probes[p.key] = p.probe
		}
	}
	return providercheck.New(providercheck.Options{Store: a.store, Registry: a.registry,
		Tokens: &toolrun.StoredTokens{Store: a.store, Refresher: a.refresher}, Probes: probes,
		Version: a.cfg.APIVersion, Timeout: a.cfg.UpstreamTimeout + 5*time.Second})
}

// mountProviderCheck adds POST /admin/providers/check[?tenant=T]: one
// harmless read per account at the real provider (the sandbox under --demo).
// It answers 200 with the per-account results whether or not they pass;
// "ok" says whether every account works.
func (a *App) mountProviderCheck(mux gtmgate.Router) {
	checker := a.providerChecker()
	mux.HandleFunc("POST /admin/providers/check", func(w http.ResponseWriter, r *http.Request) {
		rep, err := checker.Check(r.Context(), r.URL.Query().Get("tenant"))
		if err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		jsonapi.Write(w, http.StatusOK, rep)
	})
}
