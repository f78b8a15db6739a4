package searchconsole

import (
	"net/http"
	"slices"

	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// withSiteList serves GET /webmasters/v3/sites, sites.list, before next:
// the properties the token's user can reach, the sandbox's seeded ones
// (developers.google.com/webmaster-tools/v1/sites/list:
// {"siteEntry":[{"siteUrl","permissionLevel"}]}). The spec (apispec.json)
// transcribes searchAnalytics.query only; connect links use this one to
// discover a grant's sites.
func (s *Sandbox) withSiteList(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/webmasters/v3/sites" {
			next.ServeHTTP(w, r)
			return
		}
		urls := make([]string, 0, len(s.sites))
		for u := range s.sites {
			urls = append(urls, u)
		}
		slices.Sort(urls)
		entries := []map[string]string{}
		for _, u := range urls {
			entries = append(entries, map[string]string{"siteUrl": u, "permissionLevel": "siteOwner"})
		}
		googleapi.WriteJSON(w, http.StatusOK, map[string]any{"siteEntry": entries})
	})
}
