// Package sso signs people in through OpenID Connect identity providers:
// authorization code with PKCE, state and nonce, the ID token verified
// against the IdP's published keys (coreos/go-oidc and x/oauth2), and the
// person's roles read from their grants.
package sso

import "strings"

// CallbackPath is where every IdP sends the person back after sign-in, on
// the gateway's public URL; the state says which IdP it was.
const CallbackPath = "/console/sso/callback"

// RedirectURI is the redirect URI to register at every IdP.
func RedirectURI(gatewayURL string) string {
	return strings.TrimSuffix(gatewayURL, "/") + CallbackPath
}
