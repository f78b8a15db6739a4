package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/quota"
	"github.com/gtmgate/gtmgate/ratelimit"
	"github.com/gtmgate/gtmgate/webhook"
)

// heartbeatEvery is how often a replica records itself; rate limits are
// shared among the replicas seen in the last three intervals.
const heartbeatEvery = 5 * time.Second

// buildLimits sets up quota enforcement and rate limits. The meter counts
// every usage event recorded through a.calls and checks calls against the
// billing plans; the limiter divides each tenant's rate among the live
// replicas, counted by heartbeats.
func (a *App) buildLimits(ctx context.Context) error {
	host, _ := os.Hostname()
	id := make([]byte, 6)
	rand.Read(id)
	self := gtmgate.Replica{ID: host + "-" + hex.EncodeToString(id), Hostname: host, Version: a.version, StartedAt: time.Now()}
	a.replicas = &ratelimit.Replicas{}
	a.heartbeat = &ratelimit.Heartbeat{Store: a.store, Self: self, Count: a.replicas, Every: heartbeatEvery,
		OnFail: func(err error) {
			a.logger.Warn("replica heartbeat failed; rate limits keep the last replica count", "err", err)
		}}
	if err := a.heartbeat.Beat(ctx); err != nil {
		return fmt.Errorf("replica heartbeat: %w", err)
	}
	a.limiter = ratelimit.New(ratelimit.Options{Tenants: a.store, Replicas: a.replicas.N})
	a.meter = quota.New(quota.Options{Store: a.store, Replica: self.ID, Logger: a.logger.With("component", "quota"),
		Category: func(tool, action string) string {
			if a.registry == nil {
				return ""
			}
			if _, builtIn := a.registry.Tool(tool); !builtIn && gtmgate.IsFederatedName(tool) {
				return gtmgate.BillingCategoryFederated
			}
			return a.registry.Category(tool, action)
		},
		SoftLimit: a.softLimitReached, Flush: a.recorder.Flush})
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
