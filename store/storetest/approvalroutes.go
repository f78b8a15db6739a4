package storetest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

// testApprovalRouteWebhooks: a tenant's approval route webhooks read back
// whole, while the stored configuration holds neither their URLs nor their
// secrets in clear; a delivery records the webhook and its redacted
// receiver.
func testApprovalRouteWebhooks(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	const (
		slackURL = "https://hooks.slack.com/services/T000/B000/XXXXsecretpath"
		secret   = "whsec_c2VjcmV0LXNpZ25pbmcta2V5LTEyMzQ1Njc4"
	)
	acme := &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive, Providers: map[string]gtmgate.ProviderAccounts{},
		Approval: &gtmgate.ApprovalPolicy{Categories: []string{"ads_mutate"}, Routes: []gtmgate.ApprovalRoute{
			{Categories: []string{"ads_mutate"}, Approvers: []string{"p_ada"}, Webhooks: []gtmgate.ApprovalWebhook{
				{ID: "whk_slack", URL: slackURL, Format: gtmgate.WebhookSlack, Secret: secret},
				{ID: "whk_std", URL: "https://hooks.example.com/gtm?token=tok123456", Format: gtmgate.WebhookStandard, Secret: "0123456789abcdef-std"},
			}},
			{Tools: []string{"crm_deals"}},
		}}}
	_, err := s.PutTenant(ctx, acme)
	must(t, err)
	got, err := s.GetTenant(ctx, "acme")
	must(t, err)
	if diff := cmp.Diff(acme.Approval, got.Approval); diff != "" {
		t.Errorf("GetTenant's approval policy (-put +got):\n%s", diff)
	}
	listed, err := s.ListTenants(ctx)
	must(t, err)
	if len(listed) != 1 || cmp.Diff(acme.Approval, listed[0].Approval) != "" {
		t.Errorf("ListTenants: %+v", listed)
	}
	config := rawString(t, s, "SELECT config FROM tenants WHERE id = ?", "acme")
	for _, clear := range []string{"XXXXsecretpath", "tok123456", secret, "0123456789abcdef-std"} {
		if strings.Contains(config, clear) {
			t.Errorf("the stored configuration holds %q in clear: %s", clear, config)
		}
	}
	if !strings.Contains(config, "whk_slack") || !strings.Contains(config, "https://hooks.slack.com/…") {
		t.Errorf("the stored configuration lacks the webhook's id or redacted URL: %s", config)
	}

	// A replace without the second webhook drops its sealed values.
	acme.Approval.Routes[0].Webhooks = acme.Approval.Routes[0].Webhooks[:1]
	_, err = s.PutTenant(ctx, acme)
	must(t, err)
	if config := rawString(t, s, "SELECT config FROM tenants WHERE id = ?", "acme"); strings.Contains(config, "whk_std") {
		t.Errorf("a removed webhook is still stored: %s", config)
	}

	must(t, s.AddDelivery(ctx, &gtmgate.WebhookDelivery{WebhookID: "approval.requested_apr_1", Event: "approval.requested", TenantID: "acme",
		Attempt: 1, Time: t0, OK: true, Status: 200, Endpoint: "whk_slack", Receiver: "https://hooks.slack.com/…"}))
	ds, err := s.ListDeliveries(ctx, gtmgate.DeliveryFilter{WebhookID: "approval.requested_apr_1"})
	must(t, err)
	if len(ds) != 1 || ds[0].Endpoint != "whk_slack" || ds[0].Receiver != "https://hooks.slack.com/…" {
		t.Errorf("deliveries = %+v", ds)
	}
}
