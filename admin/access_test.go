package admin

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// reached runs pattern's guard for actor on a request naming tenant (in
// the path or the query, as the route reads it) and reports whether the
// route's handler was reached.
func reached(t *testing.T, pattern string, actor *gtmgate.Actor, tenant string) bool {
	t.Helper()
	method, path, _ := strings.Cut(pattern, " ")
	r := httptest.NewRequest(method, strings.ReplaceAll(path, "{tenant_id}", tenant)+"?tenant="+tenant, nil)
	if strings.Contains(path, "{tenant_id}") {
		r.SetPathValue("tenant_id", tenant)
	}
	r = r.WithContext(gtmgate.WithActor(r.Context(), actor))
	ok := false
	w := httptest.NewRecorder()
	guard(pattern, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { ok = true })).ServeHTTP(w, r)
	if !ok && w.Code != http.StatusForbidden {
		t.Errorf("%s refused with %d, want 403", pattern, w.Code)
	}
	return ok
}

func grantOf(role, tenant string) gtmgate.RoleGrant {
	return gtmgate.RoleGrant{Role: role, TenantID: tenant}
}

func personWith(grants ...gtmgate.RoleGrant) *gtmgate.Actor {
	return &gtmgate.Actor{Kind: gtmgate.ActorPerson, ID: "p_1", Name: "someone@example.com", Via: "sso:corp", Roles: grants}
}

// TestEveryRouteAgainstEveryRole holds each role to what the People page
// promises, on every admin route: on its own tenant, on another tenant,
// and on the operator's routes.
func TestEveryRouteAgainstEveryRole(t *testing.T) {
	roles := []struct {
		name  string
		actor *gtmgate.Actor
		// may says whether the role may pass a route of access need that
		// names its own tenant ("demo"); other tenants' and the operator's
		// routes are checked below.
		may func(need gtmgate.Access) bool
	}{
		{"operator admin", personWith(grantOf(gtmgate.RoleAdmin, "")), func(gtmgate.Access) bool { return true }},
		{"break-glass key", gtmgate.BreakGlass("x-admin-key"), func(gtmgate.Access) bool { return true }},
		{"operator viewer", personWith(grantOf(gtmgate.RoleViewer, "")), func(n gtmgate.Access) bool { return n == gtmgate.AccessRead }},
		{"owner", personWith(grantOf(gtmgate.RoleOwner, "demo")), func(n gtmgate.Access) bool { return n != gtmgate.AccessOperator }},
		{"approver", personWith(grantOf(gtmgate.RoleApprover, "demo")), func(n gtmgate.Access) bool {
			return n == gtmgate.AccessRead || n == gtmgate.AccessApprove
		}},
		{"member", personWith(grantOf(gtmgate.RoleMember, "demo")), func(n gtmgate.Access) bool {
			return n == gtmgate.AccessRead || n == gtmgate.AccessWrite
		}},
		{"tenant viewer", personWith(grantOf(gtmgate.RoleViewer, "demo")), func(n gtmgate.Access) bool { return n == gtmgate.AccessRead }},
		{"no role", personWith(), func(gtmgate.Access) bool { return false }},
	}
	for _, role := range roles {
		t.Run(role.name, func(t *testing.T) {
			operator := role.actor.Operator() != ""
			for pattern, ru := range routeAccess {
				if ru.need == gtmgate.AccessRead && !strings.HasPrefix(pattern, "GET ") && ru.tenant != ownInTenant {
					t.Errorf("%s changes something but needs only read", pattern)
				}
				switch ru.tenant {
				case handlerTenant:
					// The handler filters or checks the object's tenant
					// (approvals_test); the guard lets in only someone with a role.
					if got, want := reached(t, pattern, role.actor, "demo"), len(role.actor.Roles) > 0 || operator; got != want {
						t.Errorf("%s: reached=%v, want %v", pattern, got, want)
					}
				case noTenant:
					want := operator && role.may(ru.need)
					if got := reached(t, pattern, role.actor, ""); got != want {
						t.Errorf("operator route %s: reached=%v, want %v", pattern, got, want)
					}
				default:
					if got, want := reached(t, pattern, role.actor, "demo"), role.may(ru.need); got != want {
						t.Errorf("%s on its own tenant: reached=%v, want %v", pattern, got, want)
					}
					if got, want := reached(t, pattern, role.actor, "acme"), operator && role.may(ru.need); got != want {
						t.Errorf("%s on another tenant: reached=%v, want %v", pattern, got, want)
					}
					if ru.tenant == queryTenant && !operator && reached(t, pattern, role.actor, "") {
						t.Errorf("%s without a tenant let a tenant's person through", pattern)
					}
				}
			}
		})
	}
}

func TestUndeclaredRoutePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a route without an access entry was mounted")
		}
	}()
	guard("GET /admin/not-declared", http.NotFoundHandler())
}

func TestDecideAllowed(t *testing.T) {
	ap := &gtmgate.Approval{ID: "apr_1", TenantID: "demo", Category: "ads_mutate", Tool: "google_ads_campaigns"}
	limited := gtmgate.RoleGrant{Role: gtmgate.RoleApprover, TenantID: "demo", Categories: []string{"email_send"}}
	for _, tc := range []struct {
		name  string
		actor *gtmgate.Actor
		need  gtmgate.Access
		want  string // "" allowed, else the error code
	}{
		{"approver reads", personWith(grantOf(gtmgate.RoleApprover, "demo")), gtmgate.AccessRead, ""},
		{"approver decides", personWith(grantOf(gtmgate.RoleApprover, "demo")), gtmgate.AccessApprove, ""},
		{"viewer reads", personWith(grantOf(gtmgate.RoleViewer, "demo")), gtmgate.AccessRead, ""},
		{"viewer decides", personWith(grantOf(gtmgate.RoleViewer, "demo")), gtmgate.AccessApprove, gtmgate.EForbidden},
		{"approver of other categories", personWith(limited), gtmgate.AccessApprove, gtmgate.EForbidden},
		{"another tenant's approver: not found", personWith(grantOf(gtmgate.RoleApprover, "acme")), gtmgate.AccessRead, gtmgate.ENotFound},
		{"another tenant's owner decides: not found", personWith(grantOf(gtmgate.RoleOwner, "acme")), gtmgate.AccessApprove, gtmgate.ENotFound},
		{"operator viewer decides", personWith(grantOf(gtmgate.RoleViewer, "")), gtmgate.AccessApprove, gtmgate.EForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := decideAllowed(tc.actor, tc.need, ap)
			if got := gtmgate.AsError(err); (err == nil) != (tc.want == "") || err != nil && got.Code != tc.want {
				t.Errorf("decideAllowed = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestEveryRouteAgainstNamedKeys holds named admin keys to their scopes on
// every admin route: read, approve and write (with owner) on the tenants
// they are limited to, or on every tenant; the operator's routes to keys
// limited to none, their reads with read, the rest with write.
func TestEveryRouteAgainstNamedKeys(t *testing.T) {
	key := func(tenants []string, scopes ...string) *gtmgate.Actor {
		return &gtmgate.Actor{Kind: gtmgate.ActorAPIKey, ID: "ak_1", Name: "key", Via: "x-admin-key", Scopes: scopes, Tenants: tenants}
	}
	has := func(needs ...gtmgate.Access) func(gtmgate.Access) bool {
		return func(n gtmgate.Access) bool { return slices.Contains(needs, n) }
	}
	none := has()
	R, A, W, O, Op := gtmgate.AccessRead, gtmgate.AccessApprove, gtmgate.AccessWrite, gtmgate.AccessOwner, gtmgate.AccessOperator
	demo := []string{"demo"}
	for _, tc := range []struct {
		name  string
		actor *gtmgate.Actor
		// own is what the key may on tenant demo, other on tenant acme,
		// operator on the routes that name no tenant.
		own, other, operator func(gtmgate.Access) bool
	}{
		{"read key", key(nil, "read"), has(R), has(R), has(R)},
		{"approve-only key", key(nil, "approve"), has(A), has(A), none},
		// An unlimited write key is an operator admin's: across tenants too.
		{"write-only key", key(nil, "write"), has(W, O, Op), has(W, O, Op), has(W, O, Op)},
		{"full key", key(nil, "read", "approve", "write"), has(R, A, W, O, Op), has(R, A, W, O, Op), has(R, W, O, Op)},
		{"read and approve key of demo", key(demo, "read", "approve"), has(R, A), none, none},
		{"full key of demo", key(demo, "read", "approve", "write"), has(R, A, W, O), none, none},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for pattern, ru := range routeAccess {
				switch ru.tenant {
				case handlerTenant:
					// Every key reaches the handler, which filters or checks
					// the object's tenant.
					if !reached(t, pattern, tc.actor, "demo") {
						t.Errorf("%s: not reached", pattern)
					}
				case noTenant:
					if got, want := reached(t, pattern, tc.actor, ""), tc.operator(ru.need); got != want {
						t.Errorf("operator route %s: reached=%v, want %v", pattern, got, want)
					}
				default:
					if got, want := reached(t, pattern, tc.actor, "demo"), tc.own(ru.need); got != want {
						t.Errorf("%s on demo: reached=%v, want %v", pattern, got, want)
					}
					if got, want := reached(t, pattern, tc.actor, "acme"), tc.other(ru.need); got != want {
						t.Errorf("%s on acme: reached=%v, want %v", pattern, got, want)
					}
					if ru.tenant == queryTenant {
						if got, want := reached(t, pattern, tc.actor, ""), tc.operator(ru.need); got != want {
							t.Errorf("%s without a tenant: reached=%v, want %v", pattern, got, want)
						}
					}
				}
			}
		})
	}
}
