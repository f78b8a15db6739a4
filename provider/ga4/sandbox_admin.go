package ga4

import (
	"net/http"

	"github.com/gtmgate/gtmgate/provider/googleapi"
)

// AdminProvider is the upstream key of the Analytics Admin API
// (analyticsadmin.googleapis.com), which connect links use to list a
// grant's properties; the GA4 sandbox serves its accountSummaries.list.
const AdminProvider = "ga4_admin"

// AdminBaseURL is the real base of AdminProvider.
const AdminBaseURL = "https://analyticsadmin.googleapis.com"

// withAccountSummaries serves GET /v1beta/accountSummaries before next: the
// Analytics accounts and properties the token's user can read, the
// sandbox's two properties under one account
// (developers.google.com/analytics/devguides/config/admin/v1/rest/v1beta/accountSummaries/list:
// {"accountSummaries":[{"name","account","displayName","propertySummaries":
// [{"property","displayName","propertyType","parent"}]}]}). It is the Admin
// API's, not the Data API's the spec (apispec.json) describes, so it is
// served outside the spec's checks.
func (s *Sandbox) withAccountSummaries(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/v1beta/accountSummaries" {
			next.ServeHTTP(w, r)
			return
		}
		props := []map[string]string{}
		for _, p := range []struct{ id, name string }{{"412345678", "www.ledgerly.example"}, {"398765432", "docs.ledgerly.example"}} {
			if _, ok := s.properties[p.id]; ok {
				props = append(props, map[string]string{"property": "properties/" + p.id, "displayName": p.name,
					"propertyType": "PROPERTY_TYPE_ORDINARY", "parent": "accounts/287654321"})
			}
		}
		googleapi.WriteJSON(w, http.StatusOK, map[string]any{"accountSummaries": []map[string]any{{
			"name": "accountSummaries/287654321", "account": "accounts/287654321", "displayName": "Ledgerly",
			"propertySummaries": props}}})
	})
}
