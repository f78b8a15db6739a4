package gtmgate_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

func TestAdminKeyValidate(t *testing.T) {
	valid := func() *gtmgate.AdminKey {
		return &gtmgate.AdminKey{Name: "ci deploy", Owner: "ada@example.com", Scopes: []string{"read", "approve"}, Tenants: []string{"acme"}}
	}
	for _, tc := range []struct {
		name    string
		change  func(k *gtmgate.AdminKey)
		mention string // "" valid
	}{
		{"valid", func(*gtmgate.AdminKey) {}, ""},
		{"every scope, no tenant", func(k *gtmgate.AdminKey) { k.Scopes, k.Tenants = []string{"write", "read", "approve"}, nil }, ""},
		{"64 characters", func(k *gtmgate.AdminKey) { k.Name = strings.Repeat("é", 64) }, ""},
		{"no name", func(k *gtmgate.AdminKey) { k.Name = "" }, "name is required"},
		{"65 characters", func(k *gtmgate.AdminKey) { k.Name = strings.Repeat("n", 65) }, "1 to 64 printable"},
		{"a newline", func(k *gtmgate.AdminKey) { k.Name = "ci\ndeploy" }, "printable"},
		{"invalid UTF-8", func(k *gtmgate.AdminKey) { k.Name = "ci\xff" }, "printable"},
		{"surrounding space", func(k *gtmgate.AdminKey) { k.Name = " ci" }, "starts or ends with a space"},
		{"no owner", func(k *gtmgate.AdminKey) { k.Owner = "" }, "owner is required"},
		{"no scope", func(k *gtmgate.AdminKey) { k.Scopes = nil }, "at least one"},
		{"unknown scope", func(k *gtmgate.AdminKey) { k.Scopes = []string{"read", "owner"} }, `scopes[1] "owner"`},
		{"scope twice", func(k *gtmgate.AdminKey) { k.Scopes = []string{"write", "write"} }, "names write twice"},
		{"empty tenant", func(k *gtmgate.AdminKey) { k.Tenants = []string{""} }, "tenants[0]"},
		{"tenant with a space", func(k *gtmgate.AdminKey) { k.Tenants = []string{"acme", "a b"} }, "tenants[1]"},
		{"tenant twice", func(k *gtmgate.AdminKey) { k.Tenants = []string{"acme", "acme"} }, "names acme twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := valid()
			tc.change(k)
			err := k.Validate()
			switch {
			case tc.mention == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.mention != "" && (gtmgate.ErrorCode(err) != gtmgate.EValidation || !strings.Contains(err.Error(), tc.mention)):
				t.Errorf("Validate = %v, want a validation error mentioning %q", err, tc.mention)
			}
		})
	}
}

func TestAdminKeyStatusAndActor(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	before, after := now.Add(-time.Second), now.Add(time.Second)
	for _, tc := range []struct {
		name             string
		expires, revoked *time.Time
		want             string
	}{
		{"no expiry", nil, nil, gtmgate.AdminKeyActive},
		{"expires later", &after, nil, gtmgate.AdminKeyActive},
		{"expires now", &now, nil, gtmgate.AdminKeyExpired},
		{"expired", &before, nil, gtmgate.AdminKeyExpired},
		{"revoked before it expired", &before, &before, gtmgate.AdminKeyRevoked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := &gtmgate.AdminKey{ExpiresAt: tc.expires, RevokedAt: tc.revoked}
			if got := k.Status(now); got != tc.want {
				t.Errorf("Status = %s, want %s", got, tc.want)
			}
		})
	}
	k := &gtmgate.AdminKey{ID: "ak_1", Name: "ci", Scopes: []string{"read", "approve"}, Tenants: []string{"acme"}}
	a := k.Actor("x-admin-key")
	if a.Kind != gtmgate.ActorAPIKey || a.ID != "ak_1" || a.Name != "ci" || a.Via != "x-admin-key" || a.AuditKey() != "api-key:ak_1" ||
		!a.Allows(gtmgate.AccessApprove, "acme") || a.Allows(gtmgate.AccessRead, "globex") {
		t.Errorf("actor %+v", a)
	}
	a.Scopes[0] = "write"
	if k.Scopes[0] != "read" {
		t.Error("the actor shares the key's scopes")
	}
}
