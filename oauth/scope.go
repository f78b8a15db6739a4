package oauth

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// Scopes of gateway access tokens (see gtmgate.ScopeToolsRead).
const (
	ScopeRead  = gtmgate.ScopeToolsRead
	ScopeWrite = gtmgate.ScopeToolsWrite
)

// Scopes returns the supported scopes.
func Scopes() []string { return []string{ScopeRead, ScopeWrite} }

// Allows reports whether p may make a call, mutating or not (see
// gtmgate.Principal.MayCall).
func Allows(p *gtmgate.Principal, mutating bool) bool { return p.MayCall(mutating) }

// parseScope splits a scope parameter, refusing unknown scopes. An empty
// parameter yields def.
func parseScope(param string, def []string) ([]string, error) {
	fields := strings.Fields(param)
	if len(fields) == 0 {
		return slices.Clone(def), nil
	}
	var out []string
	for _, f := range fields {
		if !slices.Contains(Scopes(), f) {
			return nil, fmt.Errorf("unknown scope %q", f)
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out, nil
}

// subset reports whether every scope of want is in have.
func subset(want, have []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// Challenge returns the WWW-Authenticate value of a 401 from /mcp: where the
// protected resource metadata is and which scopes to ask for.
func (s *Server) Challenge() string {
	return fmt.Sprintf(`Bearer resource_metadata=%q, scope=%q`, s.ResourceMetadataURL(), strings.Join(Scopes(), " "))
}

// InsufficientScopeChallenge returns the WWW-Authenticate value of a 403
// asking the client to re-authorize with more scopes (step-up).
func (s *Server) InsufficientScopeChallenge() string {
	return fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`,
		strings.Join(Scopes(), " "), s.ResourceMetadataURL())
}

// scopeDescriptions are shown on the consent page.
var scopeDescriptions = map[string]string{
	ScopeRead:  "Read data through the tenant's tools (CRM records, reports, calendars, mail…)",
	ScopeWrite: "Make changes through the tenant's tools (update CRM, change ads, send email…), subject to approvals",
}
