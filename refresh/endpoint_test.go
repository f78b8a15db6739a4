package refresh

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestExpiresIn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		want       expiresIn
		wantErr    bool
	}{
		{"number", `{"access_token":"a","expires_in":3599}`, 3599, false},
		{"string", `{"access_token":"a","expires_in":"3599"}`, 3599, false},
		{"missing", `{"access_token":"a"}`, 0, false},
		{"null", `{"access_token":"a","expires_in":null}`, 0, false},
		{"garbage", `{"access_token":"a","expires_in":"soon"}`, 0, true},
	}
	o := &gtmgate.ProviderOAuth{ClientSecret: testClientSecret, RefreshToken: testRefresh1}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, f := parseToken(200, []byte(tt.body), o)
			if (f != nil) != tt.wantErr {
				t.Fatalf("failure = %v, want error %v", f, tt.wantErr)
			}
			if f == nil && res.ExpiresIn != tt.want {
				t.Errorf("expires_in = %d, want %d", res.ExpiresIn, tt.want)
			}
		})
	}
}

// FuzzTokenEndpointResponse: any endpoint answer parses without panicking,
// and what is kept of a failure never holds the client's secrets.
func FuzzTokenEndpointResponse(f *testing.F) {
	for _, s := range []string{`{"access_token":"a","expires_in":1}`, `{"error":"invalid_grant","error_description":"` + testRefresh1 + `"}`,
		`<html>` + testClientSecret + `</html>`, `{"error":{"message":"x"}}`, `{"expires_in":"1e400"}`} {
		f.Add(400, []byte(s))
		f.Add(200, []byte(s))
	}
	o := &gtmgate.ProviderOAuth{ClientSecret: testClientSecret, RefreshToken: testRefresh1}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		var fl *failure
		if status >= 200 && status < 300 {
			_, fl = parseToken(status, body, o)
		} else {
			fl = parseFailure(status, body, o)
		}
		if fl == nil {
			return
		}
		for _, s := range []string{testClientSecret, testRefresh1} {
			if strings.Contains(fl.message, s) || strings.Contains(fl.body, s) {
				t.Fatalf("failure keeps a secret: %+v", fl)
			}
		}
	})
}
