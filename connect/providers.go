// Package connect is the OAuth client side of connect links: the catalogue
// of the providers an account owner can connect (each a family of gtmgate
// provider keys sharing one grant), the least-privilege scopes to ask for,
// the authorization URL, the code exchange and the discovery of the
// accounts a grant reaches. It serves no HTTP routes; the connect flow
// calls it.
package connect

import (
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate/provider/apiversion"
	"github.com/gtmgate/gtmgate/provider/bigquery"
	"github.com/gtmgate/gtmgate/provider/ga4"
	"github.com/gtmgate/gtmgate/provider/gcalendar"
	"github.com/gtmgate/gtmgate/provider/gmail"
	"github.com/gtmgate/gtmgate/provider/googleads"
	"github.com/gtmgate/gtmgate/provider/googleapi"
	"github.com/gtmgate/gtmgate/provider/hubspot"
	"github.com/gtmgate/gtmgate/provider/linkedinads"
	"github.com/gtmgate/gtmgate/provider/metaads"
	"github.com/gtmgate/gtmgate/provider/searchconsole"
	"github.com/gtmgate/gtmgate/provider/sheets"
)

// Endpoint is one fixed provider URL: Base overridable by the upstream key
// Key (GTMGATE_UPSTREAM_<KEY>, config.Upstreams), then Path. "{version}" in
// Path is replaced by the API version of the provider's VersionKey.
type Endpoint struct {
	Key  string
	Base string
	Path string
}

// URL is the endpoint's address with bases' override of its key and version
// in place of "{version}".
func (e Endpoint) URL(bases map[string]string, version string) string {
	base := e.Base
	if b := bases[e.Key]; b != "" {
		base = b
	}
	return strings.TrimRight(base, "/") + strings.ReplaceAll(e.Path, "{version}", version)
}

// Provider is one connect provider: a family of gtmgate provider keys that
// one OAuth grant serves.
type Provider struct {
	// Name is the connect name ("google"), OAuthApp.Provider.
	Name string
	// Title is the provider's name for people.
	Title string
	// Covers are the gtmgate provider keys the grant serves.
	Covers []string
	// Authorize is the consent page; Token the code and refresh endpoint.
	Authorize Endpoint
	Token     Endpoint
	// VersionKey is the provider key whose catalogue API version fills
	// "{version}" in the endpoints' paths (Meta's Graph API version).
	VersionKey string
	// PKCE says the provider documents PKCE (S256) for this flow; connect
	// uses it wherever it does.
	PKCE bool
	// ScopeSeparator joins scopes in the authorization URL.
	ScopeSeparator string
	// RefreshTokens says the code exchange returns a refresh token; without
	// one the token lapses and the account needs a re-connect link.
	RefreshTokens bool
	// AppDocs is the provider's page on registering the OAuth app.
	AppDocs string
	// RedirectSetting is what the provider calls the redirect URI setting
	// of the app, where gtmgate's callback URL is pasted.
	RedirectSetting string
	// Notes are the provider's quirks, for the docs page and the console.
	Notes string
}

// Covering reports whether key is one of p's provider keys.
func (p Provider) Covering(key string) bool { return slices.Contains(p.Covers, key) }

// Connect names of the providers.
const (
	Google   = "google"
	HubSpot  = "hubspot"
	Meta     = "meta"
	LinkedIn = "linkedin"
)

// Upstream keys of the connect endpoints that are no adapter's API: the
// keys the sandboxes' authorization servers stand for under --demo.
const (
	// KeyGoogleAccounts is Google's consent page host.
	KeyGoogleAccounts = googleapi.AccountsProvider
	// KeyGoogleOpenID is Google's OpenID Connect userinfo host.
	KeyGoogleOpenID = googleapi.OpenIDProvider
	// KeyGoogleAnalyticsAdmin is the Google Analytics Admin API (GA4
	// property discovery), which the GA4 sandbox serves.
	KeyGoogleAnalyticsAdmin = "ga4_admin"
	// KeyHubSpotApp is HubSpot's consent page host.
	KeyHubSpotApp = hubspot.AppProvider
	// KeyMetaWeb is Facebook's web host, where the login dialog is.
	KeyMetaWeb = metaads.WebProvider
	// KeyLinkedInOAuth is LinkedIn's OAuth host (consent page and token).
	KeyLinkedInOAuth = linkedinads.OAuthProvider
)

// Default bases of the keys above.
const (
	googleAccountsBase = "https://accounts.google.com"
	googleOpenIDBase   = "https://openidconnect.googleapis.com"
	analyticsAdminBase = "https://analyticsadmin.googleapis.com"
	hubSpotAppBase     = "https://app.hubspot.com"
	metaWebBase        = "https://www.facebook.com"
	linkedInOAuthBase  = "https://www.linkedin.com"
)

// Providers returns the catalogue. The facts and their sources:
//
// Google: authorization_endpoint, token_endpoint, userinfo_endpoint and
// code_challenge_methods_supported ["plain","S256"] and
// token_endpoint_auth_methods_supported (client_secret_post) of Google's
// OpenID discovery document (https://accounts.google.com/.well-known/openid-configuration,
// developers.google.com/identity/openid-connect/openid-connect#discovery;
// as mirrored in panva/wellknown issuers/google/google.mjs at
// 5dfc0087c40a96d5ea12e69df04c09a89421a6c3);
// access_type=offline, prompt=consent and include_granted_scopes from
// "Using OAuth 2.0 for Web Server Applications"
// (developers.google.com/identity/protocols/oauth2/web-server); the
// endpoints match NangoHQ/nango packages/providers/providers.yaml at
// 2f4c0af671e2ca1c43dd4e78f3c369218bf3fc87 (google).
//
// HubSpot: authorize and token URLs as in nango's providers.yaml (hubspot,
// same commit) and HubSpot's OAuth docs; the token endpoint's form takes
// code_verifier (HubSpot/HubSpot-public-api-spec-collection,
// PublicApiSpecs/Auth/Oauth/Rollouts/155908/v1/oauth.json at
// 000ca44b4852a2a33857d28a8a7ccf37d4762ad7, POST /oauth/v1/token), so
// HubSpot takes PKCE. HubSpot also publishes a dated /oauth/2026-03/token;
// v1 is kept because the refresher and the sandbox speak it.
//
// Meta: www.facebook.com/{version}/dialog/oauth and
// graph.facebook.com/{version}/oauth/access_token ("Manually Build a Login
// Flow", developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow;
// nango facebook); the long-lived exchange (grant_type=fb_exchange_token,
// about 60 days, no refresh token) from "Long-Lived Access Tokens"
// (developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived).
// Meta documents PKCE only for its OIDC code flow, "still in testing"
// (developers.facebook.com/documentation/facebook-login/guides/advanced/oidc-token),
// so connect does not send it. Scopes are comma-separated.
//
// LinkedIn: /oauth/v2/authorization and /oauth/v2/accessToken
// ("Authorization Code Flow (3-legged OAuth)",
// learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow);
// no PKCE for web apps (nango linkedin: disable_pkce); refresh tokens only
// for apps LinkedIn has approved for programmatic refresh
// (learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens).
func Providers() []Provider {
	return []Provider{
		{
			Name: Google, Title: "Google",
			Covers: []string{googleads.Provider, ga4.Provider, searchconsole.Provider, gmail.Provider,
				gcalendar.Provider, bigquery.Provider, sheets.Provider},
			Authorize:      Endpoint{Key: KeyGoogleAccounts, Base: googleAccountsBase, Path: "/o/oauth2/v2/auth"},
			Token:          Endpoint{Key: googleapi.TokenInfoProvider, Base: googleapi.TokenInfoBaseURL, Path: "/token"},
			PKCE:           true,
			ScopeSeparator: " ", RefreshTokens: true,
			AppDocs:         "https://developers.google.com/identity/protocols/oauth2/web-server#creatingcred",
			RedirectSetting: "Authorized redirect URIs",
			Notes: "Google returns a refresh token on the first consent only: connect asks for consent again " +
				"(prompt=consent) only when no refresh token is held. The Google Ads API also needs the " +
				"deployment's developer token.",
		},
		{
			Name: HubSpot, Title: "HubSpot",
			Covers:         []string{hubspot.Provider},
			Authorize:      Endpoint{Key: KeyHubSpotApp, Base: hubSpotAppBase, Path: "/oauth/authorize"},
			Token:          Endpoint{Key: hubspot.Provider, Base: hubspot.DefaultBaseURL, Path: "/oauth/v1/token"},
			PKCE:           true,
			ScopeSeparator: " ", RefreshTokens: true,
			AppDocs:         "https://developers.hubspot.com/docs/guides/apps/public-apps/overview",
			RedirectSetting: "Redirect URL (Auth tab)",
			Notes:           "The scopes the app requests must be ticked in the app's Auth settings.",
		},
		{
			Name: Meta, Title: "Meta",
			Covers:         []string{metaads.Provider},
			Authorize:      Endpoint{Key: KeyMetaWeb, Base: metaWebBase, Path: "/{version}/dialog/oauth"},
			Token:          Endpoint{Key: metaads.Provider, Base: metaads.DefaultBaseURL, Path: "/{version}/oauth/access_token"},
			VersionKey:     metaads.Provider,
			ScopeSeparator: ",", RefreshTokens: false,
			AppDocs:         "https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow",
			RedirectSetting: "Valid OAuth Redirect URIs (Facebook Login settings)",
			Notes: "Meta issues no refresh token: the code's token is exchanged for a long-lived one " +
				"(about 60 days), and the account needs a re-connect link before it lapses.",
		},
		{
			Name: LinkedIn, Title: "LinkedIn",
			Covers:         []string{linkedinads.Provider},
			Authorize:      Endpoint{Key: KeyLinkedInOAuth, Base: linkedInOAuthBase, Path: "/oauth/v2/authorization"},
			Token:          Endpoint{Key: KeyLinkedInOAuth, Base: linkedInOAuthBase, Path: "/oauth/v2/accessToken"},
			ScopeSeparator: " ", RefreshTokens: true,
			AppDocs:         "https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow",
			RedirectSetting: "Authorized redirect URLs for your app (Auth tab)",
			Notes: "Refresh tokens come only to apps LinkedIn approved for programmatic refresh; " +
				"otherwise the 60-day token needs a re-connect link before it lapses.",
		},
	}
}

// Lookup returns the connect provider of that name.
func Lookup(name string) (Provider, bool) {
	for _, p := range Providers() {
		if p.Name == name {
			return p, true
		}
	}
	return Provider{}, false
}

// Family returns the connect provider whose grant serves provider key
// providerKey (google_ads → google).
func Family(providerKey string) (Provider, bool) {
	for _, p := range Providers() {
		if p.Covering(providerKey) {
			return p, true
		}
	}
	return Provider{}, false
}

// defaultVersion is the catalogue's default API version of a provider key.
func defaultVersion(key string) string {
	if p, ok := apiversion.Of(key); ok {
		return p.Default
	}
	return ""
}
