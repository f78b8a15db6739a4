package quota

import (
	"context"
	"fmt"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/billing"
)

// ReserveQuota implements gtmgate.QuotaChecker. The check and the
// reservation happen under one lock, so concurrent calls on this replica are
// admitted one after another, each seeing the places of those before it.
//
// A tool call's use is known before it runs (one call at its category's
// price): it is admitted only if it fits within the calls quota and the
// budget. A chat completion's tokens are known only when it ends: it is
// admitted while the tokens quota and the budget are not reached, counting
// the completions in flight at their caps, and holds the request's
// max_tokens (priced at the model's output price). Refusing a completion
// whose cap alone would not fit would refuse most requests near the end of
// a quota (clients set generous caps), so a hard tokens quota or budget can
// be passed by the prompt tokens of the completions in flight, the tokens of
// uncapped ones, and the cap of the last one admitted.
func (m *Meter) ReserveQuota(ctx context.Context, q gtmgate.QuotaUse) (gtmgate.QuotaReservation, error) {
	now := m.opts.Now()
	m.mu.Lock()
	plan := m.plans[q.TenantID]
	if !limited(plan) {
		m.mu.Unlock()
		return unmetered, nil
	}
	u := m.state(q.TenantID, plan, now)
	for !u.synced {
		// The first check of a period (or under a changed plan) waits for
		// the read of the other replicas' count and the period's rollups:
		// admitting before it would not see the period's earlier use.
		m.mu.Unlock()
		if err := m.syncTenant(ctx, q.TenantID, true); err != nil {
			return nil, &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the tenant's quota usage could not be read",
				Hint: "retry shortly", Err: err}
		}
		m.mu.Lock()
		plan = m.plans[q.TenantID]
		if !limited(plan) {
			m.mu.Unlock()
			return unmetered, nil
		}
		u = m.state(q.TenantID, plan, now)
	}
	need := m.need(plan, q)
	s := reached(plan, u, q.Use, need)
	if s.quota != "" && plan.Limit == gtmgate.LimitHard {
		period := u.period
		m.mu.Unlock()
		return nil, &gtmgate.Error{Code: gtmgate.EQuotaExceeded,
			Message: fmt.Sprintf("tenant %q has no room for this call in its billing period: %s; it resets at %s",
				q.TenantID, s.describe(), period.End.UTC().Format(time.RFC3339)),
			Hint:       "ask the operator to raise the quota, or wait for the period to reset",
			Detail:     map[string]any{"quota": s.quota, "limit": s.limit, "used": s.used, "resets_at": period.End.UTC()},
			RetryAfter: int(period.End.Sub(now).Seconds()) + 1}
	}
	u.reserved = u.reserved.plus(need)
	r := &reservation{m: m, tenantID: q.TenantID, held: need}
	if s.quota == "" {
		m.mu.Unlock()
		return r, nil
	}
	first := !u.warned[s.quota]
	if first {
		if u.warned == nil {
			u.warned = map[string]bool{}
		}
		u.warned[s.quota] = true
	}
	period := u.period
	m.mu.Unlock()

	r.warning = fmt.Sprintf("%s; resets %s", s.describe(), period.End.UTC().Format(time.RFC3339))
	if first {
		m.opts.Logger.Warn("quota: soft limit reached; calls go on", "tenant_id", q.TenantID, "quota", s.quota, "used", s.used, "limit", s.limit)
		if m.opts.SoftLimit != nil {
			m.opts.SoftLimit(ctx, Event{TenantID: q.TenantID, Quota: s.quota, Limit: s.limit, Used: s.used, Period: period.Label(), ResetsAt: period.End.UTC()})
		}
	}
	return r, nil
}

// amounts are calls, tokens and cost (in micros) held by calls in flight.
type amounts struct{ calls, tokens, cost int64 }

func (a amounts) plus(b amounts) amounts {
	return amounts{a.calls + b.calls, a.tokens + b.tokens, a.cost + b.cost}
}
func (a amounts) minus(b amounts) amounts {
	return amounts{a.calls - b.calls, a.tokens - b.tokens, a.cost - b.cost}
}

// need is what a call holds while it is in flight.
func (m *Meter) need(plan *gtmgate.BillingPlan, q gtmgate.QuotaUse) amounts {
	pr := billing.Pricing{Plan: plan, Category: m.opts.Category}
	if q.Use == gtmgate.UseChat {
		cost := pr.Cost(gtmgate.UsageRollup{Tool: gtmgate.ChatUsageTool, Action: q.Model, CompletionTokens: q.MaxTokens})
		return amounts{tokens: q.MaxTokens, cost: int64(cost)}
	}
	return amounts{calls: 1, cost: int64(pr.CallPrice(q.Tool, q.Action))}
}

// status is the quota a call would pass, if any, with its limit, its use
// (counted plus held by calls in flight) and the call's own need.
type status struct {
	quota       string
	limit, used float64
	need        float64
}

// describe says how far the quota is used, for messages and warnings.
func (s status) describe() string {
	if s.used >= s.limit || s.need == 0 {
		return fmt.Sprintf("%s reached (%s of %s)", s.quota, format(s.quota, s.used), format(s.quota, s.limit))
	}
	return fmt.Sprintf("%s would be passed by this call (%s of %s used, the call needs %s)",
		s.quota, format(s.quota, s.used), format(s.quota, s.limit), format(s.quota, s.need))
}

// reached returns the quota a call of use needing need would pass. A tool
// call must fit; a chat completion only finds its quotas not yet reached.
func reached(p *gtmgate.BillingPlan, u *usage, use string, need amounts) status {
	used := func(own, others, persisted, countedAt, reserved int64) int64 {
		return max(own+others, persisted+own+others-countedAt) + reserved
	}
	calls := used(u.own.Calls, u.others.Calls, u.persisted.Calls, u.countedAt.Calls, u.reserved.calls)
	tokens := used(u.own.Tokens, u.others.Tokens, u.persisted.Tokens, u.countedAt.Tokens, u.reserved.tokens)
	cost := used(u.own.CostMicros, u.others.CostMicros, u.persisted.CostMicros, u.countedAt.CostMicros, u.reserved.cost)
	exact := use == gtmgate.UseTool
	if exact && p.IncludedCalls > 0 && calls+need.calls > p.IncludedCalls {
		return status{gtmgate.QuotaCalls, float64(p.IncludedCalls), float64(calls), float64(need.calls)}
	}
	if use == gtmgate.UseChat && p.IncludedTokens > 0 && tokens >= p.IncludedTokens {
		return status{gtmgate.QuotaTokens, float64(p.IncludedTokens), float64(tokens), 0}
	}
	if budget := int64(billing.ToMicros(p.MonthlyBudget)); budget > 0 && (cost >= budget || exact && cost+need.cost > budget) {
		return status{gtmgate.QuotaBudget, p.MonthlyBudget, billing.Micros(cost).Float(), billing.Micros(need.cost).Float()}
	}
	return status{}
}

func format(quota string, v float64) string {
	if quota == gtmgate.QuotaBudget {
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

// Count adds one recorded call's usage to this replica's count. An event
// that carries its call's reservation settles it in the same step, so no
// check sees the call both held and counted, or neither.
func (m *Meter) Count(e gtmgate.UsageEvent) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := e.Reservation.(*reservation); ok && r.m == m {
		if r.state == counted {
			return // an event counts once
		}
		r.settle(counted)
	}
	plan := m.plans[e.TenantID]
	if !limited(plan) {
		return
	}
	ok := int64(1)
	if e.OK {
		ok = 0
	}
	calls, tokens, cost := billing.Pricing{Plan: plan, Category: m.opts.Category}.Usage(gtmgate.UsageRollup{
		Tool: e.Tool, Action: e.Action, Calls: 1, Errors: ok, PromptTokens: e.PromptTokens, CompletionTokens: e.CompletionTokens})
	if calls == 0 && tokens == 0 && cost == 0 {
		return
	}
	// The meter's clock, not the call's start: a call that began before a
	// period's end and finished after it counts in the new period (which
	// its place was carried into).
	u := m.state(e.TenantID, plan, m.opts.Now())
	u.own.Calls += calls
	u.own.Tokens += tokens
	u.own.CostMicros += int64(cost)
	u.dirty = true
}

// Settlement states of a reservation.
const (
	held = iota
	released
	counted
)

// reservation is an admitted call's place, held in its tenant's current
// period until the call is counted or released.
type reservation struct {
	m        *Meter // nil for a call no quota applies to
	tenantID string
	held     amounts
	warning  string
	state    int // guarded by m.mu
}

// unmetered is the reservation of calls no quota applies to.
var unmetered = &reservation{}

// Warning implements gtmgate.QuotaReservation.
func (r *reservation) Warning() string { return r.warning }

// Release implements gtmgate.QuotaReservation.
func (r *reservation) Release() {
	if r.m == nil {
		return
	}
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	if r.state == held {
		r.settle(released)
	}
}

// settle gives the place back and marks how the call ended. m.mu is held.
func (r *reservation) settle(state int) {
	if r.state == held {
		// The tenant's current period: places carry over a period's end.
		if u := r.m.tenants[r.tenantID]; u != nil {
			u.reserved = u.reserved.minus(r.held)
		}
	}
	r.state = state
}

// Held reports what the calls in flight on this replica hold in a tenant's
// current period (calls, tokens and cost only), for tests and diagnostics.
func (m *Meter) Held(tenantID string) gtmgate.QuotaCounter {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u := m.tenants[tenantID]; u != nil {
		return gtmgate.QuotaCounter{Calls: u.reserved.calls, Tokens: u.reserved.tokens, CostMicros: u.reserved.cost}
	}
	return gtmgate.QuotaCounter{}
}
