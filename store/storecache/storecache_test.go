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
	down        bool
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
	if c.down {
		return nil, &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the store is unavailable", Err: gtmgate.ErrStoreUnavailable}
	}
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

// While the store is unavailable, a cached tenant is served for up to
// StaleFor; past that, or for a tenant never read, the error comes through.
func TestStaleWhileStoreUnavailable(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(0, 0)
	base := &countingStore{tenant: &gtmgate.Tenant{ID: "t", Name: "cached"}}
	s := New(base, time.Second, func() time.Time { return now })
	if _, err := s.GetTenant(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	base.down = true
	for _, tc := range []struct {
		after   time.Duration
		wantErr bool
	}{{2 * time.Second, false}, {StaleFor - time.Second, false}, {StaleFor + time.Second, true}} {
		now = time.Unix(0, 0).Add(tc.after)
		got, err := s.GetTenant(ctx, "t")
		if (err != nil) != tc.wantErr || (err == nil && got.Name != "cached") {
			t.Errorf("after %s: %v, %v; want error %v", tc.after, got, err, tc.wantErr)
		}
	}
	if _, err := s.GetTenant(ctx, "never-read"); gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
		t.Errorf("uncached tenant during outage: %v, want UNAVAILABLE", err)
	}
}

// TestServable: a credential counts while its token and tenant are both
// cached and within StaleFor; cold, or past the outage allowance, it does not.
func TestServable(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(0, 0)
	base := &countingStore{tenant: &gtmgate.Tenant{ID: "t"}}
	s := New(base, time.Second, func() time.Time { return now })
	for _, step := range []struct {
		name string
		do   func()
		want int
	}{
		{"cold", func() {}, 0},
		{"token without its tenant", func() { s.FindTenantToken(ctx, "a") }, 0},
		{"token and tenant", func() { s.GetTenant(ctx, "t") }, 1},
		{"two tokens of the tenant", func() { s.FindTenantToken(ctx, "b") }, 2},
		{"past the TTL, within StaleFor", func() { now = now.Add(StaleFor / 2) }, 2},
		{"past StaleFor", func() { now = now.Add(StaleFor) }, 0},
	} {
		step.do()
		if got := s.Servable(); got != step.want {
			t.Errorf("%s: Servable() = %d, want %d", step.name, got, step.want)
		}
	}
}
