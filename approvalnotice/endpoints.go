package approvalnotice

import (
	"context"
	"fmt"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/webhook"
)

// TenantStore reads a tenant's configuration, its route webhooks' URLs and
// secrets included.
type TenantStore interface {
	GetTenant(ctx context.Context, id string) (*gtmgate.Tenant, error)
}

// Endpoints finds the webhooks of tenants' approval routes for the webhook
// sender (webhook.Endpoints), read from the tenant when each message is
// sent.
type Endpoints struct{ Store TenantStore }

// Endpoint returns the URL and secret of tenantID's route webhook id;
// gtmgate.ErrNotFound when the tenant or the webhook is gone.
func (e Endpoints) Endpoint(ctx context.Context, tenantID, id string) (webhook.Endpoint, error) {
	t, err := e.Store.GetTenant(ctx, tenantID)
	if err != nil {
		return webhook.Endpoint{}, err
	}
	w, ok := t.Approval.Webhook(id)
	if !ok {
		return webhook.Endpoint{}, gtmgate.ErrNotFound
	}
	secret, err := webhook.ParseSecret(w.Secret)
	if err != nil {
		// Checked when stored; one that no longer reads is no use retrying.
		return webhook.Endpoint{}, fmt.Errorf("its signing secret: %v: %w", err, gtmgate.ErrNotFound)
	}
	return webhook.Endpoint{URL: w.URL, Secret: secret}, nil
}
