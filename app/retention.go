package app

import (
	"context"
	"log/slog"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/config"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/retention"
)

const (
	// retentionEvery is how often the leader sweeps; a sweep stops after
	// retentionBudget and the next one goes on from there.
	retentionEvery  = time.Hour
	retentionBudget = 2 * time.Minute
	// Quota counters matter for their own billing period only (a month at
	// most); replicas unseen for a day have stopped.
	quotaCountersKeep = 62 * 24 * time.Hour
	replicasKeep      = 24 * time.Hour
	// An expired console session is of no use; a day's margin keeps it in
	// sight of an operator looking into a sign-in.
	consoleSessionsKeep = 24 * time.Hour
)

// retentionRules are the record kinds the sweep prunes and for how long
// each is kept.
func retentionRules(r config.Retention) []retention.Rule {
	return []retention.Rule{
		{Kind: gtmgate.RecordAudit, Keep: r.Audit},
		{Kind: gtmgate.RecordUsageEvents, Keep: r.UsageEvents},
		{Kind: gtmgate.RecordLedger, Keep: r.Ledger},
		{Kind: gtmgate.RecordVerdicts, Keep: r.Verdicts},
		{Kind: gtmgate.RecordHealthSnapshots, Keep: r.HealthSnapshots},
		{Kind: gtmgate.RecordWebhookDeliveries, Keep: r.WebhookDeliveries},
		{Kind: gtmgate.RecordOAuth, Keep: r.OAuth},
		{Kind: gtmgate.RecordQuotaCounters, Keep: quotaCountersKeep},
		{Kind: gtmgate.RecordReplicas, Keep: replicasKeep},
		{Kind: gtmgate.RecordConsoleSessions, Keep: consoleSessionsKeep},
	}
}

// retentionArgs is the hourly sweep, run by the elected leader.
type retentionArgs struct{}

func (retentionArgs) Kind() string { return "retention_sweep" }

// InsertOpts implements river.JobArgsWithInsertOpts: one at a time.
func (retentionArgs) InsertOpts() river.InsertOpts {
	return jobs.OneAtATime(jobs.QueueMaintenance, retentionEvery)
}

type retentionWorker struct {
	river.WorkerDefaults[retentionArgs]
	sweeper *retention.Sweeper
	logger  *slog.Logger
	deleted *prometheus.CounterVec
}

func newRetentionWorker(a *App) *retentionWorker {
	deleted := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "gtmgate_retention_deleted_total", Help: "Records deleted by the retention sweep, by kind.",
	}, []string{"kind"})
	a.metrics.Registry.MustRegister(deleted)
	return &retentionWorker{logger: a.logger, deleted: deleted,
		sweeper: &retention.Sweeper{Store: a.store, Rules: retentionRules(a.cfg.Retention)}}
}

func (w *retentionWorker) Work(ctx context.Context, _ *river.Job[retentionArgs]) error {
	ctx, cancel := context.WithTimeout(ctx, retentionBudget)
	defer cancel()
	res, err := w.sweeper.Sweep(ctx)
	kinds := make([]string, 0, len(res.Deleted))
	for k := range res.Deleted {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	attrs := []any{"complete", res.Complete}
	for _, k := range kinds {
		if n := res.Deleted[k]; n > 0 {
			w.deleted.WithLabelValues(k).Add(float64(n))
			attrs = append(attrs, k, n)
		}
	}
	if len(attrs) > 2 || !res.Complete {
		w.logger.Info("retention sweep", attrs...)
	}
	return err
}

func retentionJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(retentionEvery),
		func() (river.JobArgs, *river.InsertOpts) { return retentionArgs{}, nil }, &river.PeriodicJobOpts{RunOnStart: true})
}
