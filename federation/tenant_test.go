package federation_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/federation"
)

// askedStore records the tenants the catalogue lists servers of; with
// careless set, it answers every tenant's servers whatever the tenant, as
// a store bug (or tenant "") would.
type askedStore struct {
	gtmgate.Store
	careless bool
	mu       sync.Mutex
	asked    []string
}

func (s *askedStore) ListMCPServers(ctx context.Context, tenantID string) ([]*gtmgate.MCPServer, error) {
	s.mu.Lock()
	s.asked = append(s.asked, tenantID)
	s.mu.Unlock()
	if s.careless {
		tenantID = ""
	}
	return s.Store.ListMCPServers(ctx, tenantID)
}

// twoTenants returns a catalogue over a store where acme and globex each
// have a server with tools.
func twoTenants(t *testing.T, careless bool) (*federation.Catalog, *askedStore) {
	t.Helper()
	c, st, up := newCatalog(t)
	for _, tenant := range []string{"acme", "globex"} {
		if _, err := st.PutMCPServer(t.Context(), &gtmgate.MCPServer{TenantID: tenant, Name: tenant + "up", URL: "https://mcp.example/mcp", AutoAcceptChanges: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Refresh(t.Context(), tenant, tenant+"up"); err != nil {
			t.Fatal(err)
		}
	}
	asked := &askedStore{Store: st, careless: careless}
	return federation.New(federation.Options{Store: asked, Upstream: up, CacheFor: time.Hour}), asked
}

// TestNoTenantIsRefused: the catalogue never reads the servers of tenant
// "", which the store takes for every tenant's: each of its tenant-facing
// methods refuses it with VALIDATION_ERROR, and the store is not asked.
func TestNoTenantIsRefused(t *testing.T) {
	ctx := t.Context()
	c, asked := twoTenants(t, false)
	tools, _, err := c.Tools(ctx, "")
	if gtmgate.ErrorCode(err) != gtmgate.EValidation || len(tools) != 0 {
		t.Errorf("Tools of no tenant: %d tools, %v; want none and VALIDATION_ERROR", len(tools), err)
	}
	if e, err := c.Tool(ctx, "", "acmeup__read"); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("Tool of no tenant: found %v, %v; want VALIDATION_ERROR", e != nil, err)
	}
	if servers, err := c.Servers(ctx, ""); gtmgate.ErrorCode(err) != gtmgate.EValidation || len(servers) != 0 {
		t.Errorf("Servers of no tenant: %d servers, %v; want none and VALIDATION_ERROR", len(servers), err)
	}
	if _, err := c.Server(ctx, "", "acmeup"); gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Errorf("Server of no tenant: %v; want VALIDATION_ERROR", err)
	}
	if slices.Contains(asked.asked, "") {
		t.Errorf("the store was asked for tenant \"\" (every tenant's servers): asked %q", asked.asked)
	}
}

// TestOnlyTheTenantsOwnServers: whatever the store answers, a tenant's
// view holds its own servers only (the catalogue's own check).
func TestOnlyTheTenantsOwnServers(t *testing.T) {
	ctx := t.Context()
	c, _ := twoTenants(t, true)
	for tenant, other := range map[string]string{"acme": "globex", "globex": "acme"} {
		servers, err := c.Servers(ctx, tenant)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range servers {
			got = append(got, s.TenantID+"/"+s.Name)
		}
		if want := []string{tenant + "/" + tenant + "up"}; !slices.Equal(got, want) {
			t.Errorf("%s's servers: %v, want %v", tenant, got, want)
		}
		tools, _, err := c.Tools(ctx, tenant)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tools {
			if !strings.HasPrefix(e.Name, tenant+"up__") {
				t.Errorf("%s is served %s, another tenant's tool", tenant, e.Name)
			}
		}
		if _, err := c.Tool(ctx, tenant, other+"up__read"); !errors.Is(err, gtmgate.ErrNotFound) {
			t.Errorf("%s finds %s's tool: %v", tenant, other, err)
		}
	}
}
