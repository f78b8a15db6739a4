package googleapi

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

// Upstream keys of Google's OAuth hosts besides TokenInfoProvider
// (oauth2.googleapis.com, which also serves the token endpoint): the
// consent page's host and the OpenID Connect userinfo host. The sandbox
// serves all three from TokenInfoSandbox.
const (
	AccountsProvider = "google_accounts"
	OpenIDProvider   = "google_openid"
)

// The real bases of those hosts.
const (
	AccountsBaseURL = "https://accounts.google.com"
	OpenIDBaseURL   = "https://openidconnect.googleapis.com"
)

// SandboxClientID is the OAuth client the sandbox's authorization server
// knows; its secret is generated per sandbox (OAuthClient).
const SandboxClientID = "gtmgate-demo-google"

// SandboxEmail is the Google account the sandbox's grants belong to: the
// demo's Gmail and Calendar owner.
const SandboxEmail = "alex@ledgerly.example"

// Google's OAuth 2.0 for web server applications, as the sandbox follows it
// (developers.google.com/identity/protocols/oauth2/web-server, read
// 2026-11; NangoHQ/nango packages/providers/providers.yaml at
// 2f4c0af671e2ca1c43dd4e78f3c369218bf3fc87 agrees on both URLs):
//   - GET https://accounts.google.com/o/oauth2/v2/auth with client_id,
//     redirect_uri, response_type=code, scope (space-separated), state,
//     access_type (online or offline), include_granted_scopes, prompt,
//     login_hint, code_challenge and code_challenge_method (the sandbox takes
//     S256 only; Google also takes plain); the redirect carries code and
//     state, a refusal error=access_denied and state;
//   - an unknown client, an unregistered redirect URI or a scope Google does
//     not know gets Google's error page, never a redirect: "Authorization
//     Error", "Error 400: redirect_uri_mismatch" with "You can't sign in to
//     this app because it doesn't comply with Google's OAuth 2.0 policy. If
//     you're the app developer, register the redirect URI in the Google Cloud
//     Console." (Google's own developers.google.cn/oauth2authorize page
//     shows it; sameerasw/tasks#2), and "Error 400: invalid_scope" with
//     "Some requested scopes were invalid. {valid=[…], invalid=[…]}"
//     (markbates/goth#445, atinux/nuxt-auth-utils#64); the redirect URI must
//     match a registered one exactly;
//   - POST https://oauth2.googleapis.com/token, a form with client_id,
//     client_secret (or HTTP Basic), code, code_verifier, grant_type,
//     redirect_uri; the answer {"access_token","expires_in":3599,
//     "refresh_token","scope","token_type":"Bearer"}, the refresh token only
//     when access_type=offline, and only on the first authorization unless
//     prompt=consent forces the consent screen again; include_granted_scopes=true
//     adds the scopes granted before; refreshing answers without a new
//     refresh token (Google does not rotate it);
//   - failures {"error":"invalid_grant","error_description":"Bad Request"}
//     (400), invalid_client with 401;
//   - the OpenID userinfo endpoint https://openidconnect.googleapis.com/v1/userinfo
//     answers sub, and email with email_verified when the grant has the
//     email scope (accounts.google.com/.well-known/openid-configuration).
const googleAccessTTL = 3599 * time.Second

// openIDScopes are the scopes of Google's OpenID Connect sign-in
// (accounts.google.com/.well-known/openid-configuration's scopes_supported,
// and the userinfo scopes Google takes email and profile for), which every
// Google client may ask for besides its APIs' scopes.
var openIDScopes = []string{"openid", "email", "profile",
	"https://www.googleapis.com/auth/userinfo.email", "https://www.googleapis.com/auth/userinfo.profile"}

func newGoogleAuth(secret string, apiScopes []string) *oauthsandbox.Server {
	u := &googleUser{}
	return oauthsandbox.New(oauthsandbox.Options{
		Name: "Google", ClientID: SandboxClientID, ClientSecret: secret, TokenPrefix: "ya29.sandbox-",
		KnownScopes: append(slices.Clone(openIDScopes), apiScopes...),
		AccessTTL:   googleAccessTTL, Refresh: u.issueRefresh, Scopes: u.grant,
		Denial: url.Values{"error": {"access_denied"}},
		RedirectMismatch: func(string) oauthsandbox.Refusal {
			return oauthsandbox.Refusal{Page: true, Title: "Authorization Error", Code: "redirect_uri_mismatch",
				Description: "You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. " +
					"If you're the app developer, register the redirect URI in the Google Cloud Console."}
		},
		InvalidScope: func(unknown, known []string) oauthsandbox.Refusal {
			return oauthsandbox.Refusal{Page: true, Title: "Authorization Error", Code: "invalid_scope",
				Description: "Some requested scopes were invalid. {valid=[" + strings.Join(known, ", ") + "], invalid=[" + strings.Join(unknown, ", ") + "]}"}
		},
	})
}

// googleUser is the sandbox's one Google account's standing grant to the
// demo client, which Google keeps between authorizations: a refresh token is
// issued on the first offline authorization and then only when the consent
// prompt is forced (prompt=consent), and include_granted_scopes=true adds
// the scopes granted before (incremental authorization).
type googleUser struct {
	mu      sync.Mutex
	offline bool     // an offline grant exists
	granted []string // every scope granted so far
}

func (u *googleUser) issueRefresh(p url.Values) bool {
	if p.Get("access_type") != "offline" {
		return false
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	first := !u.offline
	u.offline = true
	return first || slices.Contains(strings.Fields(p.Get("prompt")), "consent")
}

func (u *googleUser) grant(consented []string, p url.Values) []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, s := range consented {
		if !slices.Contains(u.granted, s) {
			u.granted = append(u.granted, s)
		}
	}
	if p.Get("include_granted_scopes") != "true" {
		return consented
	}
	return slices.Clone(u.granted)
}

// RegisterOAuthClient adds redirectURIs to the client's Authorized
// redirect URIs, as a developer does in the Google Cloud Console, and
// returns the client id and secret the sandbox's authorization server
// knows.
func (s *TokenInfoSandbox) RegisterOAuthClient(redirectURIs ...string) (id, secret string) {
	s.auth.Register(redirectURIs...)
	return SandboxClientID, s.clientSecret
}

// Issued reports whether token is an unexpired access token the
// authorization server issued, and its scopes.
func (s *TokenInfoSandbox) Issued(token string) ([]string, bool) {
	g, ok := s.auth.Lookup(token)
	return g.Scopes, ok
}

// Accepting returns h, a Google product sandbox that accepts only seeded,
// behind a front door that also lets through the access tokens this
// authorization server issued: one Google grant reaches every Google
// product, as a real one does. It presents such a token to h as seeded,
// so h's own checks (faults, spec) still run.
func (s *TokenInfoSandbox) Accepting(seeded string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && token != seeded {
			if _, issued := s.auth.Lookup(token); issued {
				r = r.Clone(r.Context())
				r.Header.Set("Authorization", "Bearer "+seeded)
			}
		}
		h.ServeHTTP(w, r)
	})
}

// serveAuthorize answers the consent page (GET /o/oauth2/v2/auth) and its form.
func (s *TokenInfoSandbox) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	if !s.auth.Consent(w, r) {
		WriteError(w, http.StatusMethodNotAllowed, "Method Not Allowed")
	}
}

// serveToken answers POST /token.
func (s *TokenInfoSandbox) serveToken(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		WriteError(w, http.StatusMethodNotAllowed, "Method Not Allowed")
		return
	}
	tr, e := oauthsandbox.ReadTokenRequest(w, r)
	var iss oauthsandbox.Issued
	if e == nil {
		iss, e = s.auth.Grant(tr)
		switch {
		case e != nil && e.Code == "unsupported_grant_type":
			e.Description = "Invalid grant_type: " + tr.GrantType
		case tr.GrantType == "refresh_token":
			iss.RefreshToken = "" // Google answers a refresh without one
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	if e != nil {
		status, desc := http.StatusBadRequest, "Bad Request"
		switch e.Code {
		case "invalid_client":
			status, desc = http.StatusUnauthorized, "Unauthorized"
		case "unsupported_grant_type", "invalid_request":
			desc = e.Description
		}
		WriteJSON(w, status, map[string]string{"error": e.Code, "error_description": desc})
		return
	}
	body := map[string]any{"access_token": iss.AccessToken, "expires_in": iss.ExpiresIn,
		"scope": strings.Join(iss.Grant.Scopes, " "), "token_type": "Bearer"}
	if iss.RefreshToken != "" {
		body["refresh_token"] = iss.RefreshToken
	}
	WriteJSON(w, http.StatusOK, body)
}

// serveUserinfo answers GET /v1/userinfo, OpenID Connect's userinfo.
func (s *TokenInfoSandbox) serveUserinfo(w http.ResponseWriter, r *http.Request) {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	g, ok := s.auth.Lookup(token)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_request", "error_description": "Invalid Credentials"})
		return
	}
	body := map[string]any{"sub": "104523187654321098765"}
	if slices.Contains(g.Scopes, "email") || slices.Contains(g.Scopes, "https://www.googleapis.com/auth/userinfo.email") {
		body["email"], body["email_verified"] = SandboxEmail, true
	}
	WriteJSON(w, http.StatusOK, body)
}

// issuedInfo is tokeninfo's answer for an issued token.
func (s *TokenInfoSandbox) issuedInfo(token string) (map[string]string, bool) {
	g, ok := s.auth.Lookup(token)
	if !ok {
		return nil, false
	}
	access := "online"
	if g.Params.Get("access_type") == "offline" {
		access = "offline"
	}
	info := map[string]string{"azp": g.ClientID, "aud": g.ClientID, "sub": "104523187654321098765",
		"scope": strings.Join(g.Scopes, " "), "expires_in": strconv.Itoa(max(0, int(time.Until(g.Expires)/time.Second))), "access_type": access}
	if slices.Contains(g.Scopes, "email") || slices.Contains(g.Scopes, "https://www.googleapis.com/auth/userinfo.email") {
		info["email"], info["email_verified"] = SandboxEmail, "true"
	}
	return info, true
}
