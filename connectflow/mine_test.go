package connectflow_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/connectflow"
)

// createMine answers POST /admin/tenants/acme/connect-links/mine with body
// as actor (nil: none in the context).
func (e *env) createMine(actor *gtmgate.Actor, body string) *httptest.ResponseRecorder {
	mux := http.NewServeMux()
	e.flow.MountAdmin(mux)
	r := httptest.NewRequest("POST", "/admin/tenants/acme/connect-links/mine", strings.NewReader(body))
	if actor != nil {
		r = r.WithContext(gtmgate.WithActor(r.Context(), actor))
	}
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, r)
	return w
}

// TestLinkForMyself: a signed-in person's link connects their own account,
// whoever they name in the body; a caller that is no person is refused.
func TestLinkForMyself(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rep, err := e.store.SignedIn(ctx, "corp", gtmgate.Identity{Issuer: "https://idp.example", Subject: "rep-1", Email: "rep@acme.example"}, e.now)
	if err != nil {
		t.Fatal(err)
	}
	other, err := e.store.SignedIn(ctx, "corp", gtmgate.Identity{Issuer: "https://idp.example", Subject: "ceo-1", Email: "ceo@acme.example"}, e.now)
	if err != nil {
		t.Fatal(err)
	}
	me := &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: rep.ID, Name: "rep@acme.example", Via: "sso:corp",
		Roles: []gtmgate.RoleGrant{{Role: gtmgate.RoleViewer, TenantID: "acme"}}}

	for name, tc := range map[string]struct {
		actor  *gtmgate.Actor
		body   string
		status int
		want   string
	}{
		"the admin key":     {gtmgate.BreakGlass("console:admin-key"), `{"provider":"hubspot"}`, 403, "admin key is no person"},
		"a named admin key": {&gtmgate.Actor{Kind: gtmgate.ActorAPIKey, ID: "ak_1", Name: "ci", Scopes: []string{"read"}}, `{"provider":"hubspot"}`, 403, "ci is no person"},
		"no actor":          {nil, `{"provider":"hubspot"}`, 403, "no person"},
		"naming a person":   {me, `{"provider":"hubspot","person":"` + other.ID + `"}`, 400, `unknown field \"person`},
		"an account hint":   {me, `{"provider":"hubspot","account_hint":"24681357"}`, 400, `unknown field \"account_hint`},
		"an unknown family": {me, `{"provider":"myspace"}`, 400, "neither a family"},
	} {
		if w := e.createMine(tc.actor, tc.body); w.Code != tc.status || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%s: %d %s, want %d with %q", name, w.Code, w.Body, tc.status, tc.want)
		}
	}
	if links, _ := e.store.ListConnectLinks(ctx, "acme", 10); len(links) != 0 {
		t.Fatalf("refused requests created links: %+v", links)
	}

	w := e.createMine(me, `{"provider":"hubspot"}`)
	var c connectflow.Created
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil || w.Code != 201 || c.Person != rep.ID {
		t.Fatalf("the rep's own link: %d %s", w.Code, w.Body)
	}
	links, _ := e.store.ListConnectLinks(ctx, "acme", 10)
	if len(links) != 1 || links[0].Person != rep.ID || links[0].CreatedBy != "person:"+rep.ID {
		t.Fatalf("stored link: %+v", links)
	}
	state, cookie := e.open(t, strings.TrimPrefix(c.URL, "https://gw.example/connect/"))
	if done := e.do("GET", "/connect/callback?code=the-code-1234567&state="+url.QueryEscape(state), cookie); done.Code != 200 {
		t.Fatalf("callback: %d %s", done.Code, done.Body)
	}
	tenant, _ := e.store.GetTenant(ctx, "acme")
	if pa := tenant.Providers["hubspot"]; len(pa.Accounts) != 1 || pa.Accounts[0].Person != rep.ID {
		t.Errorf("the portal is not the rep's own: %+v", tenant.Providers)
	}
}
