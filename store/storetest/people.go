package storetest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func testIdPs(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	p := &gtmgate.IdP{Name: "corp", Issuer: "https://idp.example", ClientID: "cid", ClientSecret: "idp-secret-1",
		AllowedDomains: []string{"example.com", "example.org"}, GroupsClaim: "groups"}
	created, err := s.PutIdP(ctx, p)
	must(t, err)
	if !created {
		t.Error("first put did not create")
	}
	if raw := rawString(t, s, "SELECT client_secret FROM sso_idps WHERE name = ?", "corp"); strings.Contains(raw, "idp-secret-1") || !strings.HasPrefix(raw, "v1:") {
		t.Errorf("client secret stored as %q, want it sealed", raw)
	}
	p.ClientSecret, p.DisplayName = "idp-secret-2", "Corp SSO"
	if created, err := s.PutIdP(ctx, p); err != nil || created {
		t.Errorf("replace: created=%v err=%v", created, err)
	}
	got, err := s.GetIdP(ctx, "corp")
	must(t, err)
	if got.ClientSecret != "idp-secret-2" || got.DisplayName != "Corp SSO" || !slices.Equal(got.AllowedDomains, p.AllowedDomains) || got.GroupsClaim != "groups" {
		t.Errorf("read back %+v", got)
	}
	_, err = s.PutIdP(ctx, &gtmgate.IdP{Name: "ghost", Issuer: "https://x", ClientID: "c", TenantID: "nobody"})
	wantErr(t, err, gtmgate.ErrNotFound)
	_, err = s.PutIdP(ctx, &gtmgate.IdP{Name: "acme-okta", Issuer: "https://acme.okta", ClientID: "c", TenantID: "acme"})
	must(t, err)
	list, err := s.ListIdPs(ctx)
	must(t, err)
	if len(list) != 2 || list[0].Name != "acme-okta" || list[0].TenantID != "acme" {
		t.Errorf("listed %+v", list)
	}
	_, err = s.GetIdP(ctx, "ghost")
	wantErr(t, err, gtmgate.ErrNotFound)
	wantErr(t, s.DeleteIdP(ctx, "ghost"), gtmgate.ErrNotFound)
}

func testPeopleAndGrants(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	putTenant(t, s, "acme")
	_, err := s.PutIdP(ctx, &gtmgate.IdP{Name: "corp", Issuer: "https://idp.example", ClientID: "cid"})
	must(t, err)

	id := gtmgate.Identity{Issuer: "https://idp.example", Subject: "sub-1", Email: "Ada@Example.com", EmailVerified: true, Name: "Ada"}
	p, err := s.SignedIn(ctx, "corp", id, t0)
	must(t, err)
	if p.ID == "" || p.Email != "Ada@Example.com" || !p.CreatedAt.Equal(t0) {
		t.Fatalf("first sign-in: %+v", p)
	}
	id.Name = "Ada L."
	again, err := s.SignedIn(ctx, "corp", id, t0.Add(timeStep(5)))
	must(t, err)
	if again.ID != p.ID || again.Name != "Ada L." || !again.CreatedAt.Equal(t0) || !again.LastSeenAt.Equal(t0.Add(timeStep(5))) {
		t.Errorf("second sign-in: %+v, want the same person refreshed", again)
	}

	for _, g := range []*gtmgate.RoleGrant{
		{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "sub-1", Role: gtmgate.RoleAdmin},
		{IdP: "corp", Kind: gtmgate.GrantEmail, Match: "Bob@Example.com", Role: gtmgate.RoleApprover, TenantID: "acme", Categories: []string{"ads", "email"}},
		{IdP: "corp", Kind: gtmgate.GrantGroup, Match: "sales", Role: gtmgate.RoleViewer, TenantID: "acme", CreatedBy: "person:p_x"},
	} {
		must(t, s.PutRoleGrant(ctx, g))
	}
	wantErr(t, s.PutRoleGrant(ctx, &gtmgate.RoleGrant{IdP: "corp", Kind: gtmgate.GrantGroup, Match: "sales", Role: gtmgate.RoleViewer, TenantID: "acme"}), gtmgate.ErrConflict)
	grants, err := s.ListRoleGrants(ctx, "corp")
	must(t, err)
	if len(grants) != 3 {
		t.Fatalf("grants %+v", grants)
	}
	var email *gtmgate.RoleGrant
	for _, g := range grants {
		if g.Kind == gtmgate.GrantEmail {
			email = g
		}
	}
	if email == nil || email.Match != "bob@example.com" || !slices.Equal(email.Categories, []string{"ads", "email"}) {
		t.Errorf("email grant read back as %+v, want lower-cased match and its categories", email)
	}
	if other, err := s.ListRoleGrants(ctx, "elsewhere"); err != nil || len(other) != 0 {
		t.Errorf("another idp's grants: %+v, %v", other, err)
	}

	// Deleting a person ends their sessions and drops their subject grants.
	must(t, s.CreateConsoleSession(ctx, &gtmgate.ConsoleSession{Hash: "ps1", PersonID: p.ID, IdP: "corp", Identity: id,
		CreatedAt: t0, ExpiresAt: t0.Add(timeStep(60))}))
	cs, err := s.GetConsoleSession(ctx, "ps1", t0)
	must(t, err)
	if cs.PersonID != p.ID || cs.Identity.Subject != "sub-1" || cs.Identity.Name != "Ada L." || cs.KeyHash != "" {
		t.Errorf("person session read back as %+v", cs)
	}
	// Their own grant of an upstream MCP server, and another person's.
	for _, account := range []string{p.ID, "p_other"} {
		must(t, s.PutProviderToken(ctx, &gtmgate.ProviderToken{TenantID: "acme", Provider: gtmgate.MCPGrantProvider("crm"), AccountID: account, AccessToken: "at-" + account}))
		must(t, s.PutProviderOAuth(ctx, &gtmgate.ProviderOAuth{TenantID: "acme", Provider: gtmgate.MCPGrantProvider("crm"), AccountID: account,
			ClientID: "c", TokenEndpoint: "https://as.example/token", RefreshToken: "rt-" + account}))
	}
	must(t, s.DeletePerson(ctx, p.ID))
	for account, want := range map[string]error{p.ID: gtmgate.ErrNotFound, "p_other": nil} {
		_, err := s.GetProviderToken(ctx, "acme", gtmgate.MCPGrantProvider("crm"), account)
		_, oerr := s.GetProviderOAuth(ctx, "acme", gtmgate.MCPGrantProvider("crm"), account)
		if !errors.Is(err, want) || !errors.Is(oerr, want) {
			t.Errorf("grant of %s after deleting the person: %v / %v, want %v", account, err, oerr, want)
		}
	}
	_, err = s.GetConsoleSession(ctx, "ps1", t0)
	wantErr(t, err, gtmgate.ErrNotFound)
	if grants, _ := s.ListRoleGrants(ctx, "corp"); len(grants) != 2 {
		t.Errorf("after deleting the person: %+v, want the subject grant gone", grants)
	}
	wantErr(t, s.DeletePerson(ctx, p.ID), gtmgate.ErrNotFound)
	wantErr(t, s.DeleteRoleGrant(ctx, "rg_unknown"), gtmgate.ErrNotFound)
	must(t, s.DeleteRoleGrant(ctx, email.ID))

	// Deleting the IdP takes its people, grants and sessions.
	q, err := s.SignedIn(ctx, "corp", gtmgate.Identity{Issuer: "https://idp.example", Subject: "sub-2"}, t0)
	must(t, err)
	must(t, s.CreateConsoleSession(ctx, &gtmgate.ConsoleSession{Hash: "ps2", PersonID: q.ID, IdP: "corp", CreatedAt: t0, ExpiresAt: t0.Add(timeStep(60))}))
	must(t, s.DeleteIdP(ctx, "corp"))
	_, err = s.GetConsoleSession(ctx, "ps2", t0)
	wantErr(t, err, gtmgate.ErrNotFound)
	if people, _ := s.ListPeople(ctx); len(people) != 0 {
		t.Errorf("people after the IdP went: %+v", people)
	}
	if grants, _ := s.ListRoleGrants(ctx, ""); len(grants) != 0 {
		t.Errorf("grants after the IdP went: %+v", grants)
	}
	// A session needs exactly one of a key hash and a person.
	err = s.CreateConsoleSession(ctx, &gtmgate.ConsoleSession{Hash: "both", KeyHash: "k", PersonID: "p", ExpiresAt: t0.Add(timeStep(1))})
	if err == nil || gtmgate.AsError(err).Code != gtmgate.EValidation {
		t.Errorf("a session with both a key hash and a person: %v, want a validation error", err)
	}
}

func testSignIns(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	in := &gtmgate.SignIn{StateHash: "sh1", IdP: "corp", Nonce: "n1", Verifier: "pkce-verifier-secret", Next: "/console/approvals",
		CreatedAt: t0, ExpiresAt: t0.Add(timeStep(10))}
	must(t, s.CreateSignIn(ctx, in))
	if raw := rawString(t, s, "SELECT verifier FROM sso_signins WHERE state_hash = ?", "sh1"); strings.Contains(raw, "pkce-verifier-secret") {
		t.Errorf("verifier stored in the clear")
	}
	got, err := s.TakeSignIn(ctx, "sh1", t0.Add(timeStep(5)))
	must(t, err)
	if got.Verifier != "pkce-verifier-secret" || got.Nonce != "n1" || got.Next != "/console/approvals" || got.IdP != "corp" {
		t.Errorf("took %+v", got)
	}
	_, err = s.TakeSignIn(ctx, "sh1", t0.Add(timeStep(5)))
	wantErr(t, err, gtmgate.ErrNotFound) // a replayed callback

	must(t, s.CreateSignIn(ctx, &gtmgate.SignIn{StateHash: "sh2", IdP: "corp", Verifier: "v", CreatedAt: t0, ExpiresAt: t0.Add(timeStep(10))}))
	_, err = s.TakeSignIn(ctx, "sh2", t0.Add(timeStep(10)))
	wantErr(t, err, gtmgate.ErrNotFound) // expired
	_, err = s.TakeSignIn(ctx, "sh2", t0)
	wantErr(t, err, gtmgate.ErrNotFound) // and gone: an expired one is not kept for later

	must(t, s.CreateSignIn(ctx, &gtmgate.SignIn{StateHash: "sh3", IdP: "corp", Verifier: "v", CreatedAt: t0, ExpiresAt: t0.Add(timeStep(1))}))
	if n, err := s.PruneRecords(ctx, gtmgate.RecordConsoleSessions, t0.Add(timeStep(2)), 10); err != nil || n != 1 {
		t.Errorf("pruned %d (%v), want the abandoned sign-in", n, err)
	}
}
