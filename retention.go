package gtmgate

import (
	"context"
	"time"
)

// Record kinds that retention prunes. Each is kept for its configured time;
// what is not listed (tenants, tokens, plans, hourly usage rollups,
// approvals, agent runs, schedules, briefs) is kept until deleted.
const (
	RecordAudit             = "audit"
	RecordUsageEvents       = "usage_events"
	RecordLedger            = "ledger"
	RecordVerdicts          = "verdicts"
	RecordHealthSnapshots   = "health_snapshots"
	RecordWebhookDeliveries = "webhook_deliveries"
	// RecordOAuth are OAuth authorization codes, connect codes and tokens,
	// and provider connect links, aged from when they expired.
	RecordOAuth = "oauth"
	// RecordQuotaCounters are per-replica quota counters, aged from the
	// start of their billing period.
	RecordQuotaCounters = "quota_counters"
	// RecordReplicas are replica heartbeats, aged from when last seen.
	RecordReplicas = "replicas"
	// RecordConsoleSessions are console sessions, aged from when they
	// expire.
	RecordConsoleSessions = "console_sessions"
)

// RecordKinds lists every kind PruneRecords takes.
var RecordKinds = []string{RecordAudit, RecordUsageEvents, RecordLedger, RecordVerdicts, RecordHealthSnapshots,
	RecordWebhookDeliveries, RecordOAuth, RecordQuotaCounters, RecordReplicas, RecordConsoleSessions}

// RetentionStore deletes records past their retention.
type RetentionStore interface {
	// PruneRecords deletes at most limit records of one kind dated before
	// before, in one short transaction, and reports how many went. Open
	// incidents and verdicts labelled by an operator are never pruned.
	// Usage events are already in their hourly rollups (written in the same
	// transaction), so pruning them leaves usage totals and billing whole.
	PruneRecords(ctx context.Context, kind string, before time.Time, limit int) (int64, error)
}
