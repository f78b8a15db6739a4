package googleads

import (
	"net/http"
	"slices"
)

// serveAccessibleCustomers answers GET /{version}/customers:listAccessibleCustomers,
// the customers the token's user can call directly, managers included
// (developers.google.com/google-ads/api/reference/rpc/latest/CustomerService:
// {"resourceNames": ["customers/…"]}); a client reached only through a
// manager is not listed, as Google leaves it out. The spec (apispec.json)
// transcribes search and mutate only, so this is served outside its checks.
func (s *Sandbox) serveAccessibleCustomers(w http.ResponseWriter) {
	s.mu.Lock()
	names := make([]string, 0, len(s.direct))
	for id, ok := range s.direct {
		if ok {
			names = append(names, "customers/"+id)
		}
	}
	s.mu.Unlock()
	slices.Sort(names)
	sbReply{w: w}.json(http.StatusOK, map[string]any{"resourceNames": names})
}
