package linkedinads

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox"
)

// OAuthProvider is the upstream key of www.linkedin.com's OAuth endpoints
// (/oauth/v2/authorization, /oauth/v2/accessToken); the sandbox serves them.
const OAuthProvider = "linkedin_oauth"

// OAuthBaseURL is the real base of OAuthProvider.
const OAuthBaseURL = "https://www.linkedin.com"

// SandboxClientID is the client the sandbox's authorization server knows;
// its secret is generated per sandbox (OAuthClient). The sandbox app has
// programmatic refresh tokens, as approved Marketing Developer Platform
// apps do.
const SandboxClientID = "gtmgate-demo-linkedin"

// LinkedIn's 3-legged OAuth, as the sandbox follows it
// (learn.microsoft.com/linkedin/shared/authentication/authorization-code-flow
// and .../programmatic-refresh-tokens, read 2026-11; NangoHQ/nango
// packages/providers/providers.yaml at 2f4c0af671e2ca1c43dd4e78f3c369218bf3fc87
// agrees on both URLs):
//   - GET https://www.linkedin.com/oauth/v2/authorization with
//     response_type=code, client_id, redirect_uri, state, scope (URL-encoded,
//     space-delimited); the redirect carries code and state; a member who
//     cancels comes back with error=user_cancelled_authorize,
//     error_description=The user cancelled the authorization and state;
//   - POST https://www.linkedin.com/oauth/v2/accessToken, a form with
//     grant_type, code, client_id, client_secret, redirect_uri (the
//     credentials in the body); the answer {"access_token","expires_in":5184000
//     (60 days),"refresh_token","refresh_token_expires_in":31536000,"scope"};
//   - refreshing (grant_type=refresh_token) gives a new 60-day access token
//     and the same refresh token, whose lifetime still counts from the first
//     consent;
//   - a bad, used or expired code answers 400 {"error":"invalid_request",
//     "error_description":"Unable to retrieve access token: appid/redirect
//     uri/code verifier does not match authorization code. Or authorization
//     code expired. Or external member binding exists"}; wrong client
//     credentials 401 invalid_client. What LinkedIn answers an unknown
//     refresh token is not documented: the sandbox answers RFC 6749's
//     invalid_grant.
//
// LinkedIn documents PKCE for native clients only (Nango's entry sets
// disable_pkce): the sandbox checks a challenge only when one is sent.
//
// A redirect_uri not among the app's Authorized redirect URLs gets
// LinkedIn's error page ("Bummer, something went wrong. The redirect_uri
// does not match the registered value":
// aspnet-contrib/AspNet.Security.OAuth.Providers#648, mbilling/PBIConnectors#25),
// never a redirect. A scope the app is not authorized for comes back on
// the registered redirect as error=unauthorized_scope_error and
// error_description=Scope &quot;x&quot; is not authorized for your
// application, the quotes HTML-escaped as LinkedIn sends them
// (mbilling/PBIConnectors#25 in 2020, tigillo/linkedin-cli#3 in 2021,
// cuongdevjs/reactjs-social-login#178 in 2024; until about 2017 it was
// RFC 6749's error=invalid_scope, "Your application has not been
// authorized for the scope …": MrSwitch/hello.js#246). The scopes the
// sandbox's app is authorized for are those of the Marketing API spec's
// operations.
const (
	linkedinAccessTTL  = 60 * 24 * time.Hour
	linkedinRefreshTTL = 365 * 24 * time.Hour
)

// linkedinAuth is the authorization server and when each refresh token was
// first issued.
type linkedinAuth struct {
	*oauthsandbox.Server
	secret string

	mu      sync.Mutex
	refresh map[string]time.Time
}

func newLinkedInAuth() *linkedinAuth {
	secret := oauthsandbox.NewSecret()
	return &linkedinAuth{secret: secret, refresh: map[string]time.Time{}, Server: oauthsandbox.New(oauthsandbox.Options{
		Name: "LinkedIn", ClientID: SandboxClientID, ClientSecret: secret, TokenPrefix: "AQsandbox",
		KnownScopes: liSpec().Scopes(), AccessTTL: linkedinAccessTTL, Refresh: func(url.Values) bool { return true },
		Denial: url.Values{"error": {"user_cancelled_authorize"}, "error_description": {"The user cancelled the authorization"}},
		RedirectMismatch: func(string) oauthsandbox.Refusal {
			return oauthsandbox.Refusal{Page: true, Title: "Bummer, something went wrong.",
				Description: "The redirect_uri does not match the registered value"}
		},
		InvalidScope: func(unknown, _ []string) oauthsandbox.Refusal {
			// LinkedIn names one scope.
			return oauthsandbox.Refusal{Code: "unauthorized_scope_error",
				Description: "Scope &quot;" + unknown[0] + "&quot; is not authorized for your application"}
		},
	})}
}

// RegisterOAuthClient adds redirectURIs to the app's Authorized redirect
// URLs, as a developer does in the app's Auth settings, and returns the
// client id and secret the sandbox's authorization server knows.
func (s *Sandbox) RegisterOAuthClient(redirectURIs ...string) (id, secret string) {
	s.auth.Register(redirectURIs...)
	return SandboxClientID, s.auth.secret
}

// accepts reports whether token may call the Marketing API.
func (s *Sandbox) accepts(token string) bool {
	if token == SandboxToken {
		return true
	}
	_, ok := s.auth.Lookup(token)
	return ok
}

// serveOAuth answers /oauth/v2/authorization and /oauth/v2/accessToken;
// ok is false for any other path.
func (s *Sandbox) serveOAuth(w http.ResponseWriter, r *http.Request) (ok bool) {
	switch {
	case r.URL.Path == "/oauth/v2/authorization" && (r.Method == http.MethodGet || r.Method == http.MethodPost):
		s.auth.Consent(w, r)
	case r.URL.Path == "/oauth/v2/accessToken" && r.Method == http.MethodPost:
		s.serveAccessToken(w, r)
	default:
		return false
	}
	return true
}

func (s *Sandbox) serveAccessToken(w http.ResponseWriter, r *http.Request) {
	tr, e := oauthsandbox.ReadTokenRequest(w, r)
	if e == nil && tr.Form.Get("client_secret") == "" {
		e = &oauthsandbox.Error{Code: "invalid_client"} // LinkedIn takes the credentials in the body
	}
	var iss oauthsandbox.Issued
	if e == nil {
		if iss, e = s.auth.Grant(tr); e != nil && e.Code == "unsupported_grant_type" {
			e.Description = "A valid grant_type is required"
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	if e != nil {
		status, body := http.StatusBadRequest, map[string]string{"error": e.Code, "error_description": e.Description}
		switch {
		case e.Code == "invalid_client":
			status, body["error_description"] = http.StatusUnauthorized, "Client authentication failed"
		case tr.GrantType == "authorization_code" && e.Code == "invalid_grant":
			body["error"] = "invalid_request"
			body["error_description"] = "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists"
		case e.Code == "invalid_grant":
			body["error_description"] = "The provided refresh token is invalid"
		}
		writeJSON(w, status, body)
		return
	}
	now := time.Now()
	s.auth.mu.Lock()
	first, seen := s.auth.refresh[iss.RefreshToken]
	if !seen {
		first = now
		s.auth.refresh[iss.RefreshToken] = now
	}
	s.auth.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"access_token": iss.AccessToken, "expires_in": iss.ExpiresIn,
		"refresh_token": iss.RefreshToken, "refresh_token_expires_in": int((linkedinRefreshTTL - now.Sub(first)) / time.Second),
		"scope": strings.Join(iss.Grant.Scopes, ",")})
}

// serveAdAccountSearch answers GET /rest/adAccounts?q=search: the ad
// accounts the token's member can reach, the sandbox's seeded ones
// (Rest.li's collection shape; the search criteria are not applied).
func (s *Sandbox) serveAdAccountSearch(w http.ResponseWriter) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.accounts))
	for id := range s.accounts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	elements := []map[string]any{}
	for _, id := range ids {
		a := s.accounts[id]
		n, _ := strconv.ParseInt(a.ID, 10, 64)
		elements = append(elements, map[string]any{"id": n, "name": a.Name, "currency": a.Currency, "status": "ACTIVE",
			"type": "BUSINESS", "test": false, "reference": "urn:li:organization:2414183"})
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"elements": elements, "paging": map[string]any{"count": len(elements), "start": 0, "links": []any{}},
		"metadata": map[string]any{}})
}
