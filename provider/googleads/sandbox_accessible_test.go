package googleads

import (
	"net/http/httptest"
	"testing"
)

func TestSandboxListAccessibleCustomers(t *testing.T) {
	t.Parallel()
	s := NewSandbox().Handler
	r := httptest.NewRequest("GET", "/"+DefaultVersion()+"/customers:listAccessibleCustomers", nil)
	r.Header.Set("Authorization", "Bearer "+SandboxToken)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	want := `{"resourceNames":["customers/1234567890","customers/5550001111","customers/9876543210"]}` + "\n"
	if w.Code != 200 || w.Body.String() != want {
		t.Errorf("answered %d %s, want %s", w.Code, w.Body, want)
	}
}
