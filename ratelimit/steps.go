package ratelimit

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/gtmgate/gtmgate"
)

// stepsKey names a tenant's steps bucket; no credential id is empty.
const stepsKey = "\x00steps"

// Step admits one tool call of an agent run (a step or a scheduled call)
// of tenant t: one token from its request bucket (rate_limits.tenant, the
// one its REST, MCP and chat requests take from) and one from its steps
// bucket, which refills stepsPerMinute a minute with bursts of a sixth of
// that (ten seconds' worth), both at this replica's share. It takes from
// both or, when one is short, from neither, and returns how long until
// both allow the call and the limit that holds it ("" when admitted).
func (l *Limiter) Step(_ context.Context, t *gtmgate.Tenant, stepsPerMinute int) (time.Duration, string) {
	var buf [2]policy
	policies := buf[:0]
	if t.RateLimits != nil && t.RateLimits.Tenant != nil && t.RateLimits.Tenant.RequestsPerSecond > 0 {
		policies = append(policies, policy{"tenant", bucketKey{tenant: t.ID}, t.RateLimits.Tenant})
	}
	if stepsPerMinute > 0 {
		policies = append(policies, policy{"steps", bucketKey{t.ID, stepsKey},
			&gtmgate.RateLimit{RequestsPerSecond: float64(stepsPerMinute) / 60, Burst: max(1, int(math.Ceil(float64(stepsPerMinute)/6)))}})
	}
	if len(policies) == 0 {
		return 0, ""
	}
	now := l.opts.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var bs [2]*bucket
	_, wait, held := l.take(policies, now, bs[:0])
	switch {
	case held == nil:
		return 0, ""
	case held.name == "steps":
		return wait, fmt.Sprintf("steps_per_minute (%d)", stepsPerMinute)
	}
	return wait, fmt.Sprintf("rate_limits.tenant (%g requests per second)", held.limit.RequestsPerSecond)
}
