package connect

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseTokenResponse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		status     int
		body       string
		wantToken  string
		wantCode   string
		wantExpiry seconds
	}{
		{name: "expires_in as a string", status: 200, body: `{"access_token":"a","expires_in":"3600"}`, wantToken: "a", wantExpiry: 3600},
		{name: "RFC 6749 error", status: 400, body: `{"error":"invalid_client","error_description":"x"}`, wantCode: "invalid_client"},
		{name: "Graph error", status: 400, body: `{"error":{"type":"OAuthException","code":190,"message":"m"}}`, wantCode: "OAuthException 190"},
		// HubSpot's token endpoint refusing a code (its error body, no "error").
		{name: "HubSpot status", status: 400, body: `{"status":"BAD_AUTH_CODE","message":"missing or unknown auth code","correlationId":"c"}`, wantCode: "BAD_AUTH_CODE"},
		{name: "error on a 200", status: 200, body: `{"error":"access_denied"}`, wantCode: "access_denied"},
		{name: "negative expiry", status: 200, body: `{"access_token":"a","expires_in":-5}`, wantCode: "invalid_response"},
		{name: "control characters in the code", status: 400, body: `{"error":"bad\u0000\ncode"}`, wantCode: "badcode"},
		{name: "empty body", status: 401, body: ``, wantCode: "http_401"},
	}
	for _, tt := range tests {
		tr, e := parseTokenResponse(tt.status, []byte(tt.body))
		switch {
		case tt.wantToken != "" && (tr == nil || tr.AccessToken != tt.wantToken || tr.ExpiresIn != tt.wantExpiry):
			t.Errorf("%s: token %+v, error %+v", tt.name, tr, e)
		case tt.wantCode != "" && (e == nil || e.Code != tt.wantCode):
			t.Errorf("%s: error %+v, want code %q", tt.name, e, tt.wantCode)
		}
	}
}

// FuzzParseTokenResponse: any answer gives a token or a short printable
// error code, never both, never neither.
func FuzzParseTokenResponse(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"1/fFAGRNJru1FTz70BzhT3Zg","expires_in":3920,"token_type":"Bearer","scope":"a b","refresh_token":"r"}`,
		`{"token_type":"bearer","refresh_token":"r","access_token":"a","expires_in":1800,"hub_id":62515,"scopes":["oauth"]}`,
		`{"access_token":"AQU","expires_in":5184000,"refresh_token":"AQW","refresh_token_expires_in":525600,"scope":"r_ads,rw_ads"}`,
		`{"error":"invalid_grant","error_description":"Bad Request"}`,
		`{"error":{"message":"Error validating verification code.","type":"OAuthException","code":100,"fbtrace_id":"A"}}`,
		`{"status":"BAD_REFRESH_TOKEN","message":"missing or unknown refresh token","correlationId":"c"}`,
		`<html></html>`, `null`, `{"error":null}`, `{"expires_in":"1e99"}`,
	} {
		f.Add(200, []byte(s))
		f.Add(400, []byte(s))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		tr, e := parseTokenResponse(status, body)
		if (tr == nil) == (e == nil) {
			t.Fatalf("token %v and error %v", tr, e)
		}
		if tr != nil {
			if tr.AccessToken == "" || tr.ExpiresIn < 0 {
				t.Fatalf("token %+v", tr)
			}
			for _, s := range tr.scopes() {
				if s == "" || strings.ContainsAny(s, " ,") {
					t.Fatalf("scope %q", s)
				}
			}
			return
		}
		if e.Code == "" || len(e.Code) > 64 || !utf8.ValidString(e.Code) || strings.ContainsFunc(e.Code, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
			t.Fatalf("code %q", e.Code)
		}
	})
}
