package oauthapps_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin/admintest"
	"github.com/gtmgate/gtmgate/oauthapps"
	"github.com/gtmgate/gtmgate/store/storetest"
)

const adminKey = "oauthapps-test-admin-key-0123456789"

type env struct {
	t     *testing.T
	url   string
	audit *storetest.AuditRecorder
	store gtmgate.Store
}

// start serves the real admin API, these routes mounted, over a SQLite
// store holding tenant acme.
func start(t *testing.T, maxBody int64) *env {
	t.Helper()
	st := storetest.TenantWithToken(t)
	apps := oauthapps.New(oauthapps.Options{Store: st, GatewayURL: "https://gw.example.com/", MaxBodyBytes: maxBody})
	api, rec := admintest.Handler(st, apps.Mount)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return &env{t: t, url: srv.URL, audit: rec, store: st}
}

func (e *env) do(method, path, body string) admintest.Answer {
	e.t.Helper()
	a := admintest.Do(e.t, e.url, method, path, body)
	return a
}

const redirect = "https://gw.example.com/connect/callback"

func TestPutGetListDelete(t *testing.T) {
	t.Parallel()
	e := start(t, 0)

	list := e.do("GET", "/admin/oauth-apps", "")
	if list.Status != 200 || strings.TrimSpace(list.Body) != `{"oauth_apps":[],"redirect_uri":"`+redirect+`"}` {
		t.Fatalf("empty list: %d %s", list.Status, list.Body)
	}

	put := e.do("PUT", "/admin/oauth-apps/google", `{"client_id": "123.apps.googleusercontent.com", "client_secret": "GOCSPX-plain-secret",
		"extra_scopes": ["openid", "email", "openid"]}`)
	if put.Status != 201 || strings.Contains(put.Body, "plain-secret") {
		t.Fatalf("create: %d %s", put.Status, put.Body)
	}
	app := put.Object(t)["oauth_app"].(map[string]any)
	if app["client_id"] != "123.apps.googleusercontent.com" || app["has_client_secret"] != true || app["redirect_uri"] != redirect ||
		app["provider"] != "google" || app["tenant_id"] != nil || put.Object(t)["created"] != true {
		t.Errorf("created app = %s", put.Body)
	}
	if got := app["extra_scopes"]; len(got.([]any)) != 2 {
		t.Errorf("extra scopes = %v, want openid and email once each", got)
	}
	if a := e.audit.Last(); a.Action != "admin.oauth-apps.put" || a.TenantID != "" ||
		a.Detail != "google app created, client id 123.apps.googleusercontent.com" || strings.Contains(a.Detail, "secret-") {
		t.Errorf("audit entry = %+v", a)
	}

	// A replace without the secret keeps it.
	put = e.do("PUT", "/admin/oauth-apps/google", `{"client_id": "456.apps.googleusercontent.com"}`)
	if put.Status != 200 || put.Object(t)["created"] != false {
		t.Fatalf("replace: %d %s", put.Status, put.Body)
	}
	stored, err := e.store.GetOAuthApp(t.Context(), "", "google")
	if err != nil {
		t.Fatal(err)
	}
	if stored.ClientSecret != "GOCSPX-plain-secret" || stored.ClientID != "456.apps.googleusercontent.com" || len(stored.ExtraScopes) != 0 {
		t.Errorf("after a replace without a secret the store holds %+v", stored)
	}
	if a := e.audit.Last(); !strings.Contains(a.Detail, "secret kept") {
		t.Errorf("audit detail of a replace keeping the secret = %q", a.Detail)
	}

	if r := e.do("PUT", "/admin/tenants/acme/oauth-apps/google", `{"client_id": "acme-client", "client_secret": "acme-plain-secret"}`); r.Status != 201 {
		t.Fatalf("tenant app: %d %s", r.Status, r.Body)
	}
	if a := e.audit.Last(); a.TenantID != "acme" || a.Action != "admin.tenants.oauth-apps.put" {
		t.Errorf("tenant app audit entry = %+v", a)
	}
	get := e.do("GET", "/admin/tenants/acme/oauth-apps/google", "")
	if get.Status != 200 || !strings.Contains(get.Body, `"tenant_id":"acme"`) || !strings.Contains(get.Body, `"client_id":"acme-client"`) {
		t.Errorf("get tenant app: %d %s", get.Status, get.Body)
	}
	list = e.do("GET", "/admin/oauth-apps", "")
	apps := list.Object(t)["oauth_apps"].([]any)
	if list.Status != 200 || len(apps) != 2 || strings.Contains(list.Body, "plain-secret") {
		t.Fatalf("list: %d %s", list.Status, list.Body)
	}
	if first := apps[0].(map[string]any); first["tenant_id"] != nil || first["client_id"] != "456.apps.googleusercontent.com" {
		t.Errorf("list starts with %v, want the gateway-wide app", first)
	}

	del := e.do("DELETE", "/admin/tenants/acme/oauth-apps/google", "")
	if del.Status != 200 || del.Object(t)["deleted"] != true || !strings.Contains(del.Body, `"client_id":"acme-client"`) {
		t.Errorf("delete: %d %s", del.Status, del.Body)
	}
	if r := e.do("GET", "/admin/tenants/acme/oauth-apps/google", ""); r.Status != 404 || r.Code(t) != "NOT_FOUND" {
		t.Errorf("get after delete: %d %s", r.Status, r.Body)
	}
	if r := e.do("DELETE", "/admin/tenants/acme/oauth-apps/google", ""); r.Status != 404 || r.Code(t) != "NOT_FOUND" {
		t.Errorf("second delete: %d %s", r.Status, r.Body)
	}
	if r := e.do("GET", "/admin/oauth-apps/google", ""); r.Status != 200 {
		t.Errorf("the gateway-wide app after deleting the tenant's: %d %s", r.Status, r.Body)
	}
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	e := start(t, 1024)
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code, mention            string
	}{
		{"unknown provider", "PUT", "/admin/oauth-apps/salesforce", `{"client_id": "c", "client_secret": "s"}`, 400, "VALIDATION_ERROR", "google, hubspot, meta, linkedin"},
		{"provider tool name", "GET", "/admin/oauth-apps/ga4", "", 400, "VALIDATION_ERROR", "one google app"},
		{"unknown provider, tenant route", "DELETE", "/admin/tenants/acme/oauth-apps/x", "", 400, "VALIDATION_ERROR", "must be one of"},
		{"secret required on create", "PUT", "/admin/oauth-apps/hubspot", `{"client_id": "c"}`, 400, "VALIDATION_ERROR", "client_secret is required"},
		{"client id required", "PUT", "/admin/oauth-apps/hubspot", `{"client_secret": "s"}`, 400, "VALIDATION_ERROR", "client_id is required"},
		{"secret with a space", "PUT", "/admin/oauth-apps/hubspot", `{"client_id": "c", "client_secret": "two words"}`, 400, "VALIDATION_ERROR", "client_secret must be"},
		{"bad scope", "PUT", "/admin/oauth-apps/meta", `{"client_id": "c", "client_secret": "s", "extra_scopes": ["ads read"]}`, 400, "VALIDATION_ERROR", "extra_scopes[0]"},
		{"unknown member", "PUT", "/admin/oauth-apps/meta", `{"client_id": "c", "client_secret": "s", "token_url": "x"}`, 400, "VALIDATION_ERROR", "token_url"},
		{"too large", "PUT", "/admin/oauth-apps/meta", `{"client_id": "` + strings.Repeat("c", 2000) + `", "client_secret": "s"}`, 413, "PAYLOAD_TOO_LARGE", ""},
		{"unknown tenant", "PUT", "/admin/tenants/nobody/oauth-apps/google", `{"client_id": "c", "client_secret": "s"}`, 404, "TENANT_NOT_FOUND", "nobody"},
		{"unknown tenant get", "GET", "/admin/tenants/nobody/oauth-apps/google", "", 404, "TENANT_NOT_FOUND", "nobody"},
		{"no app", "GET", "/admin/oauth-apps/linkedin", "", 404, "NOT_FOUND", "PUT /admin/oauth-apps/linkedin"},
		{"no tenant app", "GET", "/admin/tenants/acme/oauth-apps/linkedin", "", 404, "NOT_FOUND", "gateway-wide"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.method, tc.path, tc.body)
			if r.Status != tc.status || r.Code(t) != tc.code || !strings.Contains(r.Body, tc.mention) {
				t.Errorf("%s %s: %d %s, want %d %s mentioning %q", tc.method, tc.path, r.Status, r.Body, tc.status, tc.code, tc.mention)
			}
			if strings.Contains(r.Body, "two words") {
				t.Errorf("the answer quotes the client secret: %s", r.Body)
			}
		})
	}
	if apps, err := e.store.ListOAuthApps(t.Context()); err != nil || len(apps) != 0 {
		t.Errorf("refused calls stored %v (%v)", apps, err)
	}
}

func TestRequiresTheAdminKey(t *testing.T) {
	t.Parallel()
	e := start(t, 0)
	resp, err := http.Get(e.url + "/admin/oauth-apps")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("without the admin key: %d, want 401", resp.StatusCode)
	}
}

// TestTenantQueryRefused: ?tenant= on the gateway-wide route is refused,
// not ignored: it used to overwrite the gateway-wide app (issue #43 item 12).
func TestTenantQueryRefused(t *testing.T) {
	t.Parallel()
	e := start(t, 0)
	if r := e.do("PUT", "/admin/oauth-apps/google", `{"client_id": "gateway-wide", "client_secret": "s1"}`); r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	for _, method := range []string{"PUT", "GET", "DELETE"} {
		r := e.do(method, "/admin/oauth-apps/google?tenant=acme", `{"client_id": "acme-own", "client_secret": "s2"}`)
		if r.Status != 400 || r.Code(t) != "VALIDATION_ERROR" || !strings.Contains(r.Body, "/admin/tenants/acme/oauth-apps/google") {
			t.Errorf("%s with ?tenant=: %d %s", method, r.Status, r.Body)
		}
	}
	if r := e.do("GET", "/admin/oauth-apps/google", ""); !strings.Contains(r.Body, `"client_id":"gateway-wide"`) {
		t.Errorf("the gateway-wide app changed: %s", r.Body)
	}
}
