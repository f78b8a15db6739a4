package refresh

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/jsonapi"
)

func serve(t *testing.T, r *Refresher, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	mux := http.NewServeMux()
	r.Mount(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	return rec
}

func seedBody(modify func(map[string]any)) string {
	m := map[string]any{"tenant_id": tenantID, "provider": provider, "account_id": accountID, "client_id": "client-2",
		"client_secret": testClientSecret, "token_endpoint": "https://oauth.example/token", "refresh_token": testRefresh2}
	if modify != nil {
		modify(m)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestSeedOAuth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		body          string
		allowInsecure bool
		wantStatus    int
		wantCode      string
		wantIn        string
	}{
		{name: "ok", body: seedBody(nil), wantStatus: 200},
		{name: "public client", body: seedBody(func(m map[string]any) { delete(m, "client_secret") }), wantStatus: 200},
		{name: "http refused", body: seedBody(func(m map[string]any) { m["token_endpoint"] = "http://127.0.0.1:9/token" }),
			wantStatus: 400, wantCode: gtmgate.EValidation, wantIn: "https"},
		{name: "http on loopback allowed", allowInsecure: true, wantStatus: 200,
			body: seedBody(func(m map[string]any) { m["token_endpoint"] = "http://127.0.0.1:9/token" })},
		{name: "http elsewhere refused even when allowed", allowInsecure: true, wantStatus: 400, wantCode: gtmgate.EValidation,
			body: seedBody(func(m map[string]any) { m["token_endpoint"] = "http://oauth.example/token" })},
		{name: "endpoint with credentials", wantStatus: 400, wantCode: gtmgate.EValidation,
			body: seedBody(func(m map[string]any) { m["token_endpoint"] = "https://u:p@oauth.example/token" })},
		{name: "unknown tenant", body: seedBody(func(m map[string]any) { m["tenant_id"] = "nobody" }),
			wantStatus: 404, wantCode: gtmgate.ETenantNotFound, wantIn: "nobody"},
		{name: "unknown account", body: seedBody(func(m map[string]any) { m["account_id"] = "999" }),
			wantStatus: 400, wantCode: gtmgate.EValidation, wantIn: `"999"`},
		{name: "unknown provider", body: seedBody(func(m map[string]any) { m["provider"] = "hubspot" }),
			wantStatus: 400, wantCode: gtmgate.EValidation, wantIn: "hubspot"},
		{name: "unknown field", body: seedBody(func(m map[string]any) { m["scope"] = "x" }),
			wantStatus: 400, wantCode: gtmgate.EValidation, wantIn: `unknown field "scope"`},
		{name: "missing fields", body: seedBody(func(m map[string]any) { delete(m, "refresh_token"); m["client_id"] = "" }),
			wantStatus: 400, wantCode: gtmgate.EValidation, wantIn: "client_id, refresh_token are required"},
		{name: "not a string", body: seedBody(func(m map[string]any) { m["account_id"] = 111 }),
			wantStatus: 400, wantCode: gtmgate.EValidation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, script(tokenReply("seeded-access", "", 3600)), func(o *Options) { o.AllowInsecureTokenEndpoint = tt.allowInsecure })
			f.putToken(t, "current", time.Now().Add(time.Hour)) // valid: no refresh at seeding
			rec := serve(t, f.r, "POST", "/admin/seed-oauth", tt.body)
			noSecrets(t, "response", rec.Body.String())
			if rec.Code != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.wantStatus, rec.Body)
			}
			if tt.wantCode != "" {
				var e jsonapi.ErrorBody
				json.Unmarshal(rec.Body.Bytes(), &e)
				if e.Error.Code != tt.wantCode || !strings.Contains(e.Error.Message, tt.wantIn) {
					t.Errorf("error %+v, want %s containing %q", e.Error, tt.wantCode, tt.wantIn)
				}
				if f.record(t).ClientID != "client-1" {
					t.Error("a refused seeding changed the record")
				}
				return
			}
			o := f.record(t)
			if o.ClientID != "client-2" || o.RefreshToken != testRefresh2 || f.ep.hits() != 0 {
				t.Errorf("stored %+v, endpoint hits %d", o, f.ep.hits())
			}
		})
	}
}

func TestSeedOAuthRefreshesAtOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		token         time.Duration // 0: none stored
		answer        reply
		wantRefreshed bool
		wantReauth    bool
		wantHits      int
	}{
		{name: "no token", answer: tokenReply("seeded-access", "", 3600), wantRefreshed: true, wantHits: 1},
		{name: "token about to expire", token: time.Minute, answer: tokenReply("seeded-access", "", 3600), wantRefreshed: true, wantHits: 1},
		{name: "valid token", token: time.Hour, answer: tokenReply("seeded-access", "", 3600), wantHits: 0},
		{name: "refresh token refused", answer: errorReply(400, "invalid_grant", "bad"), wantReauth: true, wantHits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, script(tt.answer), nil)
			// A previous refusal is cleared by seeding again.
			o := f.record(t)
			o.NeedsReauth, o.LastError = true, "old failure"
			must(t, f.store.PutProviderOAuth(t.Context(), o))
			if tt.token != 0 {
				f.putToken(t, "current", time.Now().Add(tt.token))
			}
			rec := serve(t, f.r, "POST", "/admin/seed-oauth", seedBody(nil))
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var res SeedResult
			must(t, json.Unmarshal(rec.Body.Bytes(), &res))
			if res.Refreshed != tt.wantRefreshed || res.NeedsReauth != tt.wantReauth || f.ep.hits() != tt.wantHits || !res.HasToken && tt.wantRefreshed {
				t.Errorf("result %+v with %d hits", res, f.ep.hits())
			}
			if f.ep.hits() > 0 && f.ep.request(0).form.Get("refresh_token") != testRefresh2 {
				t.Error("refresh at seeding did not use the seeded refresh token")
			}
			noSecrets(t, "response", rec.Body.String())
		})
	}
}

func TestListAccounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, script(errorReply(400, "invalid_grant", "revoked "+testRefresh1)), nil)
	f.r.Refresh(t.Context(), tenantID, provider, accountID, "")
	for _, tt := range []struct {
		name, path string
		status     int
		accounts   int
	}{
		{"all", "/admin/oauth-refresh", 200, 1},
		{"one tenant", "/admin/oauth-refresh?tenant=acme", 200, 1},
		{"unknown tenant", "/admin/oauth-refresh?tenant=nobody", 404, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := serve(t, f.r, "GET", tt.path, "")
			noSecrets(t, "response", rec.Body.String())
			if rec.Code != tt.status {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			if tt.status != 200 {
				return
			}
			var body struct{ Accounts []AccountStatus }
			must(t, json.Unmarshal(rec.Body.Bytes(), &body))
			if len(body.Accounts) != tt.accounts {
				t.Fatalf("accounts = %+v", body.Accounts)
			}
			a := body.Accounts[0]
			if !a.NeedsReauth || !strings.Contains(a.LastError, "invalid_grant") || !a.HasClientSecret || a.ClientID != "client-1" {
				t.Errorf("account = %+v", a)
			}
		})
	}
}
