package oauth

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestRegistration(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.RedirectSchemes = []string{"cursor"}; o.RegistrationsPerMinute = 100 })
	for _, tc := range []struct {
		name, body string
		status     int
		errCode    string
	}{
		{"https", `{"redirect_uris":["https://app.example/cb"]}`, http.StatusCreated, ""},
		{"loopback ip", `{"redirect_uris":["http://127.0.0.1:3000/cb"]}`, http.StatusCreated, ""},
		{"loopback v6", `{"redirect_uris":["http://[::1]:3000/cb"]}`, http.StatusCreated, ""},
		{"localhost", `{"redirect_uris":["http://localhost:6274/oauth/callback"]}`, http.StatusCreated, ""},
		{"allowed private scheme", `{"redirect_uris":["cursor://anysphere.cursor-mcp/oauth/callback"]}`, http.StatusCreated, ""},
		{"http on a public host", `{"redirect_uris":["http://app.example/cb"]}`, http.StatusBadRequest, errInvalidRedirectURI},
		{"fragment", `{"redirect_uris":["https://app.example/cb#x"]}`, http.StatusBadRequest, errInvalidRedirectURI},
		{"javascript", `{"redirect_uris":["javascript:alert(1)"]}`, http.StatusBadRequest, errInvalidRedirectURI},
		{"relative", `{"redirect_uris":["/cb"]}`, http.StatusBadRequest, errInvalidRedirectURI},
		{"none", `{"client_name":"x"}`, http.StatusBadRequest, errInvalidRedirectURI},
		{"bad auth method", `{"redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"private_key_jwt"}`, http.StatusBadRequest, errInvalidClientMetadata},
		{"implicit grant", `{"redirect_uris":["https://a.example/cb"],"grant_types":["implicit"]}`, http.StatusBadRequest, errInvalidClientMetadata},
		{"unknown scope", `{"redirect_uris":["https://a.example/cb"],"scope":"admin"}`, http.StatusBadRequest, errInvalidClientMetadata},
		{"not JSON", `redirect_uris=x`, http.StatusBadRequest, errInvalidClientMetadata},
		{"too large", `{"client_name":"` + strings.Repeat("x", 70<<10) + `"}`, http.StatusRequestEntityTooLarge, errInvalidClientMetadata},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := http.Post(e.base+"/oauth/register", "application/json", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var m map[string]any
			json.NewDecoder(resp.Body).Decode(&m)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d (%v)", resp.StatusCode, tc.status, m)
			}
			if tc.errCode != "" && (m["error"] != tc.errCode || m["error_description"] == "") {
				t.Errorf("body %v, want error %s with a description", m, tc.errCode)
			}
			if tc.status == http.StatusCreated && (m["client_id"] == "" || m["token_endpoint_auth_method"] != "none" || m["client_secret"] != nil) {
				t.Errorf("registration %v: want a public client", m)
			}
		})
	}
}

func TestRegistrationRateLimit(t *testing.T) {
	e := newEnv(t, func(o *Options) { o.RegistrationsPerMinute = 2 })
	post := func() int {
		resp, err := http.Post(e.base+"/oauth/register", "application/json", strings.NewReader(`{"redirect_uris":["https://a.example/cb"]}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for i, want := range []int{201, 201, 429} {
		if got := post(); got != want {
			t.Errorf("registration %d: status %d, want %d", i+1, got, want)
		}
	}
	e.clock.Add(61e9)
	if got := post(); got != http.StatusCreated {
		t.Errorf("after a minute: status %d", got)
	}
}
