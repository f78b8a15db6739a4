package app

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/upstream"
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
		Scopes: a.scopeFacts(), Version: a.cfg.APIVersion, Timeout: a.cfg.UpstreamTimeout + 5*time.Second})
}

// mountProviderCheck adds POST /admin/providers/check[?tenant=T]: one
// harmless read per account at the real provider (the sandbox under --demo).
// It answers 200 with the per-account results whether or not they pass;
// "ok" says whether every account works.
func (a *App) mountProviderCheck(mux gtmgate.Router) {
	// Built by the first check, not at start-up: it parses every
	// provider's facts, which most processes never need.
	checker := sync.OnceValue(a.providerChecker)
	mux.HandleFunc("POST /admin/providers/check", func(w http.ResponseWriter, r *http.Request) {
		rep, err := checker().Check(r.Context(), r.URL.Query().Get("tenant"))
		if err != nil {
			jsonapi.WriteError(w, r, err)
			return
		}
		jsonapi.Write(w, http.StatusOK, rep)
	})
}

// buildTokenInfoClient makes the client of Google's tokeninfo endpoint
// (GTMGATE_UPSTREAM_GOOGLE_OAUTH overrides it; the demo serves sandbox).
func (a *App) buildTokenInfoClient(sandbox *googleapi.TokenInfoSandbox) error {
	base := googleapi.TokenInfoBaseURL
	if sandbox != nil {
		url, err := a.startSandbox(gtmgate.ProviderSandbox{Provider: googleapi.TokenInfoProvider, Handler: sandbox})
		if err != nil {
			return err
		}
		a.noteDemoSandbox(googleapi.TokenInfoProvider, sandbox, url)
		base = url
	}
	if u, ok := a.cfg.Upstreams[googleapi.TokenInfoProvider]; ok {
		base = u
	}
	c, err := upstream.New(upstream.Options{Provider: googleapi.TokenInfoProvider, BaseURL: base, Timeout: a.cfg.UpstreamTimeout})
	if err != nil {
		return err
	}
	a.clients[googleapi.TokenInfoProvider] = c
	return nil
}

// scopeFacts are what each OAuth provider's tools need of a credential and
// how to learn what one holds.
func (a *App) scopeFacts() map[string]providercheck.ScopeFacts {
	out := map[string]providercheck.ScopeFacts{}
	for _, p := range providers() {
		if p.spec == nil {
			continue
		}
		f := providercheck.ScopeFacts{Spec: p.spec(), NotReported: p.scopesNote}
		c, read := a.clients[p.key], p.granted
		if p.googleScopes {
			c, read = a.clients[googleapi.TokenInfoProvider], googleapi.GrantedScopes
		}
		if read != nil {
			f.Granted = func(ctx context.Context, ts gtmgate.TokenSource) ([]string, error) { return read(ctx, c, ts) }
		}
		out[p.key] = f
	}
	return out
}
