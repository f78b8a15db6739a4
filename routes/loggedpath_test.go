package routes_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gtmgate/gtmgate/routes"
)

// TestLoggedPath: a segment a {secret} wildcard matched is never logged;
// other paths are logged as they are.
func TestLoggedPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ pattern, target, want string }{
		{"GET /connect/{secret}", "/connect/s3cr3t-AbC_dEf", "/connect/{secret}"},
		{"POST /connect/{secret}", "/connect/s3cr3t?x=1", "/connect/{secret}"},
		{"/connect/{secret}", "/connect/s3cr3t", "/connect/{secret}"},
		{"GET gw.example/connect/{secret}", "/connect/s3cr3t", "/connect/{secret}"},
		{"GET /files/{secret...}", "/files/a/b/c", "/files/{secret...}"},
		{"GET /a/{secret}/b/{id}", "/a/s3cr3t/b/7", "/a/{secret}/b/7"},
		{"GET /a/{secret}", "/a/s3cr3t%2Fmore", "/a/{secret}"},
		{"GET /connect/callback", "/connect/callback", "/connect/callback"},
		{"GET /api/{tenant}", "/api/acme", "/api/acme"},
	}
	for _, tt := range tests {
		mux := http.NewServeMux()
		var got string
		mux.HandleFunc(tt.pattern, func(_ http.ResponseWriter, r *http.Request) { got = routes.LoggedPath(r) })
		r := httptest.NewRequest("GET", "http://gw.example"+tt.target, nil)
		if tt.pattern[0] == 'P' {
			r.Method = "POST"
		}
		mux.ServeHTTP(httptest.NewRecorder(), r)
		if got != tt.want {
			t.Errorf("%s %s: logged %q, want %q", tt.pattern, tt.target, got, tt.want)
		}
	}
}
