package people_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/admin"
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
	sum := sha256.Sum256([]byte(adminKey))
	mux.Handle("/admin/", admin.New(admin.Options{Store: st, Recorder: e.audit, KeyHash: hex.EncodeToString(sum[:]),
		Extra: []func(gtmgate.Router){e.api.Mount}}))
	return e
}

type answer struct {
	status int
	body   string
}

func (e *env) do(method, path, body string) answer {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("X-Admin-Key", adminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(b), idpSecret) {
		e.t.Errorf("%s %s answered with the client secret: %s", method, path, b)
	}
	return answer{resp.StatusCode, string(b)}
}

// putIdP creates an IdP through the API, or fails the test.
func (e *env) putIdP(name, body string) map[string]any {
	e.t.Helper()
	r := e.do("PUT", "/admin/sso/idps/"+name, body)
	if r.status != 201 {
		e.t.Fatalf("create idp %s: %d %s", name, r.status, r.body)
	}
	return r.decode(e.t)["idp"].(map[string]any)
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

func (a answer) decode(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(a.body), &m); err != nil {
		t.Fatalf("answer is not a JSON object: %v: %s", err, a.body)
	}
	return m
}

func (a answer) errorCode(t *testing.T) string {
	t.Helper()
	e, _ := a.decode(t)["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func idpBody(issuer string, extra string) string {
	return `{"issuer": "` + issuer + `", "client_id": "gtmgate-client", "client_secret": "` + idpSecret + `"` + extra + `}`
}

func TestIdPPutGetListDelete(t *testing.T) {
	t.Parallel()
	e := start(t)

	list := e.do("GET", "/admin/sso/idps", "")
	if list.status != 200 || strings.TrimSpace(list.body) != `{"idps":[],"redirect_uri":"`+redirect+`"}` {
		t.Fatalf("empty list: %d %s", list.status, list.body)
	}

	put := e.do("PUT", "/admin/sso/idps/corp", idpBody(e.issuer, `, "display_name": "Corp SSO",
		"allowed_domains": ["Example.com", "example.com", "example.org"]`))
	if put.status != 201 || put.decode(t)["created"] != true {
		t.Fatalf("create: %d %s", put.status, put.body)
	}
	idp := put.decode(t)["idp"].(map[string]any)
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
	if put.status != 200 || put.decode(t)["created"] != false {
		t.Fatalf("replace: %d %s", put.status, put.body)
	}
	if !strings.Contains(put.body, `"allowed_domains":[]`) || !strings.Contains(put.body, `"groups_claim":"https://example.com/roles"`) {
		t.Errorf("replaced idp: %s", put.body)
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
	if get.status != 200 || !strings.Contains(get.body, `"tenant_id":"acme"`) || !strings.Contains(get.body, `"issuer":"`+e.issuer2+`"`) {
		t.Errorf("get: %d %s", get.status, get.body)
	}
	if a := e.audit.Last(); a.Action != "admin.sso.idps.get" {
		t.Errorf("get audited as %q", a.Action)
	}
	list = e.do("GET", "/admin/sso/idps", "")
	idps, _ := list.decode(t)["idps"].([]any)
	if list.status != 200 || len(idps) != 2 || idps[0].(map[string]any)["name"] != "acme-sso" {
		t.Fatalf("list: %d %s", list.status, list.body)
	}

	// Deleting an IdP removes its grants and its people.
	if r := e.do("POST", "/admin/role-grants", `{"idp": "corp", "kind": "group", "match": "ops", "role": "admin"}`); r.status != 201 {
		t.Fatalf("grant: %d %s", r.status, r.body)
	}
	if _, err := e.store.SignedIn(t.Context(), "corp", gtmgate.Identity{Issuer: e.issuer, Subject: "sub-1"}, stored.CreatedAt); err != nil {
		t.Fatal(err)
	}
	del := e.do("DELETE", "/admin/sso/idps/corp", "")
	if del.status != 200 || del.decode(t)["deleted"] != true || !strings.Contains(del.body, `"client_id":"gtmgate-client-2"`) {
		t.Errorf("delete: %d %s", del.status, del.body)
	}
	if grants, err := e.store.ListRoleGrants(t.Context(), "corp"); err != nil || len(grants) != 0 {
		t.Errorf("grants after deleting their IdP: %v (%v)", grants, err)
	}
	if ps, err := e.store.ListPeople(t.Context()); err != nil || len(ps) != 0 {
		t.Errorf("people after deleting their IdP: %v (%v)", ps, err)
	}
	for _, method := range []string{"GET", "DELETE"} {
		if r := e.do(method, "/admin/sso/idps/corp", ""); r.status != 404 || r.errorCode(t) != "NOT_FOUND" || !strings.Contains(r.body, `\"corp\"`) {
			t.Errorf("%s after delete: %d %s", method, r.status, r.body)
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
			msg, _ := r.decode(t)["error"].(map[string]any)["message"].(string)
			if r.errorCode(t) != tc.code || !strings.Contains(msg, tc.issuer) || !strings.Contains(msg, tc.mention) ||
				!strings.Contains(msg, "/.well-known/openid-configuration") {
				t.Errorf("PUT with issuer %s: %d %s, want %s naming the issuer, %q and the discovery document", tc.issuer, r.status, r.body, tc.code, tc.mention)
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
			if r.status != tc.status || r.errorCode(t) != tc.code || !strings.Contains(r.body, tc.mention) {
				t.Errorf("%s %s: %d %s, want %d %s mentioning %q", tc.method, tc.path, r.status, r.body, tc.status, tc.code, tc.mention)
			}
			if strings.Contains(r.body, "two words") {
				t.Errorf("the answer quotes the client secret: %s", r.body)
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
	if grant.status != 201 {
		t.Fatalf("grant: %d %s", grant.status, grant.body)
	}
	id := grant.decode(t)["grant"].(map[string]any)["id"].(string)

	for _, tc := range []struct{ name, body, mention string }{
		{"another issuer with subject grants", idpBody(e.issuer2, ""), "subject grants (" + id + ")"},
		{"a tenant's own with an operator grant", idpBody(e.issuer, `, "tenant_id": "acme"`), "outside tenant acme (" + id + ")"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("PUT", "/admin/sso/idps/corp", tc.body)
			if r.status != 409 || r.errorCode(t) != "CONFLICT" || !strings.Contains(r.body, tc.mention) {
				t.Errorf("replace: %d %s, want 409 mentioning %q", r.status, r.body, tc.mention)
			}
		})
	}
	if p, err := e.store.GetIdP(t.Context(), "corp"); err != nil || p.Issuer != e.issuer || p.TenantID != "" {
		t.Errorf("refused replaces changed the IdP: %+v (%v)", p, err)
	}

	// Without the subject grant, the issuer may move.
	if r := e.do("DELETE", "/admin/role-grants/"+id, ""); r.status != 200 {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	if r := e.do("POST", "/admin/role-grants", `{"idp": "corp", "kind": "group", "match": "acme-owners", "role": "owner", "tenant_id": "acme"}`); r.status != 201 {
		t.Fatalf("grant: %d %s", r.status, r.body)
	}
	if r := e.do("PUT", "/admin/sso/idps/corp", `{"issuer": "`+e.issuer2+`", "client_id": "c", "tenant_id": "acme"}`); r.status != 200 {
		t.Errorf("moving the issuer and the tenant with only the tenant's group grant: %d %s", r.status, r.body)
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
