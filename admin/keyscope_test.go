package admin

import (
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
)

func TestKeyWithin(t *testing.T) {
	key := func(tenants []string, scopes ...string) *gtmgate.Actor {
		return &gtmgate.Actor{Kind: gtmgate.ActorAPIKey, ID: "ak_1", Name: "maker", Via: "x-admin-key", Scopes: scopes, Tenants: tenants}
	}
	wanted := func(tenants []string, scopes ...string) *gtmgate.AdminKey {
		return &gtmgate.AdminKey{Name: "new", Owner: "o", Scopes: scopes, Tenants: tenants}
	}
	acme := []string{"acme"}
	for _, tc := range []struct {
		name    string
		actor   *gtmgate.Actor
		key     *gtmgate.AdminKey
		mention string // "" allowed
	}{
		{"break-glass key, any key", gtmgate.BreakGlass("x-admin-key"), wanted(nil, "read", "approve", "write"), ""},
		{"operator admin, any key", &gtmgate.Actor{Kind: gtmgate.ActorPerson, Roles: []gtmgate.RoleGrant{{Role: gtmgate.RoleAdmin}}}, wanted(nil, "write"), ""},
		{"unlimited write key, scopes it lacks", key(nil, "write"), wanted(nil, "read", "approve", "write"), ""},
		{"read key, a read key", key(nil, "read"), wanted(acme, "read"), ""},
		{"read key, an approve key", key(nil, "read"), wanted(nil, "approve"), "has no approve scope"},
		{"limited key, its tenant", key(acme, "read", "write"), wanted(acme, "read"), ""},
		{"limited key, an unlimited key", key(acme, "read", "write"), wanted(nil, "read"), "cannot create a key limited to none"},
		{"limited key, another tenant", key(acme, "read", "write"), wanted([]string{"acme", "globex"}, "read"), "for tenant globex"},
		{"limited key, a wider scope", key(acme, "read"), wanted(acme, "read", "write"), "has no write scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := keyWithin(tc.actor, tc.key)
			switch {
			case tc.mention == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.mention != "" && (gtmgate.ErrorCode(err) != gtmgate.EForbidden || !strings.Contains(err.Error(), tc.mention)):
				t.Errorf("keyWithin = %v, want FORBIDDEN mentioning %q", err, tc.mention)
			}
		})
	}
}
