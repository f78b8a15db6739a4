package hubspot

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// call sends one request straight to a sandbox handler.
func call(t *testing.T, s *Sandbox, method, path, body string, header map[string]string) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	var r *http.Request
	if body != "" {
		r = httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
	} else {
		r = httptest.NewRequest(method, path, nil)
	}
	r.Header.Set("Authorization", "Bearer "+SandboxToken)
	for k, v := range header {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	var out map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &out)
	return w, out
}

// searchBody is a search request body with every field HubSpot's spec
// requires, fields given in body (a JSON object) replacing the defaults.
func searchBody(t *testing.T, body string) string {
	t.Helper()
	req := map[string]any{"filterGroups": []any{}, "sorts": []any{}, "properties": []string{"email"}, "limit": 10, "after": "0"}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatalf("search body %s: %v", body, err)
	}
	b, _ := json.Marshal(req)
	return string(b)
}

func TestSandboxHTTP(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	tests := []struct {
		name, method, path, body string
		header                   map[string]string
		status                   int
		category                 string
		// violates is what the spec check records for a request the spec
		// does not allow, which the enforcer refuses before the sandbox.
		violates string
	}{
		{"no credentials", "GET", "/crm/v3/objects/contacts", "", map[string]string{"Authorization": ""}, 401, "INVALID_AUTHENTICATION", ""},
		{"wrong token", "GET", "/crm/v3/objects/contacts", "", map[string]string{"Authorization": "Bearer nope"}, 401, "INVALID_AUTHENTICATION", ""},
		{"unknown object type", "GET", "/crm/v3/objects/widgets", "", nil, 400, "VALIDATION_ERROR", ""},
		{"unknown route", "GET", "/crm/v3/nothing/here/at/all", "", nil, 404, "OBJECT_NOT_FOUND", "no operation of the HubSpot CRM API serves GET"},
		{"unknown route, unchecked version", "GET", "/crm/v5/objects/contacts", "", nil, 404, "OBJECT_NOT_FOUND", ""},
		{"unknown id", "GET", "/crm/v3/objects/deals/42", "", nil, 404, "OBJECT_NOT_FOUND", ""},
		{"limit above 100", "GET", "/crm/v3/objects/contacts?limit=101", "", nil, 400, "VALIDATION_ERROR", ""},
		{"limit not a number", "GET", "/crm/objects/2026-03/contacts?limit=ten", "", nil, 400, "VALIDATION_ERROR", `query parameter "limit": "ten" is not an integer`},
		{"unknown query parameter", "GET", "/crm/objects/2026-03/contacts?archive=true", "", nil, 400, "VALIDATION_ERROR", `query parameter "archive": unknown`},
		{"malformed JSON", "POST", "/crm/v3/objects/contacts/search", "{", nil, 400, "VALIDATION_ERROR", "body: not JSON"},
		{"search without the required fields", "POST", "/crm/objects/2026-03/contacts/search", `{"query": "anika"}`, nil, 400, "VALIDATION_ERROR", "after: required field missing"},
		{"search limit above 200", "POST", "/crm/v3/objects/contacts/search", searchBody(t, `{"limit": 201}`), nil, 400, "VALIDATION_ERROR", ""},
		{"two sorts", "POST", "/crm/v3/objects/contacts/search", searchBody(t, `{"sorts": [{"propertyName": "email", "direction": "ASCENDING"}, {"propertyName": "lastname", "direction": "ASCENDING"}]}`), nil, 400, "VALIDATION_ERROR", ""},
		{"between without high", "POST", "/crm/v3/objects/deals/search", searchBody(t, `{"filterGroups": [{"filters": [{"propertyName": "amount", "operator": "BETWEEN", "value": "1"}]}]}`), nil, 400, "VALIDATION_ERROR", ""},
		{"too many groups", "POST", "/crm/v3/objects/deals/search", searchBody(t, `{"filterGroups": [{"filters": []}, {"filters": []}, {"filters": []}, {"filters": []}, {"filters": []}, {"filters": []}]}`), nil, 400, "VALIDATION_ERROR", ""},
		{"unknown pipeline type", "GET", "/crm/v3/pipelines/contacts", "", nil, 400, "VALIDATION_ERROR", ""},
		{"header fault 500", "GET", "/crm/v3/objects/contacts", "", map[string]string{"X-Sandbox-Fault": "500"}, 500, "INTERNAL_ERROR", ""},
		{"header fault 429", "GET", "/crm/v3/objects/contacts", "", map[string]string{"X-Sandbox-Fault": "429"}, 429, "RATE_LIMITS", ""},
	}
	// After the parallel cases: each refused request left its violation.
	t.Cleanup(func() {
		got := strings.Join(s.Spec.TakeViolations(), "\n")
		for _, tt := range tests {
			if tt.violates != "" && !strings.Contains(got, tt.violates) {
				t.Errorf("%s: no violation %q in\n%s", tt.name, tt.violates, got)
			}
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, body := call(t, s, tt.method, tt.path, tt.body, tt.header)
			if w.Code != tt.status || body["category"] != tt.category || body["status"] != "error" || body["correlationId"] == "" || body["message"] == "" {
				t.Fatalf("%d %s, want %d with category %s", w.Code, w.Body, tt.status, tt.category)
			}
		})
	}
}

func TestSandboxOnceFault(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	h := map[string]string{"X-Sandbox-Fault": "429-once"}
	w, body := call(t, s, "GET", "/crm/v3/objects/companies", "", h)
	if w.Code != 429 || w.Header().Get("Retry-After") != "1" || body["policyName"] == nil {
		t.Fatalf("first: %d %s", w.Code, w.Body)
	}
	if w, _ = call(t, s, "GET", "/crm/v3/objects/companies", "", h); w.Code != 200 {
		t.Fatalf("second: %d %s", w.Code, w.Body)
	}
	if w, _ = call(t, s, "GET", "/crm/v3/objects/deals", "", h); w.Code != 429 {
		t.Fatalf("other path: %d, want its own first failure", w.Code)
	}
}

func TestSandboxSearchSemantics(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	tests := []struct {
		name, body string
		want       int
	}{
		{"groups are ORed", `{"filterGroups": [{"filters": [{"propertyName": "lastname", "operator": "EQ", "value": "tanaka"}]}, {"filters": [{"propertyName": "lastname", "operator": "EQ", "value": "Okafor"}]}]}`, 2},
		{"filters are ANDed", `{"filterGroups": [{"filters": [{"propertyName": "lifecyclestage", "operator": "EQ", "value": "customer"}, {"propertyName": "hubspot_owner_id", "operator": "EQ", "value": "71004"}]}]}`, 2},
		{"association pseudo-property", `{"filterGroups": [{"filters": [{"propertyName": "associations.company", "operator": "EQ", "value": "8801"}]}]}`, 2},
		{"epoch millis on dates", fmt.Sprintf(`{"filterGroups": [{"filters": [{"propertyName": "createdate", "operator": "LT", "value": "%d"}]}]}`, seedBase.Add(48*3600e9).UnixMilli()), 2},
		{"query words all match", `{"query": "anika brightwave"}`, 1},
		{"no match", `{"query": "zzzz"}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, body := call(t, s, "POST", "/crm/v3/objects/contacts/search", searchBody(t, tt.body), nil)
			if w.Code != 200 || body["total"] != float64(tt.want) {
				t.Fatalf("%d total %v, want %d: %s", w.Code, body["total"], tt.want, w.Body)
			}
		})
	}
}

func TestSandboxConcurrentCreates(t *testing.T) {
	t.Parallel()
	s := NewSandboxHandler()
	var wg sync.WaitGroup
	ids := make(chan string, 20)
	for i := range 20 {
		wg.Go(func() {
			w, body := call(t, s, "POST", "/crm/v3/objects/companies", fmt.Sprintf(`{"properties": {"name": "Co %d", "numberofemployees": "%d"}, "associations": []}`, i, i), nil)
			if w.Code != 201 {
				t.Errorf("create: %d %s", w.Code, w.Body)
				return
			}
			ids <- body["id"].(string)
		})
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] {
			t.Fatalf("id %s issued twice", id)
		}
		seen[id] = true
	}
	if w, body := call(t, s, "GET", "/crm/v3/objects/companies?limit=100", "", nil); len(body["results"].([]any)) != len(seedCompanies)+20 {
		t.Fatalf("companies after creates: %s", w.Body)
	}
}
