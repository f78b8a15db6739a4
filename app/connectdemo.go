package app

import (
	"net/http"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/oauthapps"
	"github.com/gtmgate/gtmgate/provider/ga4"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/linkedinads"
	"github.com/gtmgate/gtmgate/provider/metaads"
)

// connectHosts maps the upstream key of a sandbox that is also its
// provider family's authorization server to the family (the Provider of
// gtmgate.OAuthApp) and to the upstream keys of the provider's OAuth hosts
// that sandbox serves besides its own: under --demo one sandbox stands for
// every host of a family (the consent page's, the token endpoint's,
// userinfo's), each overridable on its own through GTMGATE_UPSTREAM_<KEY>.
var connectHosts = map[string]struct {
	family string
	hosts  []string
}{
	googleapi.TokenInfoProvider: {"google", []string{googleapi.AccountsProvider, googleapi.OpenIDProvider}},
	hubspot.Provider:            {"hubspot", []string{hubspot.AppProvider}},
	metaads.Provider:            {"meta", []string{metaads.WebProvider}},
	linkedinads.Provider:        {"linkedin", []string{linkedinads.OAuthProvider}},
}

// discoveryHosts maps the upstream key of a sandbox to the keys of the
// other API hosts it serves the discovery answers of: the GA4 sandbox
// answers the Analytics Admin API's accountSummaries.
var discoveryHosts = map[string][]string{ga4.Provider: {ga4.AdminProvider}}

// oauthClientSandbox is a sandbox that is also an authorization server
// with one registered client, whose redirect URIs the demo registers as a
// developer does in the provider's app settings.
type oauthClientSandbox interface {
	RegisterOAuthClient(redirectURIs ...string) (id, secret string)
}

// noteDemoSandbox records, under --demo, the base URL a connect flow uses
// for a started sandbox's upstream key (an override in config.Upstreams
// wins), and, when the sandbox is its family's authorization server, the
// base of each of the family's OAuth hosts and the demo OAuth app, with
// the gateway's connect callback registered as the app's redirect URI:
// the sandboxes refuse any other, as the providers do.
func (a *App) noteDemoSandbox(key string, h http.Handler, started string) {
	if a.connectBases == nil {
		a.connectBases, a.demoOAuthApps = map[string]string{}, map[string]gtmgate.OAuthApp{}
	}
	a.connectBases[key] = a.upstreamBase(key, started)
	for _, host := range discoveryHosts[key] {
		a.connectBases[host] = a.upstreamBase(host, started)
	}
	c, ok := connectHosts[key]
	as, isAuth := h.(oauthClientSandbox)
	if !ok || !isAuth {
		return
	}
	for _, host := range c.hosts {
		a.connectBases[host] = a.upstreamBase(host, started)
	}
	id, secret := as.RegisterOAuthClient(oauthapps.RedirectURI(a.cfg.GatewayURL))
	now := time.Now().UTC()
	a.demoOAuthApps[c.family] = gtmgate.OAuthApp{Provider: c.family, ClientID: id, ClientSecret: secret, CreatedAt: now, UpdatedAt: now}
}

// upstreamBase is config.Upstreams' base for key, else def.
func (a *App) upstreamBase(key, def string) string {
	if u, ok := a.cfg.Upstreams[key]; ok {
		return u
	}
	return def
}

// ConnectBases returns the base URLs, by upstream key, of the demo's
// sandboxes and of the OAuth hosts their authorization servers stand for
// (google_accounts, google_oauth, google_openid, hubspot_app, hubspot,
// meta_web, meta_ads, linkedin_oauth, ga4_admin, …); nil without --demo.
func (a *App) ConnectBases() map[string]string { return a.connectBases }

// DemoOAuthApps returns the OAuth app each sandbox authorization server
// knows, by connect provider ("google", "hubspot", "meta", "linkedin"),
// secrets included; nil without --demo.
func (a *App) DemoOAuthApps() map[string]gtmgate.OAuthApp { return a.demoOAuthApps }

// googleAPIScopes are the scopes of the Google products the gateway
// serves, each from its product's spec: what the demo's Google consent
// page takes besides OpenID Connect's.
func googleAPIScopes() []string {
	var out []string
	for _, p := range providers() {
		if p.googleScopes && p.spec != nil {
			out = append(out, p.spec().Scopes()...)
		}
	}
	return out
}
