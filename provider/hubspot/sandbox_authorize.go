package hubspot

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox"
)

// AppProvider is the upstream key of app.hubspot.com, the host of the
// install (consent) page; api.hubapi.com's key, Provider, serves the token
// endpoint. The sandbox serves both.
const AppProvider = "hubspot_app"

// AppBaseURL is the real base of AppProvider.
const AppBaseURL = "https://app.hubspot.com"

// SandboxClientID is the OAuth app the sandbox's authorization server
// knows; its secret is generated per sandbox (OAuthClient).
const SandboxClientID = "gtmgate-demo-hubspot"

// HubSpot's OAuth facts the authorization server follows
// (developers.hubspot.com/docs/api-reference/legacy/authentication/oauth-tokens/v1/guide
// and .../auth-oauth-v3/guide, read 2026-11; NangoHQ/nango
// packages/providers/providers.yaml at 2f4c0af671e2ca1c43dd4e78f3c369218bf3fc87
// agrees on both URLs):
//   - install URL https://app.hubspot.com/oauth/authorize?client_id&scope&redirect_uri&state,
//     scopes space-separated, optional_scope; the redirect carries code and state;
//   - POST https://api.hubapi.com/oauth/v1/token, a form with grant_type
//     (authorization_code or refresh_token), client_id, client_secret,
//     redirect_uri, code, code_verifier (PKCE): the credentials travel in the
//     body only;
//   - the answer {"token_type":"bearer","refresh_token","access_token","expires_in":1800};
//     access tokens live 30 minutes, the refresh token does not rotate;
//   - failures are HubSpot's own body with a status such as BAD_AUTH_CODE or
//     BAD_REFRESH_TOKEN and no "error" field.
//
// HubSpot does not document what a declined install sends back; the sandbox
// redirects with RFC 6749 §4.1.2.1's error=access_denied.
//
// The install page refuses, on a page of its own and with no redirect
// ("Couldn't complete the connection"), a redirect URL the app did not
// register ("Authorization failed as the redirect URL '…' doesn't match
// the app's registered redirect URL": HubSpot/oauth-quickstart-python#3,
// n8n-io/n8n#23581) and a scope it does not know ("An invalid scope name
// was provided. Please contact the app developer.":
// HubSpot/oauth-quickstart-nodejs#29; knowledge.hubspot.com's "Resolve a
// 'Request for Integration Permissions' error", read 2026-11, lists the
// scope errors of the install URL). The scopes it knows are those of the
// CRM spec's operations.
const hubspotAccessTTL = 30 * time.Minute

func newAuthServer(secret string) *oauthsandbox.Server {
	return oauthsandbox.New(oauthsandbox.Options{
		Name: "HubSpot", ClientID: SandboxClientID, ClientSecret: secret, TokenPrefix: "hs-sandbox-",
		KnownScopes: crmSpec().Scopes(), AccessTTL: hubspotAccessTTL, Refresh: func(url.Values) bool { return true },
		Denial: url.Values{"error": {"access_denied"}, "error_description": {"The user declined to install the app"}},
		RedirectMismatch: func(redirectURI string) oauthsandbox.Refusal {
			return oauthsandbox.Refusal{Page: true, Title: "Couldn't complete the connection",
				Description: "Authorization failed as the redirect URL '" + redirectURI + "' doesn't match the app's registered redirect URL"}
		},
		InvalidScope: func([]string, []string) oauthsandbox.Refusal {
			return oauthsandbox.Refusal{Page: true, Title: "Couldn't complete the connection",
				Description: "An invalid scope name was provided. Please contact the app developer."}
		},
	})
}

// RegisterOAuthClient adds redirectURIs to the app's redirect URLs, as a
// developer does in the app's Auth settings, and returns the client id
// and secret of the app the sandbox's authorization server knows.
func (s *Sandbox) RegisterOAuthClient(redirectURIs ...string) (id, secret string) {
	s.auth.Register(redirectURIs...)
	return SandboxClientID, s.clientSecret
}

// accepts reports whether token may call the CRM: the seeded SandboxToken
// or an unexpired token the authorization server issued.
func (s *Sandbox) accepts(token string) bool {
	if token == SandboxToken {
		return true
	}
	_, ok := s.auth.Lookup(token)
	return ok
}

// serveAuthorize answers the install page (GET /oauth/authorize, the path
// of app.hubspot.com) and its form (POST).
func (s *Sandbox) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	if !s.auth.Consent(w, r) {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// serveToken answers POST /oauth/v1/token.
func (s *Sandbox) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.writeError(w, http.StatusMethodNotAllowed, "BAD_REQUEST", "Method Not Allowed")
		return
	}
	tr, e := oauthsandbox.ReadTokenRequest(w, r)
	if e == nil && tr.Form.Get("client_secret") == "" {
		// HubSpot takes the credentials in the body only.
		e = &oauthsandbox.Error{Code: "invalid_client"}
	}
	var iss oauthsandbox.Issued
	if e == nil {
		iss, e = s.auth.Grant(tr)
	}
	if e != nil {
		status, message := hubspotOAuthError(e, tr.GrantType)
		w.Header().Set("Cache-Control", "no-store")
		s.writeJSON(w, http.StatusBadRequest, hsError{Status: status, Message: message, CorrelationID: s.correlationID()})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.writeJSON(w, http.StatusOK, map[string]any{"token_type": "bearer", "refresh_token": iss.RefreshToken,
		"access_token": iss.AccessToken, "expires_in": iss.ExpiresIn})
}

// hubspotOAuthError names an OAuth failure the way HubSpot's token endpoint does.
func hubspotOAuthError(e *oauthsandbox.Error, grant string) (status, message string) {
	switch {
	case e.Code == "invalid_client":
		return "BAD_CLIENT_ID", "missing or invalid client_id or client_secret"
	case e.Code == "unsupported_grant_type":
		return "BAD_GRANT_TYPE", "grant_type must be authorization_code or refresh_token"
	case grant == "refresh_token":
		return "BAD_REFRESH_TOKEN", "missing or unknown refresh token"
	case strings.Contains(e.Description, "redirect_uri"):
		return "BAD_REDIRECT_URI", "redirect_uri does not match the one used to get the code"
	case strings.Contains(e.Description, "code_verifier"):
		return "BAD_AUTH_CODE", "code_verifier does not match the code_challenge"
	default:
		return "BAD_AUTH_CODE", "missing or unknown auth code"
	}
}
