package oauthsandbox

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The sandbox accepts a client ID metadata document only when it names
// itself, describes a public client with redirect URIs, and fits the size
// bound (draft-ietf-oauth-client-id-metadata-document).
func TestFetchClient(t *testing.T) {
	t.Parallel()
	docs := map[string]string{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(strings.ReplaceAll(body, "SELF", "http://"+r.Host+r.URL.Path)))
	}))
	t.Cleanup(ts.Close)
	docs["/good.json"] = `{"client_id":"SELF","redirect_uris":["https://gw.example/connect/callback"],"token_endpoint_auth_method":"none"}`
	docs["/other.json"] = `{"client_id":"https://elsewhere.example/c.json","redirect_uris":["https://gw.example/cb"]}`
	docs["/secret.json"] = `{"client_id":"SELF","redirect_uris":["https://gw.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`
	docs["/noredirect.json"] = `{"client_id":"SELF"}`
	docs["/huge.json"] = `{"client_id":"SELF","redirect_uris":["https://gw.example/cb"],"client_name":"` + strings.Repeat("x", maxClientMetadata) + `"}`
	s := New(Options{ClientMetadataDocuments: true})
	s.SetBase(ts.URL)
	tests := []struct {
		name, path, wantErr string
	}{
		{"good", "/good.json", ""},
		{"names another client", "/other.json", "not its own URL"},
		{"shared secret", "/secret.json", "without a shared secret"},
		{"no redirect URIs", "/noredirect.json", "no redirect_uris"},
		{"too large", "/huge.json", "larger than"},
		{"missing", "/gone.json", "HTTP 404"},
		{"no path", "/", "not a client ID metadata document URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			redirects, err := s.fetchClient(context.Background(), ts.URL+tt.path)
			if tt.wantErr == "" {
				if err != nil || len(redirects) != 1 {
					t.Fatalf("fetchClient = %v, %v", redirects, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("fetchClient error %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
	// http is for loopback only: a sandbox elsewhere wants https.
	remote := New(Options{ClientMetadataDocuments: true})
	remote.SetBase("https://as.example")
	if _, err := remote.fetchClient(context.Background(), ts.URL+"/good.json"); err == nil || !strings.Contains(err.Error(), "https") {
		t.Fatalf("an http document for a non-loopback sandbox: %v", err)
	}
}
