package people_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

// withIdPs creates corp, an IdP of the operator's, and acme-sso, tenant
// acme's own.
func withIdPs(t *testing.T) *env {
	t.Helper()
	e := start(t)
	e.putIdP("corp", idpBody(e.issuer, ""))
	e.putIdP("acme-sso", idpBody(e.issuer2, `, "tenant_id": "acme"`))
	return e
}

func TestGrantCreateListDelete(t *testing.T) {
	t.Parallel()
	e := withIdPs(t)

	r := e.do("POST", "/admin/role-grants", `{"idp": "corp", "kind": "email", "match": "Ada@Example.com", "role": "approver",
		"tenant_id": "acme", "categories": ["ads_mutate", "email_send", "ads_mutate"], "tools": ["gmail_messages", "slack__post_message"]}`)
	if r.Status != 201 {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var created struct{ Grant gtmgate.RoleGrant }
	if err := json.Unmarshal([]byte(r.Body), &created); err != nil {
		t.Fatal(err)
	}
	g := created.Grant
	if !strings.HasPrefix(g.ID, "rg_") || g.Match != "ada@example.com" || g.CreatedBy != "admin-key" || g.CreatedAt.IsZero() ||
		strings.Join(g.Categories, " ") != "ads_mutate email_send" || len(g.Tools) != 2 {
		t.Errorf("created grant = %+v", g)
	}
	if a := e.audit.Last(); a.Action != "admin.role-grants.post" || a.Detail != `grant `+g.ID+`: approver in tenant acme to email "ada@example.com" of idp corp` {
		t.Errorf("audit entry = %+v", a)
	}
	for _, body := range []string{
		`{"idp": "corp", "kind": "group", "match": "ops", "role": "admin"}`,
		`{"idp": "corp", "kind": "subject", "match": "sub-9", "role": "viewer", "tenant_id": "globex"}`,
		`{"idp": "acme-sso", "kind": "group", "match": "Finance Team", "role": "member", "tenant_id": "acme"}`,
	} {
		if r := e.do("POST", "/admin/role-grants", body); r.Status != 201 {
			t.Fatalf("create %s: %d %s", body, r.Status, r.Body)
		}
	}

	for _, tc := range []struct {
		name, query string
		want        int
	}{
		{"every grant", "", 4},
		{"one IdP's", "?idp=acme-sso", 1},
		{"one tenant's", "?tenant=acme", 2},
		{"one IdP's in one tenant", "?idp=corp&tenant=acme", 1},
		{"operator roles are no tenant's", "?tenant=nobody", 0},
		{"an unknown IdP's", "?idp=ghost", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("GET", "/admin/role-grants"+tc.query, "")
			var list struct{ Grants []gtmgate.RoleGrant }
			if err := json.Unmarshal([]byte(r.Body), &list); r.Status != 200 || err != nil || len(list.Grants) != tc.want ||
				!strings.Contains(r.Body, `"grants":[`) {
				t.Errorf("GET /admin/role-grants%s: %d %s, want %d grants", tc.query, r.Status, r.Body, tc.want)
			}
		})
	}

	del := e.do("DELETE", "/admin/role-grants/"+g.ID, "")
	if del.Status != 200 || strings.TrimSpace(del.Body) != `{"deleted":true,"id":"`+g.ID+`"}` {
		t.Errorf("delete: %d %s", del.Status, del.Body)
	}
	if r := e.do("DELETE", "/admin/role-grants/"+g.ID, ""); r.Status != 404 || r.Code(t) != "NOT_FOUND" || !strings.Contains(r.Body, g.ID) {
		t.Errorf("second delete: %d %s", r.Status, r.Body)
	}
	if grants, err := e.store.ListRoleGrants(t.Context(), ""); err != nil || len(grants) != 3 {
		t.Errorf("after a delete the store holds %d grants (%v), want 3", len(grants), err)
	}
}

func TestGrantRefusals(t *testing.T) {
	t.Parallel()
	e := withIdPs(t)
	if r := e.do("POST", "/admin/role-grants", `{"idp": "corp", "kind": "group", "match": "ops", "role": "viewer"}`); r.Status != 201 {
		t.Fatalf("the grant to duplicate: %d %s", r.Status, r.Body)
	}
	for _, tc := range []struct {
		name, body    string
		status        int
		code, mention string
	}{
		{"unknown kind", `{"idp": "corp", "kind": "domain", "match": "example.com", "role": "viewer"}`, 400, "VALIDATION_ERROR", "not subject, email or group"},
		{"unknown role", `{"idp": "corp", "kind": "group", "match": "ops", "role": "superuser"}`, 400, "VALIDATION_ERROR", "not admin, viewer, owner, approver or member"},
		{"no match", `{"idp": "corp", "kind": "group", "match": " ", "role": "viewer"}`, 400, "VALIDATION_ERROR", "the idp and the group"},
		{"no idp", `{"kind": "group", "match": "ops", "role": "viewer"}`, 400, "VALIDATION_ERROR", "the idp and the group"},
		{"admin in a tenant", `{"idp": "corp", "kind": "group", "match": "ops", "role": "admin", "tenant_id": "acme"}`, 400, "VALIDATION_ERROR", "operator role"},
		{"owner without a tenant", `{"idp": "corp", "kind": "group", "match": "ops", "role": "owner"}`, 400, "VALIDATION_ERROR", "tenant_id is required"},
		{"limits on a member", `{"idp": "corp", "kind": "group", "match": "ops", "role": "member", "tenant_id": "acme", "tools": ["crm_contacts"]}`, 400, "VALIDATION_ERROR", "limit an approver"},
		{"unknown category", `{"idp": "corp", "kind": "group", "match": "ops", "role": "approver", "tenant_id": "acme", "categories": ["ads"]}`, 400, "VALIDATION_ERROR", "categories[0]"},
		{"tool with a space", `{"idp": "corp", "kind": "group", "match": "ops", "role": "approver", "tenant_id": "acme", "tools": ["crm contacts"]}`, 400, "VALIDATION_ERROR", "tools[0]"},
		{"email without @", `{"idp": "corp", "kind": "email", "match": "ada.example.com", "role": "viewer"}`, 400, "VALIDATION_ERROR", "not an email address"},
		{"match with surrounding spaces", `{"idp": "corp", "kind": "group", "match": " ops", "role": "viewer"}`, 400, "VALIDATION_ERROR", "starts or ends with a space"},
		{"unknown member", `{"idp": "corp", "kind": "group", "match": "ops", "role": "viewer", "expires": "never"}`, 400, "VALIDATION_ERROR", "expires"},
		{"unknown idp", `{"idp": "ghost", "kind": "group", "match": "ops", "role": "viewer"}`, 404, "NOT_FOUND", `\"ghost\"`},
		{"unknown tenant", `{"idp": "corp", "kind": "group", "match": "ops", "role": "owner", "tenant_id": "nobody"}`, 404, "TENANT_NOT_FOUND", "nobody"},
		{"tenant IdP grants an operator role", `{"idp": "acme-sso", "kind": "group", "match": "it", "role": "admin"}`, 400, "VALIDATION_ERROR", "never grants operator roles"},
		{"tenant IdP grants operator viewer", `{"idp": "acme-sso", "kind": "group", "match": "it", "role": "viewer"}`, 400, "VALIDATION_ERROR", "can only grant roles in acme"},
		{"tenant IdP grants another tenant's role", `{"idp": "acme-sso", "kind": "group", "match": "it", "role": "owner", "tenant_id": "globex"}`, 400, "VALIDATION_ERROR", "other tenants' roles"},
		{"duplicate", `{"idp": "corp", "kind": "group", "match": "ops", "role": "viewer"}`, 409, "CONFLICT", "already grants viewer to group"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/admin/role-grants", tc.body)
			if r.Status != tc.status || r.Code(t) != tc.code || !strings.Contains(r.Body, tc.mention) {
				t.Errorf("POST %s: %d %s, want %d %s mentioning %q", tc.body, r.Status, r.Body, tc.status, tc.code, tc.mention)
			}
		})
	}
	if grants, err := e.store.ListRoleGrants(t.Context(), ""); err != nil || len(grants) != 1 {
		t.Errorf("refused grants were stored: %v (%v)", grants, err)
	}
}

// A grant made by a signed-in person names them, not the admin key.
func TestGrantNamesItsMaker(t *testing.T) {
	t.Parallel()
	e := withIdPs(t)
	mux := http.NewServeMux()
	e.api.Mount(mux)
	actor := &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: "p_ada", Name: "ada@example.com", Via: "sso:corp"}
	req := httptest.NewRequestWithContext(gtmgate.WithActor(t.Context(), actor), "POST", "/admin/role-grants",
		strings.NewReader(`{"idp": "corp", "kind": "group", "match": "ops", "role": "admin"}`))
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, req)
	if w.Code != 201 || !strings.Contains(w.Body.String(), `"created_by":"person:p_ada"`) {
		t.Errorf("grant by a person: %d %s", w.Code, w.Body)
	}
}

func TestPeopleListDelete(t *testing.T) {
	t.Parallel()
	e := withIdPs(t)
	if r := e.do("GET", "/admin/people", ""); r.Status != 200 || strings.TrimSpace(r.Body) != `{"people":[]}` {
		t.Fatalf("empty list: %d %s", r.Status, r.Body)
	}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	ada, err := e.store.SignedIn(t.Context(), "corp", gtmgate.Identity{Issuer: e.issuer, Subject: "sub-ada", Email: "ada@example.com", EmailVerified: true}, at)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.SignedIn(t.Context(), "corp", gtmgate.Identity{Issuer: e.issuer, Subject: "sub-bob", Email: "bob@example.com"}, at); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{"idp": "corp", "kind": "subject", "match": "sub-ada", "role": "admin"}`,
		`{"idp": "corp", "kind": "email", "match": "ada@example.com", "role": "viewer"}`,
	} {
		if r := e.do("POST", "/admin/role-grants", body); r.Status != 201 {
			t.Fatalf("grant: %d %s", r.Status, r.Body)
		}
	}
	list := e.do("GET", "/admin/people", "")
	var people struct{ People []gtmgate.Person }
	if err := json.Unmarshal([]byte(list.Body), &people); err != nil || list.Status != 200 || len(people.People) != 2 ||
		people.People[0].Email != "ada@example.com" || people.People[0].IdP != "corp" {
		t.Fatalf("list: %d %s", list.Status, list.Body)
	}

	del := e.do("DELETE", "/admin/people/"+ada.ID, "")
	if del.Status != 200 || del.Object(t)["deleted"] != true || !strings.Contains(del.Body, `"id":"`+ada.ID+`"`) {
		t.Errorf("delete: %d %s", del.Status, del.Body)
	}
	if a := e.audit.Last(); a.Action != "admin.people.delete" || !strings.Contains(a.Detail, ada.ID) {
		t.Errorf("audit entry = %+v", a)
	}
	// Their subject grant goes with them; the email grant stays.
	grants, err := e.store.ListRoleGrants(t.Context(), "corp")
	if err != nil || len(grants) != 1 || grants[0].Kind != gtmgate.GrantEmail {
		t.Errorf("grants after deleting the person: %+v (%v)", grants, err)
	}
	if r := e.do("DELETE", "/admin/people/"+ada.ID, ""); r.Status != 404 || r.Code(t) != "NOT_FOUND" || !strings.Contains(r.Body, ada.ID) {
		t.Errorf("second delete: %d %s", r.Status, r.Body)
	}
}
