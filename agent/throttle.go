package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
)

// StepLimiter admits one tool call of a run as its tenant: against the
// tenant's request rate limit (rate_limits.tenant, the bucket its REST,
// MCP and chat requests share) and its steps_per_minute. It returns 0 when
// the call may go now (taking from every bucket), else how long until it
// may (taking from none), and which limit holds it.
type StepLimiter interface {
	Step(ctx context.Context, t *gtmgate.Tenant, stepsPerMinute int) (wait time.Duration, limit string)
}

// throttle holds a run's next step while its tenant is over a rate limit:
// the run says why, and its job snoozes until the limit allows the step.
// Scheduled calls are runs too, so they are held the same way.
func (a *Agents) throttle(ctx context.Context, r *gtmgate.AgentRun) error {
	if a.opts.Steps == nil {
		return nil
	}
	t, err := a.opts.Store.GetTenant(ctx, r.TenantID)
	if err != nil {
		return fmt.Errorf("read tenant %s's limits: %w", r.TenantID, err)
	}
	lim := a.Limits(t)
	wait, limit := a.opts.Steps.Step(ctx, t, lim.StepsPerMinute)
	if wait <= 0 {
		return nil
	}
	return a.hold(ctx, r, limit+": the tenant's run steps are over this rate; the next step waits for it", max(wait, 100*time.Millisecond))
}
