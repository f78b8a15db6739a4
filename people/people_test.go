package people_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin/admintest"
	"github.com/gtmgate/gtmgate/idpsandbox"
	"github.com/gtmgate/gtmgate/people"
	"github.com/gtmgate/gtmgate/store/storetest"
)

const (
	adminKey = "people-test-admin-key-0123456789"
	redirect = "https://gw.example.com/console/sso/callback"
	// idpSecret is every IdP's client secret in these tests: no answer or
	// audit entry may hold it.
	idpSecret = "idp-plain-secret-4242"
)

type env struct {
	t     *testing.T
	url   string
	audit *storetest.AuditRecorder
	store gtmgate.Store
	api   *people.API
	// issuer and issuer2 are two sandbox IdPs served by the same server;
	// discoveries counts the discovery requests both have answered.
	issuer, issuer2 string
	discoveries     *atomic.Int32
}

// start serves the real admin API, these routes mounted, over a SQLite
// store holding tenants acme and globex, beside two sandbox OpenID
// providers at /idp and /idp2 whose discovery is the real go-oidc check's.
func start(t *testing.T) *env {
	t.Helper()
	st := storetest.TenantWithToken(t)
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "globex", Name: "Globex", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	e := &env{t: t, url: srv.URL, audit: &storetest.AuditRecorder{}, store: st,
		issuer: srv.URL + "/idp", issuer2: srv.URL + "/idp2", discoveries: &atomic.Int32{}}
	for _, iss := range []string{e.issuer, e.issuer2} {
		p, err := idpsandbox.New(idpsandbox.Options{Issuer: iss})
		if err != nil {
			t.Fatal(err)
		}
		path := strings.TrimPrefix(iss, srv.URL)
		mux.Handle(path+"/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/.well-known/openid-configuration") {
				e.discoveries.Add(1)
			}
			p.ServeHTTP(w, r)
		}))
	}
	e.api = people.New(people.Options{Store: st, GatewayURL: "https://gw.example.com/", MaxBodyBytes: 4096})
	adminAPI, rec := admintest.Handler(st, e.api.Mount)
	e.audit = rec
	mux.Handle("/admin/", adminAPI)
	return e
}

func (e *env) do(method, path, body string) admintest.Answer {
	e.t.Helper()
	a := admintest.Do(e.t, e.url, method, path, body)
	if strings.Contains(a.Body, idpSecret) {
		e.t.Errorf("%s %s answered with the client secret: %s", method, path, a.Body)
	}
	return a
}

// putIdP creates an IdP through the API, or fails the test.
func (e *env) putIdP(name, body string) map[string]any {
	e.t.Helper()
	r := e.do("PUT", "/admin/sso/idps/"+name, body)
	if r.Status != 201 {
		e.t.Fatalf("create idp %s: %d %s", name, r.Status, r.Body)
	}
	return r.Object(e.t)["idp"].(map[string]any)
}

// noSecretAudited fails the test when an audit entry holds the secret.
func (e *env) noSecretAudited() {
	e.t.Helper()
	for _, a := range e.audit.Entries() {
		if strings.Contains(a.Detail, idpSecret) {
			e.t.Errorf("audit entry %s holds the client secret: %q", a.Action, a.Detail)
		}
	}
}

func idpBody(issuer string, extra string) string {
	return `{"issuer": "` + issuer + `", "client_id": "gtmgate-client", "client_secret": "` + idpSecret + `"` + extra + `}`
}

func TestIdPPutGetListDelete(t *testing.T) {
	t.Parallel()
	e := start(t)

	list := e.do("GET", "/admin/sso/idps", "")
	if list.Status != 200 || strings.TrimSpace(list.Body) != `{"idps":[],"redirect_uri":"`+redirect+`"}` {
		t.Fatalf("empty list: %d %s", list.Status, list.Body)
	}

	put := e.do("PUT", "/admin/sso/idps/corp", idpBody(e.issuer, `, "display_name": "Corp SSO",
		"allowed_domains": ["Example.com", "example.com", "example.org"]`))
	if put.Status != 201 || put.Object(t)["created"] != true {
		t.Fatalf("create: %d %s", put.Status, put.Body)
	}
	idp := put.Object(t)["idp"].(map[string]any)
	for field, want := range map[string]any{"name": "corp", "display_name": "Corp SSO", "issuer": e.issuer, "client_id": "gtmgate-client",
		"has_client_secret": true, "groups_claim": "groups", "redirect_uri": redirect, "tenant_id": nil} {
		if idp[field] != want {
			t.Errorf("created idp %s = %v, want %v", field, idp[field], want)
		}
	}
	if got, _ := json.Marshal(idp["allowed_domains"]); string(got) != `["example.com","example.org"]` {
		t.Errorf("allowed_domains = %s, want lower-cased, each once", got)
	}
	if a := e.audit.Last(); a.Action != "admin.sso.idps.put" || a.Detail != "idp corp created, issuer "+e.issuer+", client id gtmgate-client" {
		t.Errorf("audit entry = %+v", a)
	}
	if n := e.discoveries.Load(); n != 1 {
		t.Errorf("the issuer was discovered %d times, want once", n)
	}

	// A replace without the secret keeps it; without domains it stores none.
	put = e.do("PUT", "/admin/sso/idps/corp", `{"issuer": "`+e.issuer+`", "client_id": "gtmgate-client-2", "groups_claim": "https://example.com/roles"}`)
	if put.Status != 200 || put.Object(t)["created"] != false {
		t.Fatalf("replace: %d %s", put.Status, put.Body)
	}
	if !strings.Contains(put.Body, `"allowed_domains":[]`) || !strings.Contains(put.Body, `"groups_claim":"https://example.com/roles"`) {
		t.Errorf("replaced idp: %s", put.Body)
	}
	stored, err := e.store.GetIdP(t.Context(), "corp")
	if err != nil {
		t.Fatal(err)
	}
	if stored.ClientSecret != idpSecret || stored.ClientID != "gtmgate-client-2" || len(stored.AllowedDomains) != 0 || stored.DisplayName != "" {
		t.Errorf("after a replace without a secret the store holds %+v", stored)
	}
	if a := e.audit.Last(); !strings.Contains(a.Detail, "secret kept") {
		t.Errorf("audit detail of a replace keeping the secret = %q", a.Detail)
	}

	e.putIdP("acme-sso", idpBody(e.issuer2, `, "tenant_id": "acme"`))
	get := e.do("GET", "/admin/sso/idps/acme-sso", "")
	if get.Status != 200 || !strings.Contains(get.Body, `"tenant_id":"acme"`) || !strings.Contains(get.Body, `"issuer":"`+e.issuer2+`"`) {
		t.Errorf("get: %d %s", get.Status, get.Body)
	}
	if a := e.audit.Last(); a.Action != "admin.sso.idps.get" {
		t.Errorf("get audited as %q", a.Action)
	}
	list = e.do("GET", "/admin/sso/idps", "")
	idps, _ := list.Object(t)["idps"].([]any)
	if list.Status != 200 || len(idps) != 2 || idps[0].(map[string]any)["name"] != "acme-sso" {
		t.Fatalf("list: %d %s", list.Status, list.Body)
	}

	// Deleting an IdP removes its grants and its people.
	if r := e.do("POST", "/admin/role-grants", `{"idp": "corp", "kind": "group", "match": "ops", "role": "admin"}`); r.Status != 201 {
		t.Fatalf("grant: %d %s", r.Status, r.Body)
	}
	if _, err := e.store.SignedIn(t.Context(), "corp", gtmgate.Identity{Issuer: e.issuer, Subject: "sub-1"}, stored.CreatedAt); err != nil {
		t.Fatal(err)
	}
	del := e.do("DELETE", "/admin/sso/idps/corp", "")
	if del.Status != 200 || del.Object(t)["deleted"] != true || !strings.Contains(del.Body, `"client_id":"gtmgate-client-2"`) {
		t.Errorf("delete: %d %s", del.Status, del.Body)
	}
	if grants, err := e.store.ListRoleGrants(t.Context(), "corp"); err != nil || len(grants) != 0 {
		t.Errorf("grants after deleting their IdP: %v (%v)", grants, err)
	}
	if ps, err := e.store.ListPeople(t.Context()); err != nil || len(ps) != 0 {
		t.Errorf("people after deleting their IdP: %v (%v)", ps, err)
	}
	for _, method := range []string{"GET", "DELETE"} {
		if r := e.do(method, "/admin/sso/idps/corp", ""); r.Status != 404 || r.Code(t) != "NOT_FOUND" || !strings.Contains(r.Body, `\"corp\"`) {
			t.Errorf("%s after delete: %d %s", method, r.Status, r.Body)
		}
	}
	e.noSecretAudited()
}

// An issuer that cannot be discovered is refused and nothing is stored:
// nobody could sign in through it.
func TestIdPDiscoveryRefusals(t *testing.T) {
	t.Parallel()
	e := start(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/idp"
	ln.Close()
	// The sandbox calls itself 127.0.0.1; asked for by another loopback
	// name, its configuration names another issuer.
	elsewhere := strings.Replace(e.issuer, "127.0.0.1", "localhost", 1)
	for _, tc := range []struct {
		name, issuer, code, mention string
	}{
		{"unreachable port", closed, "UPSTREAM_ERROR", "could not be reached"},
		{"configuration names another issuer", elsewhere, "VALIDATION_ERROR", `"` + e.issuer + `"`},
		{"no configuration there", e.url + "/nothing", "UPSTREAM_ERROR", "HTTP 404"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("PUT", "/admin/sso/idps/corp", idpBody(tc.issuer, ""))
			msg, _ := r.Object(t)["error"].(map[string]any)["message"].(string)
			if r.Code(t) != tc.code || !strings.Contains(msg, tc.issuer) || !strings.Contains(msg, tc.mention) ||
				!strings.Contains(msg, "/.well-known/openid-configuration") {
				t.Errorf("PUT with issuer %s: %d %s, want %s naming the issuer, %q and the discovery document", tc.issuer, r.Status, r.Body, tc.code, tc.mention)
			}
		})
	}
	if idps, err := e.store.ListIdPs(t.Context()); err != nil || len(idps) != 0 {
		t.Errorf("refused issuers stored %v (%v)", idps, err)
	}
	e.noSecretAudited()
}

func TestIdPRefusals(t *testing.T) {
	t.Parallel()
	e := start(t)
	iss := e.issuer
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		code, mention            string
	}{
		{"upper-case name", "PUT", "/admin/sso/idps/Corp", idpBody(iss, ""), 400, "VALIDATION_ERROR", "lowercase letters"},
		{"name too long", "PUT", "/admin/sso/idps/" + strings.Repeat("a", 41), idpBody(iss, ""), 400, "VALIDATION_ERROR", "1 to 40"},
		{"name with an underscore", "PUT", "/admin/sso/idps/corp_sso", idpBody(iss, ""), 400, "VALIDATION_ERROR", "'-'"},
		{"issuer required", "PUT", "/admin/sso/idps/corp", idpBody("", ""), 400, "VALIDATION_ERROR", "issuer is required"},
		{"http to a public host", "PUT", "/admin/sso/idps/corp", idpBody("http://idp.example.com", ""), 400, "VALIDATION_ERROR", "loopback host (127.0.0.1, ::1, localhost)"},
		{"not a URL", "PUT", "/admin/sso/idps/corp", idpBody("idp.example.com", ""), 400, "VALIDATION_ERROR", "absolute https URL"},
		{"another scheme", "PUT", "/admin/sso/idps/corp", idpBody("ftp://idp.example.com", ""), 400, "VALIDATION_ERROR", "absolute https URL"},
		{"query", "PUT", "/admin/sso/idps/corp", idpBody("https://idp.example.com?tenant=1", ""), 400, "VALIDATION_ERROR", "query or fragment"},
		{"fragment", "PUT", "/admin/sso/idps/corp", idpBody("https://idp.example.com#x", ""), 400, "VALIDATION_ERROR", "query or fragment"},
		{"credentials", "PUT", "/admin/sso/idps/corp", idpBody("https://u:p@idp.example.com", ""), 400, "VALIDATION_ERROR", "user name or password"},
		{"client id required", "PUT", "/admin/sso/idps/corp", `{"issuer": "` + iss + `", "client_secret": "s"}`, 400, "VALIDATION_ERROR", "client_id is required"},
		{"secret required on create", "PUT", "/admin/sso/idps/corp", `{"issuer": "` + iss + `", "client_id": "c"}`, 400, "VALIDATION_ERROR", "client_secret is required"},
		{"secret with a space", "PUT", "/admin/sso/idps/corp", `{"issuer": "` + iss + `", "client_id": "c", "client_secret": "two words"}`, 400, "VALIDATION_ERROR", "client_secret must be"},
		{"domain with @", "PUT", "/admin/sso/idps/corp", idpBody(iss, `, "allowed_domains": ["@example.com"]`), 400, "VALIDATION_ERROR", "allowed_domains[0]"},
		{"wildcard domain", "PUT", "/admin/sso/idps/corp", idpBody(iss, `, "allowed_domains": ["example.com", "*.example.com"]`), 400, "VALIDATION_ERROR", "allowed_domains[1]"},
		{"single-label domain", "PUT", "/admin/sso/idps/corp", idpBody(iss, `, "allowed_domains": ["corp"]`), 400, "VALIDATION_ERROR", "bare domain name"},
		{"groups claim with a space", "PUT", "/admin/sso/idps/corp", idpBody(iss, `, "groups_claim": "my groups"`), 400, "VALIDATION_ERROR", "groups_claim"},
		{"unknown member", "PUT", "/admin/sso/idps/corp", idpBody(iss, `, "scopes": ["openid"]`), 400, "VALIDATION_ERROR", "scopes"},
		{"too large", "PUT", "/admin/sso/idps/corp", idpBody(iss, `, "display_name": "`+strings.Repeat("x", 5000)+`"`), 413, "PAYLOAD_TOO_LARGE", ""},
		{"unknown tenant", "PUT", "/admin/sso/idps/corp", idpBody(iss, `, "tenant_id": "nobody"`), 404, "TENANT_NOT_FOUND", "nobody"},
		{"get unknown", "GET", "/admin/sso/idps/ghost", "", 404, "NOT_FOUND", `\"ghost\"`},
		{"delete unknown", "DELETE", "/admin/sso/idps/ghost", "", 404, "NOT_FOUND", `\"ghost\"`},
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
	if idps, err := e.store.ListIdPs(t.Context()); err != nil || len(idps) != 0 {
		t.Errorf("refused calls stored %v (%v)", idps, err)
	}
	if n := e.discoveries.Load(); n != 0 {
		t.Errorf("refused calls discovered an issuer %d times, want none", n)
	}
	e.noSecretAudited()
}

// A replace may not change what the IdP's grants mean: a subject is only
// unique within its issuer, and a tenant's own IdP only grants its roles.
func TestIdPReplaceKeepsGrantsMeaningful(t *testing.T) {
	t.Parallel()
	e := start(t)
	e.putIdP("corp", idpBody(e.issuer, ""))
	grant := e.do("POST", "/admin/role-grants", `{"idp": "corp", "kind": "subject", "match": "sub-1", "role": "admin"}`)
	if grant.Status != 201 {
		t.Fatalf("grant: %d %s", grant.Status, grant.Body)
	}
	id := grant.Object(t)["grant"].(map[string]any)["id"].(string)

	for _, tc := range []struct{ name, body, mention string }{
		{"another issuer with subject grants", idpBody(e.issuer2, ""), "subject grants (" + id + ")"},
		{"a tenant's own with an operator grant", idpBody(e.issuer, `, "tenant_id": "acme"`), "outside tenant acme (" + id + ")"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("PUT", "/admin/sso/idps/corp", tc.body)
			if r.Status != 409 || r.Code(t) != "CONFLICT" || !strings.Contains(r.Body, tc.mention) {
				t.Errorf("replace: %d %s, want 409 mentioning %q", r.Status, r.Body, tc.mention)
			}
		})
	}
	if p, err := e.store.GetIdP(t.Context(), "corp"); err != nil || p.Issuer != e.issuer || p.TenantID != "" {
		t.Errorf("refused replaces changed the IdP: %+v (%v)", p, err)
	}

	// Without the subject grant, the issuer may move.
	if r := e.do("DELETE", "/admin/role-grants/"+id, ""); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := e.do("POST", "/admin/role-grants", `{"idp": "corp", "kind": "group", "match": "acme-owners", "role": "owner", "tenant_id": "acme"}`); r.Status != 201 {
		t.Fatalf("grant: %d %s", r.Status, r.Body)
	}
	if r := e.do("PUT", "/admin/sso/idps/corp", `{"issuer": "`+e.issuer2+`", "client_id": "c", "tenant_id": "acme"}`); r.Status != 200 {
		t.Errorf("moving the issuer and the tenant with only the tenant's group grant: %d %s", r.Status, r.Body)
	}
}

func TestRequiresTheAdminKey(t *testing.T) {
	t.Parallel()
	e := start(t)
	for _, path := range []string{"/admin/sso/idps", "/admin/people", "/admin/role-grants"} {
		resp, err := http.Get(e.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("GET %s without the admin key: %d, want 401", path, resp.StatusCode)
		}
	}
}
