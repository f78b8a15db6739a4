package app

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/quota"
	"github.com/gtmgate/gtmgate/webhook"
)

// buildMeter sets up quota enforcement: the meter counts every usage event
// recorded through a.calls and checks calls against the billing plans.
func (a *App) buildMeter(ctx context.Context) error {
	a.meter = quota.New(quota.Options{Store: a.store, Logger: a.logger.With("component", "quota"),
		Category: func(tool, action string) string {
			if a.registry == nil {
				return ""
			}
			return a.registry.Category(tool, action)
		},
		SoftLimit: a.softLimitReached})
	a.calls = quota.Recorder{Recorder: a.recorder, Meter: a.meter}
	return a.meter.Load(ctx)
}

// softLimitReached announces a soft limit on the alert webhook, once per
// tenant, period and quota (the message id says which), signed like the
// quality alerts.
func (a *App) softLimitReached(ctx context.Context, e quota.Event) {
	if a.jobs == nil || a.cfg.AlertWebhookURL == "" {
		return
	}
	id := "quota_" + e.TenantID + "_" + e.Period + "_" + e.Quota
	body, err := json.Marshal(webhook.Envelope{Type: "quota.soft_limit", Timestamp: time.Now().UTC(), Data: e})
	if err != nil {
		return
	}
	ictx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := a.jobs.Insert(ictx, webhook.Args{WebhookID: id, Event: "quota.soft_limit", TenantID: e.TenantID, Body: body}, nil); err != nil {
		a.logger.Warn("quota: queueing the soft limit alert", "tenant_id", e.TenantID, "err", err)
	}
}

var _ gtmgate.QuotaChecker = (*quota.Meter)(nil)
