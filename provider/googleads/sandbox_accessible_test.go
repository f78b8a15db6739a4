package googleads

import (
	"net/http/httptest"
	"strings"
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

func TestSandboxCustomerClients(t *testing.T) {
	t.Parallel()
	s := NewSandbox().Handler
	query := `{"query":"SELECT customer_client.id, customer_client.descriptive_name, customer_client.manager, customer_client.level FROM customer_client WHERE customer_client.level <= 1 AND customer_client.status = 'ENABLED'"}`
	for _, tt := range []struct{ id, want string }{
		{"5550001111", `"level":"1"`},
		{"1234567890", `"id":"1234567890"`},
	} {
		r := httptest.NewRequest("POST", "/"+DefaultVersion()+"/customers/"+tt.id+"/googleAds:search", strings.NewReader(query))
		r.Header.Set("Authorization", "Bearer "+SandboxToken)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("developer-token", "dev")
		r.Header.Set("login-customer-id", tt.id)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != 200 || !strings.Contains(w.Body.String(), tt.want) {
			t.Errorf("customer_client of %s: %d %s", tt.id, w.Code, w.Body)
		}
		if tt.id == "5550001111" && !strings.Contains(w.Body.String(), `"id":"4440002222"`) {
			t.Errorf("manager's client missing: %s", w.Body)
		}
	}
}
