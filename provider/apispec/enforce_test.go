package apispec

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const testSpec = `{
 "provider": "mail", "title": "Mail API", "version": "v1", "source": "https://example.com/mail.json", "retrieved": "2026-11-25",
 "headers": [{"name": "X-Api-Version", "in": "header", "required": true, "enum": ["2026-01"]}],
 "global_params": [{"name": "fields", "in": "query"}],
 "operations": [
  {"id": "mail.messages.get", "method": "GET", "path": "/mail/v1/users/{userId}/messages/{id}",
   "params": [{"name": "userId", "in": "path", "required": true}, {"name": "id", "in": "path", "required": true},
              {"name": "format", "in": "query", "enum": ["full", "metadata"]},
              {"name": "metadataHeaders", "in": "query", "repeated": true}],
   "response": {"$ref": "Message"}},
  {"id": "mail.messages.send", "method": "POST", "path": "/mail/v1/users/{userId}/messages/send",
   "params": [{"name": "userId", "in": "path", "required": true}],
   "request": {"$ref": "Message"}, "response": {"$ref": "Message"}},
  {"id": "mail.reports.run", "method": "POST", "path": "/mail/v1/{+property}:runReport",
   "params": [{"name": "property", "in": "path", "required": true, "pattern": "properties/[0-9]+"}, {"name": "limit", "in": "query", "type": "integer"}],
   "request": {"type": "object", "required": ["dateRanges"], "properties": {"dateRanges": {"type": "array", "items": {"type": "string"}}}}}
 ],
 "schemas": {
  "Message": {"type": "object", "properties": {
    "id": {"type": "string"}, "sizeEstimate": {"type": "integer"}, "historyId": {"type": "string", "format": "uint64"},
    "labelIds": {"type": "array", "items": {"type": "string", "enum": ["INBOX", "SENT"]}},
    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
    "payload": {"$ref": "Message"}, "raw": {"type": "string", "format": "byte"}}}
 }
}`

func TestEnforce(t *testing.T) {
	spec := MustParse([]byte(testSpec))
	answer := `{"id":"m1","historyId":"12","labelIds":["INBOX"]}`
	var refused []string
	e := Enforce(spec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(answer))
	}), func(w http.ResponseWriter, status int, msg string) {
		refused = append(refused, msg)
		http.Error(w, msg, status)
	})
	tests := []struct {
		name, method, target, body, version string
		status                              int
		problem                             string
	}{
		{"get", "GET", "/mail/v1/users/me/messages/m1?format=full&metadataHeaders=A&metadataHeaders=B&fields=id", "", "2026-01", 200, ""},
		{"missing header", "GET", "/mail/v1/users/me/messages/m1", "", "", 400, `header parameter "X-Api-Version": required, missing`},
		{"wrong header", "GET", "/mail/v1/users/me/messages/m1", "", "2025-01", 400, `"2025-01" is not one of 2026-01`},
		{"bad enum", "GET", "/mail/v1/users/me/messages/m1?format=raw", "", "2026-01", 400, `query parameter "format": "raw" is not one of full, metadata`},
		{"unknown param", "GET", "/mail/v1/users/me/messages/m1?fomat=full", "", "2026-01", 400, `query parameter "fomat": unknown`},
		{"repeated once-only", "GET", "/mail/v1/users/me/messages/m1?format=full&format=metadata", "", "2026-01", 400, "given 2 times"},
		{"literal before template", "POST", "/mail/v1/users/me/messages/send", `{"raw":"eA==","labelIds":["SENT"]}`, "2026-01", 200, ""},
		{"unknown body field", "POST", "/mail/v1/users/me/messages/send", `{"raw":"eA==","threadID":"t"}`, "2026-01", 400, "threadID: unknown field"},
		{"wrong body type", "POST", "/mail/v1/users/me/messages/send", `{"sizeEstimate":"big"}`, "2026-01", 400, "sizeEstimate: want a integer"},
		{"nested enum", "POST", "/mail/v1/users/me/messages/send", `{"payload":{"labelIds":["TRASH"]}}`, "2026-01", 400, `payload.labelIds[0]: "TRASH" is not one of`},
		{"map values", "POST", "/mail/v1/users/me/messages/send", `{"headers":{"Any-Name":"v","Other":3}}`, "2026-01", 400, "headers.Other: want a string"},
		{"64-bit integer as number in a request", "POST", "/mail/v1/users/me/messages/send", `{"historyId":12}`, "2026-01", 200, ""},
		{"not JSON", "POST", "/mail/v1/users/me/messages/send", `{"raw":`, "2026-01", 400, "body: not JSON"},
		{"reserved expansion", "POST", "/mail/v1/properties/123:runReport?limit=5", `{"dateRanges":["x"]}`, "2026-01", 200, ""},
		{"path pattern", "POST", "/mail/v1/accounts/123:runReport", `{"dateRanges":["x"]}`, "2026-01", 400, `"accounts/123" does not match`},
		{"required body field", "POST", "/mail/v1/properties/123:runReport", `{}`, "2026-01", 400, "dateRanges: required field missing"},
		{"integer param", "POST", "/mail/v1/properties/123:runReport?limit=five", `{"dateRanges":[]}`, "2026-01", 400, `"five" is not an integer`},
		{"no such path", "GET", "/mail/v1/users/me/drafts", "", "2026-01", 404, "no operation of the Mail API serves GET"},
		{"wrong method", "DELETE", "/mail/v1/users/me/messages/m1", "", "2026-01", 405, "(it takes GET)"},
		{"body on a GET", "GET", "/mail/v1/users/me/messages/m1", `{"x":1}`, "2026-01", 400, "this operation takes none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refused = nil
			before := len(e.Violations())
			r := httptest.NewRequest(tt.method, tt.target, strings.NewReader(tt.body))
			if tt.body != "" {
				r.Header.Set("Content-Type", "application/json")
			}
			if tt.version != "" {
				r.Header.Set("X-Api-Version", tt.version)
			}
			w := httptest.NewRecorder()
			e.ServeHTTP(w, r)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			got := e.Violations()[before:]
			if tt.problem == "" {
				if len(got) != 0 || w.Body.String() != answer {
					t.Fatalf("violations %q, body %s", got, w.Body)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0], tt.problem) || len(refused) != 1 {
				t.Fatalf("violations %q, want one with %q", got, tt.problem)
			}
		})
	}
	if c := e.Checked(); c["mail.messages.get"] != 1 || c["mail.messages.send"] != 2 || c["mail.reports.run"] != 1 {
		t.Errorf("checked: %v", c)
	}
}

// TestEnforceResponse: an answer with a field or type the spec does not
// have is sent as it is and recorded, so the test that caused it fails.
func TestEnforceResponse(t *testing.T) {
	spec := MustParse([]byte(testSpec))
	for _, tc := range []struct{ answer, problem string }{
		{`{"id":"m1","historyId":12}`, "response historyId: want a string, got a number"},
		{`{"id":"m1","threadKey":"t"}`, "response threadKey: unknown field"},
		{`{"id":"m1","labelIds":["STARRED"]}`, `response labelIds[0]: "STARRED" is not one of`},
		{`{"id":null}`, "response id: null is not allowed"},
	} {
		e := Enforce(spec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(tc.answer)) }),
			func(w http.ResponseWriter, status int, msg string) { http.Error(w, msg, status) })
		r := httptest.NewRequest("GET", "/mail/v1/users/me/messages/m1", nil)
		r.Header.Set("X-Api-Version", "2026-01")
		w := httptest.NewRecorder()
		e.ServeHTTP(w, r)
		if v := e.Violations(); w.Body.String() != tc.answer || len(v) != 1 || !strings.Contains(v[0], tc.problem) {
			t.Errorf("answer %s: violations %q, want %q", tc.answer, v, tc.problem)
		}
	}
}

func TestPathVersion(t *testing.T) {
	spec := MustParse([]byte(`{"provider":"ads","version":"v25","source":"https://x","retrieved":"2026-11-25","path_version":true,
		"operations":[{"id":"ads.search","method":"POST","path":"/v25/customers/{customerId}/googleAds:search"}]}`))
	for path, want := range map[string]bool{
		"/v25/customers/123/googleAds:search": true,
		"/v24/customers/123/googleAds:search": true, // the version is the sandbox's to refuse, not the spec's
		"/v25/customers/123/googleAds:mutate": false,
	} {
		op, params, _ := spec.Find("POST", path)
		if (op != nil) != want || (want && params["customerId"] != "123") {
			t.Errorf("%s: %v %v", path, op, params)
		}
	}
}
