package bigquery

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

func TestSandboxProjectList(t *testing.T) {
	t.Parallel()
	s := NewSandbox()
	r := httptest.NewRequest("GET", "/bigquery/v2/projects", nil)
	r.Header.Set("Authorization", "Bearer "+SandboxToken)
	w := httptest.NewRecorder()
	s.Handler.ServeHTTP(w, r)
	var out struct {
		Projects []struct {
			ID  string `json:"id"`
			Ref struct {
				ProjectID string `json:"projectId"`
			} `json:"projectReference"`
		} `json:"projects"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || w.Code != 200 || len(out.Projects) != 2 ||
		out.Projects[0].Ref.ProjectID != SandboxProject {
		t.Errorf("projects.list: %d %s", w.Code, w.Body)
	}
}
