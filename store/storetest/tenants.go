package storetest

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func testTenants(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()

	_, err := s.GetTenant(ctx, "acme")
	wantErr(t, err, gtmgate.ErrNotFound)

	acme := &gtmgate.Tenant{
		ID: "acme", Name: "Acme", Status: gtmgate.TenantActive,
		Providers: map[string]gtmgate.ProviderAccounts{
			"hubspot": {Accounts: []gtmgate.Account{{ID: "123", Label: "Main"}, {ID: "456", Label: "EU"}}, Default: "123"},
		},
		AllowedModels: []string{"gpt-4o"},
		Approval:      &gtmgate.ApprovalPolicy{Categories: []string{"ads_mutate"}, Destructive: true},
	}
	created, err := s.PutTenant(ctx, acme)
	must(t, err)
	if !created {
		t.Error("first PutTenant: created = false")
	}
	if acme.CreatedAt.IsZero() || acme.UpdatedAt.IsZero() {
		t.Error("PutTenant did not set the timestamps")
	}
	got, err := s.GetTenant(ctx, "acme")
	must(t, err)
	if diff := cmp.Diff(acme, got); diff != "" {
		t.Errorf("GetTenant (-put +got):\n%s", diff)
	}

	time.Sleep(2 * time.Millisecond) // the default clock must move
	update := *got
	update.Status = gtmgate.TenantSuspended
	update.CreatedAt = time.Time{}
	created, err = s.PutTenant(ctx, &update)
	must(t, err)
	if created {
		t.Error("second PutTenant: created = true")
	}
	got2, err := s.GetTenant(ctx, "acme")
	must(t, err)
	if got2.Status != gtmgate.TenantSuspended {
		t.Errorf("status = %q, want suspended", got2.Status)
	}
	if !got2.CreatedAt.Equal(acme.CreatedAt) {
		t.Errorf("CreatedAt changed on replace: %v → %v", acme.CreatedAt, got2.CreatedAt)
	}
	if !got2.UpdatedAt.After(acme.UpdatedAt) {
		t.Errorf("UpdatedAt did not move: %v → %v", acme.UpdatedAt, got2.UpdatedAt)
	}

	putTenant(t, s, "zeta")
	putTenant(t, s, "beta")
	list, err := s.ListTenants(ctx)
	must(t, err)
	var ids []string
	for _, tn := range list {
		ids = append(ids, tn.ID)
	}
	if diff := cmp.Diff([]string{"acme", "beta", "zeta"}, ids); diff != "" {
		t.Errorf("ListTenants ids (-want +got):\n%s", diff)
	}
}
