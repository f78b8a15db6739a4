package metaads

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox"
)

// WebProvider is the upstream key of www.facebook.com, the host of the
// login dialog; graph.facebook.com (Provider) serves the code exchange.
// The sandbox serves both.
const WebProvider = "meta_web"

// WebBaseURL is the real base of WebProvider.
const WebBaseURL = "https://www.facebook.com"

// SandboxClientID is the app id the sandbox's login dialog knows; its
// secret is generated per sandbox (OAuthClient).
const SandboxClientID = "gtmgate-demo-meta"

// Facebook Login's manual flow, as the sandbox follows it
// (developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
// and .../guides/access-tokens/get-long-lived, read 2026-11; NangoHQ/nango
// packages/providers/providers.yaml at 2f4c0af671e2ca1c43dd4e78f3c369218bf3fc87
// agrees on both URLs):
//   - GET https://www.facebook.com/{version}/dialog/oauth with client_id,
//     redirect_uri, state, scope (comma-separated), response_type (code
//     when left out); the redirect carries code and state; a person who
//     declines comes back with error_reason=user_denied, error=access_denied,
//     error_description=Permissions error and state;
//   - GET https://graph.facebook.com/{version}/oauth/access_token with
//     client_id, redirect_uri, client_secret, code answers
//     {"access_token","token_type":"bearer","expires_in"}: a short-lived
//     token (about two hours); with grant_type=fb_exchange_token and
//     fb_exchange_token it answers a long-lived one (about 60 days);
//     there is no refresh token;
//   - failures are Graph's error object, type OAuthException: a used code
//     code 100 subcode 36009, an expired one 36007, a mismatched
//     redirect_uri 36008, a wrong secret code 1 "Error validating client
//     secret.".
//
// The sandbox enforces a PKCE S256 challenge when one is sent.
//
// The dialog refuses with a page, never a redirect, a redirect URI not
// among the app's Valid OAuth Redirect URIs, matched exactly since strict
// mode became mandatory in 2018 ("URL blocked: This redirect failed
// because the redirect URI is not whitelisted in the app's Client OAuth
// Settings. …": www.janrain.com/blog/social-login-facebook-app-requires-strict-uri-matching,
// openillumi.com/en/en-fix-facebook-login-url-blocked-oauth-settings), and
// permissions it does not know ("Invalid Scopes: a, b. This message is only
// shown to developers. …": alixandru/q2a-open-login#83,
// thebergamo/react-native-fbsdk-next#388). Meta shows the latter to the
// app's developers only and drops the permissions for anyone else; the
// sandbox's person is the demo's operator, its app's developer. The
// permissions it knows are those of the Marketing API spec's operations.
const (
	metaShortTTL = 2 * time.Hour
	metaLongTTL  = 5183944 * time.Second
)

func newMetaAuth(secret string, now func() time.Time) *oauthsandbox.Server {
	return oauthsandbox.New(oauthsandbox.Options{
		Name: "Meta", ClientID: SandboxClientID, ClientSecret: secret, TokenPrefix: "EAAsandbox",
		KnownScopes: graphSpec.Scopes(), ScopeSeparator: ",", AccessTTL: metaShortTTL, Now: now,
		Denial: url.Values{"error_reason": {"user_denied"}, "error": {"access_denied"}, "error_description": {"Permissions error"}},
		RedirectMismatch: func(string) oauthsandbox.Refusal {
			return oauthsandbox.Refusal{Page: true, Title: "URL blocked",
				Description: "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings. " +
					"Make sure Client and Web OAuth Login are on and add all your app domains as Valid OAuth Redirect URIs."}
		},
		InvalidScope: func(unknown, _ []string) oauthsandbox.Refusal {
			return oauthsandbox.Refusal{Page: true, Title: "Error",
				Description: "Invalid Scopes: " + strings.Join(unknown, ", ") + ". This message is only shown to developers. " +
					"Users of your app will ignore these permissions if present. Please read the documentation for valid permissions at: " +
					"https://developers.facebook.com/docs/facebook-login/permissions"}
		},
	})
}

// RegisterOAuthClient adds redirectURIs to the app's Valid OAuth Redirect
// URIs, as a developer does in Facebook Login's settings, and returns the
// app id and secret the sandbox's login dialog knows.
func (s *Sandbox) RegisterOAuthClient(redirectURIs ...string) (id, secret string) {
	s.auth.Register(redirectURIs...)
	return SandboxClientID, s.clientSecret
}

// accepts reports whether token may call the Marketing API.
func (s *Sandbox) accepts(token string) bool {
	if token == SandboxToken {
		return true
	}
	_, ok := s.auth.Lookup(token)
	return ok
}

// serveLogin answers the login dialog and the code exchange, which Graph
// serves before any token check; ok is false for any other path.
func (s *Sandbox) serveLogin(w http.ResponseWriter, r *http.Request) (ok bool) {
	rest := strings.TrimPrefix(r.URL.Path, "/")
	if version, after, cut := strings.Cut(rest, "/"); cut && graphVersion.MatchString(version) {
		rest = after
	}
	switch rest {
	case "dialog/oauth":
		s.serveDialog(w, r)
	case "oauth/access_token":
		s.serveAccessToken(w, r)
	default:
		return false
	}
	return true
}

func (s *Sandbox) serveDialog(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		if r.URL.Query().Get("response_type") == "" {
			q := r.URL.Query()
			q.Set("response_type", "code") // Meta's default
			r = r.Clone(r.Context())
			r.URL.RawQuery = q.Encode()
		}
		s.auth.Authorize(w, r)
	case http.MethodPost:
		s.auth.Decide(w, r)
	default:
		writeGraphError(w, http.StatusBadRequest, 100, "Unsupported request method")
	}
}

func (s *Sandbox) serveAccessToken(w http.ResponseWriter, r *http.Request) {
	tr, e := oauthsandbox.ReadTokenRequest(w, r)
	var iss oauthsandbox.Issued
	if e == nil {
		switch tr.GrantType {
		case "", "authorization_code":
			iss, e = s.auth.ExchangeCode(tr)
		case "fb_exchange_token":
			iss, e = s.auth.Extend(tr, tr.Form.Get("fb_exchange_token"), metaLongTTL)
		default:
			e = &oauthsandbox.Error{Code: "unsupported_grant_type"}
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	if e != nil {
		writeOAuthError(w, e, tr.GrantType)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": iss.AccessToken, "token_type": "bearer", "expires_in": iss.ExpiresIn})
}

// writeOAuthError answers a failed token request with Graph's error object.
func writeOAuthError(w http.ResponseWriter, e *oauthsandbox.Error, grant string) {
	code, sub, msg := 100, 0, "Invalid verification code format."
	switch {
	case e.Code == "invalid_client":
		code, msg = 1, "Error validating client secret."
	case e.Code == "unsupported_grant_type":
		msg = "Unsupported grant_type"
	case grant == "fb_exchange_token":
		code, sub, msg = 190, 0, "Invalid OAuth access token - Cannot parse access token"
	case strings.Contains(e.Description, "already used"):
		sub, msg = 36009, "This authorization code has been used."
	case strings.Contains(e.Description, "expired"):
		sub, msg = 36007, "This authorization code has expired."
	case strings.Contains(e.Description, "redirect_uri"):
		sub, msg = 36008, "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request"
	case strings.Contains(e.Description, "code_verifier"):
		msg = "Invalid code verifier."
	}
	body := map[string]any{"message": msg, "type": "OAuthException", "code": code, "fbtrace_id": "AsbXoauth0q"}
	if sub != 0 {
		body["error_subcode"] = sub
	}
	writeJSON(w, http.StatusBadRequest, map[string]any{"error": body})
}

// grantedPermissions is what /me/permissions reports for token.
func (s *Sandbox) grantedPermissions(token string) []string {
	if g, ok := s.auth.Lookup(token); ok {
		return slices.Clone(g.Scopes)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.granted == nil {
		return slices.Clone(adsPermissions)
	}
	return slices.Clone(s.granted)
}

// serveAdAccounts answers GET /{version}/me/adaccounts, the ad accounts the
// token's person can reach (the User node's edge, outside the Marketing
// API's spec): the sandbox's seeded accounts, with the fields asked for
// (id always).
func (s *Sandbox) serveAdAccounts(w http.ResponseWriter, r *http.Request) {
	fields := r.URL.Query().Get("fields")
	s.mu.Lock()
	ids := make([]string, 0, len(s.accounts))
	for id := range s.accounts {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	data := []map[string]any{}
	for _, id := range ids {
		a := s.accounts[id]
		data = append(data, pick(map[string]any{"id": "act_" + a.ID, "account_id": a.ID, "name": a.Name,
			"currency": a.Currency, "account_status": 1}, fields, "id"))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"data": data,
		"paging": map[string]any{"cursors": map[string]string{"before": "QVFIUmFjdDAZD", "after": "QVFIUmFjdDEZD"}}})
}
