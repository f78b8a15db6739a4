package storecache

import (
	"context"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
)

type countingStore struct {
	gtmgate.Store
	finds, gets int
	tenant      *gtmgate.Tenant
}

func (c *countingStore) FindTenantToken(_ context.Context, hash string) (*gtmgate.TenantToken, error) {
	c.finds++
	if hash == "missing" {
		return nil, gtmgate.ErrNotFound
	}
	return &gtmgate.TenantToken{ID: "tok_" + hash, TenantID: "t"}, nil
}
func (c *countingStore) RevokeTenantToken(context.Context, string, string, time.Time) error {
	return nil
}
func (c *countingStore) GetTenant(context.Context, string) (*gtmgate.Tenant, error) {
	c.gets++
	return c.tenant, nil
}
func (c *countingStore) PutTenant(_ context.Context, t *gtmgate.Tenant) (bool, error) {
	c.tenant = t
	return false, nil
}

func TestCache(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(0, 0)
	base := &countingStore{tenant: &gtmgate.Tenant{ID: "t", Name: "old"}}
	s := New(base, time.Second, func() time.Time { return now })

	s.FindTenantToken(ctx, "h")
	s.FindTenantToken(ctx, "h")
	if base.finds != 1 {
		t.Fatalf("hit not cached: %d loads", base.finds)
	}
	s.FindTenantToken(ctx, "missing")
	s.FindTenantToken(ctx, "missing")
	if base.finds != 3 {
		t.Fatalf("misses must not be cached: %d loads", base.finds)
	}
	s.RevokeTenantToken(ctx, "t", "tok_h", now)
	s.FindTenantToken(ctx, "h")
	if base.finds != 4 {
		t.Fatalf("revocation did not invalidate: %d loads", base.finds)
	}

	s.GetTenant(ctx, "t")
	s.PutTenant(ctx, &gtmgate.Tenant{ID: "t", Name: "new"})
	if got, _ := s.GetTenant(ctx, "t"); got.Name != "new" {
		t.Fatalf("local write not seen: %q", got.Name)
	}
	s.GetTenant(ctx, "t")
	now = now.Add(2 * time.Second)
	s.GetTenant(ctx, "t")
	if base.gets != 3 {
		t.Fatalf("expected reload after TTL: %d loads", base.gets)
	}
}
