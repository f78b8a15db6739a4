package gtmgate_test

import (
	"testing"

	"github.com/gtmgate/gtmgate"
)

func person(grants ...gtmgate.RoleGrant) *gtmgate.Actor {
	return &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: "p_1", Name: "ada@example.com", Via: "sso:corp", Roles: grants}
}

func role(r, tenant string) gtmgate.RoleGrant { return gtmgate.RoleGrant{Role: r, TenantID: tenant} }

func TestActorAllows(t *testing.T) {
	all := []gtmgate.Access{gtmgate.AccessRead, gtmgate.AccessApprove, gtmgate.AccessWrite, gtmgate.AccessOwner, gtmgate.AccessOperator}
	for _, tc := range []struct {
		name   string
		actor  *gtmgate.Actor
		tenant string
		want   []gtmgate.Access // the accesses allowed; the rest refused
	}{
		{"break-glass key, operator route", gtmgate.BreakGlass("x-admin-key"), "", all},
		{"break-glass key, tenant route", gtmgate.BreakGlass("x-admin-key"), "acme", all},
		{"operator admin", person(role(gtmgate.RoleAdmin, "")), "acme", all},
		{"operator viewer, tenant", person(role(gtmgate.RoleViewer, "")), "acme", []gtmgate.Access{gtmgate.AccessRead}},
		{"operator viewer, operator route", person(role(gtmgate.RoleViewer, "")), "", []gtmgate.Access{gtmgate.AccessRead}},
		{"owner of acme", person(role(gtmgate.RoleOwner, "acme")), "acme",
			[]gtmgate.Access{gtmgate.AccessRead, gtmgate.AccessApprove, gtmgate.AccessWrite, gtmgate.AccessOwner}},
		{"approver of acme", person(role(gtmgate.RoleApprover, "acme")), "acme", []gtmgate.Access{gtmgate.AccessRead, gtmgate.AccessApprove}},
		{"member of acme", person(role(gtmgate.RoleMember, "acme")), "acme", []gtmgate.Access{gtmgate.AccessRead, gtmgate.AccessWrite}},
		{"viewer of acme", person(role(gtmgate.RoleViewer, "acme")), "acme", []gtmgate.Access{gtmgate.AccessRead}},
		{"owner of acme, another tenant", person(role(gtmgate.RoleOwner, "acme")), "globex", nil},
		{"owner of acme, operator route", person(role(gtmgate.RoleOwner, "acme")), "", nil},
		{"no role", person(), "acme", nil},
		{"approver of one, viewer of another", person(role(gtmgate.RoleApprover, "acme"), role(gtmgate.RoleViewer, "globex")), "globex",
			[]gtmgate.Access{gtmgate.AccessRead}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, need := range all {
				want := false
				for _, w := range tc.want {
					want = want || w == need
				}
				if got := tc.actor.Allows(need, tc.tenant); got != want {
					t.Errorf("Allows(%s, %q) = %v, want %v", need, tc.tenant, got, want)
				}
			}
		})
	}
}

func TestActorCanDecide(t *testing.T) {
	limited := gtmgate.RoleGrant{Role: gtmgate.RoleApprover, TenantID: "acme", Categories: []string{"ads_mutate"}, Tools: []string{"gmail_send"}}
	for _, tc := range []struct {
		name                   string
		actor                  *gtmgate.Actor
		tenant, category, tool string
		want                   bool
	}{
		{"operator admin", person(role(gtmgate.RoleAdmin, "")), "acme", "email_send", "gmail_send", true},
		{"operator viewer", person(role(gtmgate.RoleViewer, "")), "acme", "ads_mutate", "google_ads_campaigns", false},
		{"owner", person(role(gtmgate.RoleOwner, "acme")), "acme", "ads_mutate", "google_ads_campaigns", true},
		{"unlimited approver", person(role(gtmgate.RoleApprover, "acme")), "acme", "crm_write", "crm_deals", true},
		{"approver of another tenant", person(role(gtmgate.RoleApprover, "globex")), "acme", "ads_mutate", "google_ads_campaigns", false},
		{"limited approver, its category", person(limited), "acme", "ads_mutate", "google_ads_campaigns", true},
		{"limited approver, its tool", person(limited), "acme", "email_send", "gmail_send", true},
		{"limited approver, another category", person(limited), "acme", "crm_write", "crm_deals", false},
		{"member", person(role(gtmgate.RoleMember, "acme")), "acme", "ads_mutate", "google_ads_campaigns", false},
		{"viewer", person(role(gtmgate.RoleViewer, "acme")), "acme", "ads_mutate", "google_ads_campaigns", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.actor.CanDecide(tc.tenant, tc.category, tc.tool); got != tc.want {
				t.Errorf("CanDecide = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestGrantsFor(t *testing.T) {
	corp := &gtmgate.IdP{Name: "corp"}
	client := &gtmgate.IdP{Name: "acme-okta", TenantID: "acme"}
	grants := []*gtmgate.RoleGrant{
		{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "sub-1", Role: gtmgate.RoleAdmin},
		{IdP: "corp", Kind: gtmgate.GrantEmail, Match: "ada@example.com", Role: gtmgate.RoleApprover, TenantID: "acme"},
		{IdP: "corp", Kind: gtmgate.GrantGroup, Match: "sales", Role: gtmgate.RoleViewer, TenantID: "globex"},
		{IdP: "acme-okta", Kind: gtmgate.GrantGroup, Match: "admins", Role: gtmgate.RoleOwner, TenantID: "acme"},
		{IdP: "acme-okta", Kind: gtmgate.GrantGroup, Match: "admins", Role: gtmgate.RoleAdmin}, // never honoured
	}
	for _, tc := range []struct {
		name string
		idp  *gtmgate.IdP
		id   gtmgate.Identity
		want []string // roles@tenant
	}{
		{"by subject", corp, gtmgate.Identity{Subject: "sub-1"}, []string{"admin@"}},
		{"verified email, any case", corp, gtmgate.Identity{Subject: "x", Email: "Ada@Example.com", EmailVerified: true}, []string{"approver@acme"}},
		{"unverified email matches nothing", corp, gtmgate.Identity{Subject: "x", Email: "ada@example.com"}, nil},
		{"group", corp, gtmgate.Identity{Subject: "x", Groups: []string{"eng", "sales"}}, []string{"viewer@globex"}},
		{"another IdP's group name", corp, gtmgate.Identity{Subject: "x", Groups: []string{"admins"}}, nil},
		{"a tenant's IdP grants only its tenant", client, gtmgate.Identity{Subject: "sub-1", Groups: []string{"admins"}}, []string{"owner@acme"}},
		{"the same subject at another IdP", client, gtmgate.Identity{Subject: "sub-1"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, g := range gtmgate.GrantsFor(tc.idp, grants, tc.id) {
				got = append(got, g.Role+"@"+g.TenantID)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("grants %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("grants %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestRoleGrantValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    gtmgate.RoleGrant
		ok   bool
	}{
		{"operator admin", gtmgate.RoleGrant{IdP: "corp", Kind: "group", Match: "ops", Role: "admin"}, true},
		{"limited approver", gtmgate.RoleGrant{IdP: "corp", Kind: "email", Match: "a@b.c", Role: "approver", TenantID: "acme", Categories: []string{"ads_mutate"}}, true},
		{"admin of a tenant", gtmgate.RoleGrant{IdP: "corp", Kind: "group", Match: "ops", Role: "admin", TenantID: "acme"}, false},
		{"owner without a tenant", gtmgate.RoleGrant{IdP: "corp", Kind: "group", Match: "ops", Role: "owner"}, false},
		{"unknown role", gtmgate.RoleGrant{IdP: "corp", Kind: "group", Match: "ops", Role: "root"}, false},
		{"unknown kind", gtmgate.RoleGrant{IdP: "corp", Kind: "domain", Match: "b.c", Role: "viewer"}, false},
		{"no match", gtmgate.RoleGrant{IdP: "corp", Kind: "group", Match: " ", Role: "viewer"}, false},
		{"no idp", gtmgate.RoleGrant{Kind: "group", Match: "ops", Role: "viewer"}, false},
		{"limits on a member", gtmgate.RoleGrant{IdP: "corp", Kind: "group", Match: "ops", Role: "member", TenantID: "acme", Tools: []string{"x"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.g.Validate(); (err == nil) != tc.ok {
				t.Errorf("Validate() = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestIdPEmailAllowed(t *testing.T) {
	open := &gtmgate.IdP{}
	closed := &gtmgate.IdP{AllowedDomains: []string{"example.com"}}
	for _, tc := range []struct {
		idp   *gtmgate.IdP
		email string
		want  bool
	}{
		{open, "", true}, {open, "x@anything.test", true},
		{closed, "x@example.com", true}, {closed, "x@EXAMPLE.com", true},
		{closed, "x@example.com.evil.test", false}, {closed, "x@sub.example.com", false}, {closed, "", false}, {closed, "example.com", false},
	} {
		if got := tc.idp.EmailAllowed(tc.email); got != tc.want {
			t.Errorf("%v.EmailAllowed(%q) = %v, want %v", tc.idp.AllowedDomains, tc.email, got, tc.want)
		}
	}
}

func TestAPIKeyActor(t *testing.T) {
	key := func(tenants []string, scopes ...string) *gtmgate.Actor {
		return &gtmgate.Actor{Kind: gtmgate.ActorAPIKey, ID: "ak_1", Name: "ci", Via: "x-admin-key", Scopes: scopes, Tenants: tenants}
	}
	R, A, W, O, Op := gtmgate.AccessRead, gtmgate.AccessApprove, gtmgate.AccessWrite, gtmgate.AccessOwner, gtmgate.AccessOperator
	for _, tc := range []struct {
		name   string
		actor  *gtmgate.Actor
		tenant string
		want   []gtmgate.Access
	}{
		{"read key, any tenant", key(nil, "read"), "acme", []gtmgate.Access{R}},
		{"read key, operator route", key(nil, "read"), "", []gtmgate.Access{R}},
		{"approve-only key", key(nil, "approve"), "acme", []gtmgate.Access{A}},
		{"full key", key(nil, "read", "approve", "write"), "", []gtmgate.Access{R, A, W, O, Op}},
		{"full key limited to acme, on acme", key([]string{"acme"}, "read", "approve", "write"), "acme", []gtmgate.Access{R, A, W, O}},
		{"full key limited to acme, on globex", key([]string{"acme"}, "read", "approve", "write"), "globex", nil},
		{"full key limited to acme, operator route", key([]string{"acme"}, "read", "approve", "write"), "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, need := range []gtmgate.Access{R, A, W, O, Op} {
				want := false
				for _, w := range tc.want {
					want = want || w == need
				}
				if got := tc.actor.Allows(need, tc.tenant); got != want {
					t.Errorf("Allows(%s, %q) = %v, want %v", need, tc.tenant, got, want)
				}
			}
		})
	}
	if k := key([]string{"acme"}, "approve"); !k.CanDecide("acme", "ads_mutate", "x") || k.CanDecide("globex", "ads_mutate", "x") {
		t.Error("an approve key limited to acme decides outside acme, or not in it")
	}
	if got := key(nil, "read").AuditKey(); got != "api-key:ak_1" {
		t.Errorf("AuditKey = %q", got)
	}
}
