package bigquery

import (
	"encoding/json"
	"net/http"
)

// withProjectList serves GET /bigquery/v2/projects, projects.list, before
// next: the projects the token's user can reach, the sandbox's seeded ones
// (cloud.google.com/bigquery/docs/reference/rest/v2/projects/list:
// {"kind":"bigquery#projectList","projects":[{"id","numericId",
// "projectReference":{"projectId"},"friendlyName"}],"totalItems"}). The
// spec (apispec.json) transcribes the operations the tools call, not this
// one, which connect links use to discover a grant's projects.
func (s *Sandbox) withProjectList(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/bigquery/v2/projects" {
			next.ServeHTTP(w, r)
			return
		}
		projects := []map[string]any{}
		for i, a := range s.ProviderSandbox.Accounts {
			projects = append(projects, map[string]any{"kind": "bigquery#project", "id": a.ID,
				"numericId":        []string{"481516234200", "481516234201"}[i%2],
				"projectReference": map[string]string{"projectId": a.ID}, "friendlyName": a.Label})
		}
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		_ = json.NewEncoder(w).Encode(map[string]any{"kind": "bigquery#projectList", "etag": "c2FuZGJveA==",
			"projects": projects, "totalItems": len(projects)})
	})
}
