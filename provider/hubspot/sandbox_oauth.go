package hubspot

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// sandboxScopes are the scopes the sandbox's token holds until GrantScopes
// changes them: reading and writing contacts, companies and deals and
// reading their schemas, the natural grant for the tools, which admits every
// operation of Spec (notes and tasks take the contacts scopes).
var sandboxScopes = []string{
	"crm.objects.companies.read", "crm.objects.companies.write",
	"crm.objects.contacts.read", "crm.objects.contacts.write",
	"crm.objects.deals.read", "crm.objects.deals.write",
	"crm.schemas.companies.read", "crm.schemas.contacts.read", "crm.schemas.deals.read",
}

// GrantScopes sets the scopes HubSpot's access token information reports
// for SandboxToken (by default crm.objects.{contacts,companies,deals}.{read,write}
// and crm.schemas.{contacts,companies,deals}.read); it does not restrict the CRM
// endpoints, which the sandbox serves to the token whatever it holds.
func (s *Sandbox) GrantScopes(scopes []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scopes = append([]string{}, scopes...)
}

// serveOAuth answers HubSpot's OAuth API rather than the CRM's: the
// install page (/oauth/authorize, app.hubspot.com's path), the token
// endpoint (POST /oauth/v1/token) and access token information (GET
// /oauth/v1/access-tokens/{token}). apispec.json describes the CRM only,
// so these are served outside the spec's checks. Like HubSpot's, token
// information takes no Authorization header; the token is in the path. A
// token the sandbox did not issue gets the 401 HubSpot gives a credential
// it does not know.
func (s *Sandbox) serveOAuth(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/oauth/authorize":
		s.serveAuthorize(w, r)
		return
	case "/oauth/v1/token":
		s.serveToken(w, r)
		return
	}
	token, ok := strings.CutPrefix(r.URL.Path, accessTokenPath)
	if r.Method != http.MethodGet || !ok || strings.Contains(token, "/") {
		s.writeError(w, http.StatusNotFound, "OBJECT_NOT_FOUND", "No route for "+r.Method+" "+r.URL.Path)
		return
	}
	var scopes []string
	expiresIn := 1800
	if g, issued := s.auth.Lookup(token); issued {
		scopes, expiresIn = slices.Clone(g.Scopes), max(0, int(time.Until(g.Expires)/time.Second))
	} else if token == SandboxToken {
		s.mu.Lock()
		scopes = slices.Clone(s.scopes)
		s.mu.Unlock()
		if scopes == nil {
			scopes = slices.Clone(sandboxScopes)
		}
	} else {
		s.writeError(w, http.StatusUnauthorized, "INVALID_AUTHENTICATION",
			"Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview")
		return
	}
	s.writeJSON(w, http.StatusOK, map[string]any{
		"token": token, "user": "demo@northwind-cloud.example", "hub_domain": "northwind-cloud.example",
		"hub_id": SandboxHubID, "user_id": 71001, "app_id": 4242001, "scopes": scopes,
		"token_type": "access", "expires_in": expiresIn,
	})
}

// SandboxHubID is the demo portal's hub id (the account "portal-24681357").
const SandboxHubID = 24681357
