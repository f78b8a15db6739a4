package schedule

import (
	"context"

	"github.com/gtmgate/gtmgate"
)

// withinLimit refuses an enabled schedule that would take its tenant past
// its schedules limit (enabled schedules; replacing one counts once).
// Disabled schedules are not counted: they never tick.
func (s *Scheduler) withinLimit(ctx context.Context, sc *gtmgate.Schedule) error {
	if !sc.Enabled {
		return nil
	}
	t, err := s.opts.Store.GetTenant(ctx, sc.TenantID)
	if err != nil {
		return err
	}
	limit := s.opts.Agents.Limits(t).Schedules
	n, err := s.opts.Store.CountEnabledSchedules(ctx, sc.TenantID, sc.JobID)
	if err != nil {
		return err
	}
	if n < limit {
		return nil
	}
	return gtmgate.Errorf(gtmgate.EQuotaExceeded, "tenant %q already has %d enabled schedules, its schedules limit; %s was not stored", sc.TenantID, n, sc.JobID).
		WithHint("delete or disable one of its schedules (enabled false), or have the operator raise limits.schedules on PUT /admin/tenants/{tenant_id} " +
			"(gateway default GTMGATE_TENANT_SCHEDULES)")
}
