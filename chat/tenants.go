package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
)

// tenantCache keeps each tenant's allowed models for a short while, so the
// hot path does not read the store on every completion.
type tenantCache struct {
	store gtmgate.TenantStore
	ttl   time.Duration

	mu      sync.RWMutex
	entries map[string]tenantEntry
}

type tenantEntry struct {
	allowed []string
	active  bool
	expires time.Time
}

func newTenantCache(store gtmgate.TenantStore, ttl time.Duration) *tenantCache {
	if ttl == 0 {
		ttl = 5 * time.Second
	}
	return &tenantCache{store: store, ttl: ttl, entries: map[string]tenantEntry{}}
}

// allowedModels returns the caller's allowed models (empty: all). Errors are
// UNAUTHORIZED without a principal, TENANT_NOT_FOUND, FORBIDDEN for a tenant
// that is not active, or INTERNAL.
func (tc *tenantCache) allowedModels(ctx context.Context, p *gtmgate.Principal) ([]string, error) {
	if p == nil || p.TenantID == "" {
		return nil, gtmgate.Errorf(gtmgate.EUnauthorized, "missing credential").
			WithHint("send the tenant token as the API key (Authorization: Bearer <token>)")
	}
	now := time.Now()
	tc.mu.RLock()
	e, ok := tc.entries[p.TenantID]
	tc.mu.RUnlock()
	if !ok || now.After(e.expires) {
		t, err := tc.store.GetTenant(ctx, p.TenantID)
		if errors.Is(err, gtmgate.ErrNotFound) {
			return nil, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q not found", p.TenantID)
		}
		if err != nil {
			return nil, &gtmgate.Error{Code: gtmgate.EInternal, Message: "internal error",
				Err: fmt.Errorf("chat: load tenant %s: %w", p.TenantID, err)}
		}
		e = tenantEntry{allowed: slices.Clone(t.AllowedModels),
			active: t.Status == "" || t.Status == gtmgate.TenantActive, expires: now.Add(tc.ttl)}
		if tc.ttl > 0 {
			tc.mu.Lock()
			tc.entries[p.TenantID] = e
			tc.mu.Unlock()
		}
	}
	if !e.active {
		return nil, gtmgate.Errorf(gtmgate.EForbidden, "tenant %q is not active", p.TenantID)
	}
	return e.allowed, nil
}

// checkModel returns FORBIDDEN when allowed is not empty and lacks model.
func checkModel(model string, allowed []string) error {
	if len(allowed) == 0 || slices.Contains(allowed, model) {
		return nil
	}
	return gtmgate.Errorf(gtmgate.EForbidden, "model %q is not allowed for this tenant; allowed models: %s",
		model, strings.Join(allowed, ", ")).WithHint("use one of the allowed models, or ask the operator to allow this one")
}
