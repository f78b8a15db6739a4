package chat

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gtmgate/gtmgate"
)

// allowedModels returns the caller's allowed models (empty: all). Errors are
// UNAUTHORIZED without a principal, TENANT_NOT_FOUND, FORBIDDEN for a tenant
// that is not active, or INTERNAL.
func allowedModels(ctx context.Context, store gtmgate.TenantStore, p *gtmgate.Principal) ([]string, error) {
	if p == nil || p.TenantID == "" {
		return nil, gtmgate.Errorf(gtmgate.EUnauthorized, "missing credential").
			WithHint("send the tenant token as the API key (Authorization: Bearer <token>)")
	}
	t, err := store.GetTenant(ctx, p.TenantID)
	if errors.Is(err, gtmgate.ErrNotFound) {
		return nil, gtmgate.Errorf(gtmgate.ETenantNotFound, "tenant %q not found", p.TenantID)
	}
	if err != nil {
		return nil, &gtmgate.Error{Code: gtmgate.EInternal, Message: "internal error",
			Err: fmt.Errorf("chat: load tenant %s: %w", p.TenantID, err)}
	}
	if t.Status != "" && t.Status != gtmgate.TenantActive {
		return nil, gtmgate.Errorf(gtmgate.EForbidden, "tenant %q is not active", p.TenantID)
	}
	return t.AllowedModels, nil
}

// checkModel returns FORBIDDEN when allowed is not empty and lacks model.
func checkModel(model string, allowed []string) error {
	if len(allowed) == 0 || slices.Contains(allowed, model) {
		return nil
	}
	return gtmgate.Errorf(gtmgate.EForbidden, "model %q is not allowed for this tenant; allowed models: %s",
		model, strings.Join(allowed, ", ")).WithHint("use one of the allowed models, or ask the operator to allow this one")
}
