package searchconsole

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSandboxSiteList(t *testing.T) {
	t.Parallel()
	s := NewSandboxAt(time.Now())
	r := httptest.NewRequest("GET", "/webmasters/v3/sites", nil)
	r.Header.Set("Authorization", "Bearer "+SandboxToken)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var out struct {
		SiteEntry []struct{ SiteURL, PermissionLevel string } `json:"siteEntry"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || w.Code != 200 || len(out.SiteEntry) != 2 ||
		out.SiteEntry[1].SiteURL != "sc-domain:ledgerly.example" {
		t.Errorf("sites.list: %d %s", w.Code, w.Body)
	}
	r.Header.Del("Authorization")
	w = httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 401 {
		t.Errorf("without a token: %d", w.Code)
	}
}
