package googleapi

import (
	"net/http"
	"strings"
	"sync"

	"github.com/gtmgate/gtmgate/provider/oauthsandbox"
)

// TokenInfoSandbox is an in-process Google tokeninfo endpoint: GET
// /tokeninfo?access_token=… answers a granted token with its scopes, as
// Google does ({"scope": "a b", "aud": …, "expires_in": "3599", …}), and
// any other token with Google's 400 {"error": "invalid_token",
// "error_description": "Invalid Value"}. It is also Google's sandbox
// authorization server (authorize_sandbox.go): the consent page at
// /o/oauth2/v2/auth (accounts.google.com's path), POST /token and OpenID's
// GET /v1/userinfo; tokeninfo reports the tokens it issues. It is safe for
// concurrent use.
type TokenInfoSandbox struct {
	mu     sync.Mutex
	grants map[string][]string

	auth         *oauthsandbox.Server
	clientSecret string
}

// NewTokenInfoSandbox returns a tokeninfo sandbox that knows no token.
// apiScopes are the scopes of the Google APIs its grants reach (each
// product's spec's), which its consent page takes besides OpenID
// Connect's: this package knows no product's scopes.
func NewTokenInfoSandbox(apiScopes ...string) *TokenInfoSandbox {
	secret := oauthsandbox.NewSecret()
	return &TokenInfoSandbox{grants: map[string][]string{}, auth: newGoogleAuth(secret, apiScopes), clientSecret: secret}
}

// Grant makes token valid with scopes; granting a token again replaces its scopes.
func (s *TokenInfoSandbox) Grant(token string, scopes []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.grants[token] = append([]string{}, scopes...)
}

// sandboxClientID is the OAuth client the sandbox's tokens were issued to.
const sandboxClientID = "1234567890-gtmgate-sandbox.apps.googleusercontent.com"

// ServeHTTP answers GET /tokeninfo.
func (s *TokenInfoSandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/o/oauth2/v2/auth":
		s.serveAuthorize(w, r)
		return
	case "/token":
		s.serveToken(w, r)
		return
	case "/v1/userinfo":
		s.serveUserinfo(w, r)
		return
	}
	if r.URL.Path != "/tokeninfo" {
		WriteError(w, http.StatusNotFound, "The requested URL "+r.URL.Path+" was not found on this server.")
		return
	}
	if r.Method != http.MethodGet {
		WriteError(w, http.StatusMethodNotAllowed, "Method Not Allowed")
		return
	}
	token := r.URL.Query().Get("access_token")
	if info, ok := s.issuedInfo(token); ok {
		WriteJSON(w, http.StatusOK, info)
		return
	}
	s.mu.Lock()
	scopes, ok := s.grants[token]
	s.mu.Unlock()
	if !ok {
		WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_token", "error_description": "Invalid Value"})
		return
	}
	// Google sends the numbers of this body as strings.
	WriteJSON(w, http.StatusOK, map[string]string{"azp": sandboxClientID, "aud": sandboxClientID,
		"scope": strings.Join(scopes, " "), "expires_in": "3599", "access_type": "offline"})
}
