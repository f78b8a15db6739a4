package metaads

import (
	"net/http"
	"slices"
)

// adsPermissions are the permissions the sandbox's token holds until
// GrantScopes changes them; the sandbox lists those of them not granted as
// declined, as Graph lists a permission the person declined.
var adsPermissions = []string{"ads_management", "ads_read"}

// GrantScopes sets the permissions GET /{version}/me/permissions reports
// as granted to SandboxToken (by default ads_read and ads_management). It
// does not restrict the Marketing API calls, which the sandbox serves to
// the token whatever it holds.
func (s *Sandbox) GrantScopes(scopes []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.granted = append([]string{}, scopes...)
}

// servePermissions answers GET /{version}/me/permissions. The endpoint is
// the User node's, not the Marketing API's the SDK facts describe, so it is
// served outside the spec's checks (behind the token and version checks,
// which Graph makes first).
func (s *Sandbox) servePermissions(w http.ResponseWriter, token string) {
	granted := s.grantedPermissions(token)
	data := []permission{}
	for _, p := range granted {
		data = append(data, permission{Permission: p, Status: "granted"})
	}
	for _, p := range adsPermissions {
		if !slices.Contains(granted, p) {
			data = append(data, permission{Permission: p, Status: "declined"})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": data})
}
