package agent

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/riverqueue/river"

	"github.com/gtmgate/gtmgate"
)

// DefaultTenantLimits are the gateway's tenant limits when no setting
// changes them: 8 runs worked at once, 100 waiting to start, 50 enabled
// schedules, 120 run steps a minute.
var DefaultTenantLimits = gtmgate.TenantLimits{RunsInFlight: 8, RunsQueued: 100, Schedules: 50, StepsPerMinute: 120}

// Limits returns a tenant's limits: its own, the gateway's for the fields
// it leaves at zero.
func (a *Agents) Limits(t *gtmgate.Tenant) gtmgate.TenantLimits {
	return t.Limits.Or(a.opts.TenantLimits)
}

// tenantLimits reads a tenant's limits.
func (a *Agents) tenantLimits(ctx context.Context, tenantID string) (gtmgate.TenantLimits, error) {
	t, err := a.opts.Store.GetTenant(ctx, tenantID)
	if err != nil {
		return gtmgate.TenantLimits{}, fmt.Errorf("read tenant %s's limits: %w", tenantID, err)
	}
	return a.Limits(t), nil
}

// admission is a new run's admission: refused with RATE_LIMITED when the
// tenant already has runs_queued runs waiting to start, else its job is
// inserted in the run's transaction at the tenant's fair priority.
func (a *Agents) admission(r *gtmgate.AgentRun, lim gtmgate.TenantLimits) gtmgate.RunAdmission {
	return func(ctx context.Context, tx *sql.Tx, runs gtmgate.TenantRuns) error {
		if runs.Queued >= lim.RunsQueued {
			return RunsQueuedLimit(r.TenantID, lim.RunsQueued)
		}
		queue, base := RunQueue(r)
		opts := &river.InsertOpts{Queue: queue, Priority: fairPriority(base, runs.Queued, a.workers(queue))}
		if _, err := a.jobs.InsertTx(ctx, tx, runArgs{RunID: r.ID}, opts); err != nil {
			return fmt.Errorf("enqueue run %s: %w", r.ID, err)
		}
		return nil
	}
}

// RunsQueuedLimit is the answer to a run start past the tenant's
// runs_queued limit: RATE_LIMITED, since it passes as the queued runs start.
func RunsQueuedLimit(tenantID string, limit int) *gtmgate.Error {
	return gtmgate.Errorf(gtmgate.ERateLimited, "tenant %q already has %d runs queued, its runs_queued limit; the run was not started", tenantID, limit).
		WithHint("start it again once some of the queued runs have started (run_agent list with status queued shows them); " +
			"the operator raises the limit with limits.runs_queued on PUT /admin/tenants/{tenant_id} or GTMGATE_TENANT_RUNS_QUEUED")
}

// fairPriority is the River priority of a new run's job: base for a
// tenant with fewer runs queued than the queue has workers, one lower for
// each fourfold more (at most 4, River's last). River fetches by
// priority first, so one tenant's backlog waits behind another tenant's
// first runs instead of ahead of them.
func fairPriority(base, queued, workers int) int {
	p, bound := base, max(1, workers)
	for queued >= bound && p < 4 {
		p++
		bound *= 4
	}
	return p
}
