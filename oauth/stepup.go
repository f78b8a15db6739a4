package oauth

import (
	"net/http"

	"github.com/gtmgate/gtmgate"
)

// RequireScope returns middleware for the MCP endpoint, to run after
// authentication (the principal is in the context) and before the MCP
// handler: an OAuth principal without tools:read or tools:write gets a 403
// insufficient_scope challenge for every request. Whether a tools/call also
// needs tools:write is decided by the tool runner, on the call the MCP SDK
// parsed; the MCP endpoint then answers with DenyScope. Tenant bearer tokens
// pass untouched.
func (s *Server) RequireScope(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := gtmgate.PrincipalFromContext(r.Context())
		if p != nil && p.Kind == gtmgate.PrincipalOAuth && !p.MayCall(false) {
			s.DenyScope(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// DenyScope answers 403 with an insufficient_scope challenge (step-up
// authorization): the client reauthorizes with the scopes named in it.
func (s *Server) DenyScope(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("WWW-Authenticate", s.InsufficientScopeChallenge())
	writeJSON(w, http.StatusForbidden, map[string]any{
		"error": map[string]string{
			"code": gtmgate.EForbidden, "message": "the access token lacks the scope this call needs",
			"hint": "reauthorize the client with scope tools:write",
		},
		"request_id": gtmgate.RequestIDFromContext(r.Context()),
	})
}
