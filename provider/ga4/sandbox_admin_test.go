package ga4

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSandboxAccountSummaries(t *testing.T) {
	t.Parallel()
	s := NewSandboxAt(time.Now())
	r := httptest.NewRequest("GET", "/v1beta/accountSummaries?pageSize=200", nil)
	r.Header.Set("Authorization", "Bearer "+SandboxToken)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var out struct {
		AccountSummaries []struct {
			PropertySummaries []struct {
				Property string `json:"property"`
			} `json:"propertySummaries"`
		} `json:"accountSummaries"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || w.Code != 200 || len(out.AccountSummaries) != 1 ||
		len(out.AccountSummaries[0].PropertySummaries) != 2 || out.AccountSummaries[0].PropertySummaries[0].Property != "properties/412345678" {
		t.Errorf("accountSummaries: %d %s", w.Code, w.Body)
	}
}
