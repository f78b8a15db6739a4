// Package quota enforces billing plans' quotas and budgets on every tool call
// and chat completion. Each replica counts the usage it records itself
// (exactly, in memory) and every SyncEvery stores its count for the period
// and reads the sum of the other replicas' counts. Admission compares own
// plus others plus what admitted calls still hold with the plan, in memory,
// and reserves the call's place under the same lock (ReserveQuota): no store
// round trip on the call's path, and calls in flight count before they end.
// Counting the call's usage event turns its place into its counted use;
// Release gives back the place of a call whose usage is not counted.
//
// The bound on one replica: a tool call is admitted only if it fits (one
// call, its category's price), so a hard calls quota or budget is never
// passed under any concurrency. A chat completion is admitted while the
// tokens quota and budget are not reached and holds its max_tokens cap; its
// real token count is known only when it ends (see ReserveQuota).
//
// The bound across replicas: another replica's usage is seen at most one
// sync interval (plus one store write) late, and its calls in flight not at
// all, so a tenant can overshoot a hard quota by at most the usage the other
// replicas record in that time. A replica that dies loses at most its last
// interval's count.
//
// Counters count from when a replica first applies a plan with quotas. So
// that usage from before (a plan set or given quotas mid-period) counts as
// the billing statement counts it, the meter also reads the period's hourly
// rollups when it starts counting a period, when a plan changes and every
// rollupsEvery. Use is then the larger of the counters and the rollups plus
// what the counters grew by since that read. So that no call is missed,
// the counters' figure is taken before the read and the recorder is
// flushed between the two (Options.Flush): a call is counted only after its
// record is kept, so every call counted before the figure is in the
// rollups read. Exchanges with the store run one at a time per tenant, and
// the first checks of a period (or plan) wait for one: a read is never
// applied after a later one, nor over calls counted while it ran. The one
// slack is on the safe side: a call recorded while a read runs may count
// twice until the next read.
package quota

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/billing"
)

// Store is what the meter needs.
type Store interface {
	ListBillingPlans(ctx context.Context) ([]*gtmgate.BillingPlan, error)
	GetBillingPlan(ctx context.Context, tenantID string) (*gtmgate.BillingPlan, error)
	PutQuotaCounter(ctx context.Context, c gtmgate.QuotaCounter) error
	SumQuotaCounters(ctx context.Context, tenantID string, periodStart time.Time, exceptReplica string) (gtmgate.QuotaCounter, error)
	ListUsageRollups(ctx context.Context, q gtmgate.UsageQuery) ([]gtmgate.UsageRollup, error)
}

// rollupsEvery is how often a tenant's period rollups are read again.
const rollupsEvery = time.Minute

// flushTimeout bounds the wait for recorded calls to reach the store before
// a rollups read.
const flushTimeout = 5 * time.Second

// Event is a soft limit reached: once per tenant, period and quota.
type Event struct {
	TenantID string    `json:"tenant_id"`
	Quota    string    `json:"quota"`
	Limit    float64   `json:"limit"`
	Used     float64   `json:"used"`
	Period   string    `json:"period"`
	ResetsAt time.Time `json:"resets_at"`
}

// Options configures a Meter. Store is required.
type Options struct {
	Store Store
	// Category prices tool calls by their action's category.
	Category func(tool, action string) string
	// Replica names this process's counters (default host, pid and a
	// random suffix: a restart counts afresh, its predecessor's count stays).
	Replica string
	// SyncEvery is how often counters are exchanged and plans reloaded
	// (default 1s).
	SyncEvery time.Duration
	// SoftLimit, when set, is told of each soft limit reached.
	SoftLimit func(ctx context.Context, e Event)
	// Flush, when set, returns once every call recorded so far is in the
	// store (the audit writer's Flush); the meter calls it before reading
	// the rollups. Without it, a call is taken to be in the store once its
	// record returns.
	Flush  func(ctx context.Context) error
	Now    func() time.Time
	Logger *slog.Logger
}

// Meter checks and counts quota use.
type Meter struct {
	opts Options

	mu      sync.Mutex
	plans   map[string]*gtmgate.BillingPlan
	tenants map[string]*usage
}

// usage is one tenant's count in its current period.
type usage struct {
	period billing.Period
	own    gtmgate.QuotaCounter // recorded by this replica
	others gtmgate.QuotaCounter // the other replicas', as of the last sync
	// persisted is the period's usage in the rollups as of persistedAt,
	// priced under the current plan, and countedAt own plus others then.
	persisted, countedAt gtmgate.QuotaCounter
	persistedAt          time.Time
	// reserved is what admitted calls not yet settled hold (on this
	// replica only); it carries over into the next period, where the calls
	// will be counted.
	reserved amounts
	synced   bool // others (and the rollups, when due) read for this period and plan
	dirty    bool // own changed since it was stored
	warned   map[string]bool
	// plan counts the plan changes, so an exchange begun under an older
	// plan does not mark the count synced (its rollups are priced anew).
	plan int
	// exchange is held by the one exchange with the store running.
	exchange chan struct{}
}

// New returns a Meter; Load reads the plans and Run exchanges counters.
func New(opts Options) *Meter {
	if opts.SyncEvery <= 0 {
		opts.SyncEvery = time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Replica == "" {
		host, _ := os.Hostname()
		b := make([]byte, 4)
		rand.Read(b)
		opts.Replica = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
	}
	return &Meter{opts: opts, plans: map[string]*gtmgate.BillingPlan{}, tenants: map[string]*usage{}}
}

// Load reads the billing plans; call it before the first check.
func (m *Meter) Load(ctx context.Context) error {
	if err := m.loadPlans(ctx); err != nil {
		return fmt.Errorf("quota: load billing plans: %w", err)
	}
	return nil
}

// Run exchanges counters every SyncEvery until ctx ends, then stores the
// last count.
func (m *Meter) Run(ctx context.Context) {
	t := time.NewTicker(m.opts.SyncEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			m.Sync(sctx)
			cancel()
			return
		case <-t.C:
			m.Sync(ctx)
		}
	}
}

func (m *Meter) loadPlans(ctx context.Context) error {
	list, err := m.opts.Store.ListBillingPlans(ctx)
	if err != nil {
		return err
	}
	plans := make(map[string]*gtmgate.BillingPlan, len(list))
	for _, p := range list {
		plans[p.TenantID] = p
	}
	m.mu.Lock()
	m.plans = plans
	m.mu.Unlock()
	return nil
}

// PlanChanged reloads one tenant's plan at once (PUT /admin/billing).
func (m *Meter) PlanChanged(tenantID string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	p, err := m.opts.Store.GetBillingPlan(ctx, tenantID)
	if err != nil {
		m.opts.Logger.Warn("quota: reloading a billing plan; the next sync will", "tenant_id", tenantID, "err", err)
		return
	}
	m.mu.Lock()
	m.plans[tenantID] = p
	if u := m.tenants[tenantID]; u != nil {
		u.warned = nil // a raised quota may be reached again
		// The next check reads the counters and the rollups, priced anew.
		u.synced, u.persistedAt = false, time.Time{}
		u.plan++
	}
	m.mu.Unlock()
}

// limited reports whether a plan sets any quota or budget.
func limited(p *gtmgate.BillingPlan) bool {
	return p != nil && (p.IncludedCalls > 0 || p.IncludedTokens > 0 || p.MonthlyBudget > 0)
}

// state returns the tenant's usage in the current period, starting a new
// count once now has passed the end of the last one. m.mu is held.
func (m *Meter) state(tenantID string, plan *gtmgate.BillingPlan, now time.Time) *usage {
	u := m.tenants[tenantID]
	if u == nil || !now.Before(u.period.End) {
		p := billing.PeriodAt(plan, now)
		next := &usage{period: p, own: gtmgate.QuotaCounter{TenantID: tenantID, PeriodStart: p.Start.UTC(), Replica: m.opts.Replica},
			exchange: make(chan struct{}, 1)}
		if u != nil {
			next.reserved = u.reserved
		}
		u = next
		m.tenants[tenantID] = u
	}
	return u
}

// Sync stores this replica's changed counts, reads the others' and reloads
// the plans. Failures are logged; checks go on with the last known counts.
func (m *Meter) Sync(ctx context.Context) {
	if err := m.loadPlans(ctx); err != nil {
		m.opts.Logger.Warn("quota: reloading billing plans", "err", err)
	}
	m.mu.Lock()
	ids := make([]string, 0, len(m.tenants))
	for id := range m.tenants {
		ids = append(ids, id)
	}
	m.mu.Unlock()
	for _, id := range ids {
		if err := m.syncTenant(ctx, id, false); err != nil {
			m.opts.Logger.Warn("quota: exchanging counters", "tenant_id", id, "err", err)
		}
	}
}

// syncTenant stores one tenant's own count when changed and reads the
// others', then the period's rollups when due. Exchanges of one tenant run
// one at a time, so each applies what it read in order. With first (a
// check waiting for the period's first read) it does nothing once an
// earlier exchange has synced the count: the checks waiting share one read.
func (m *Meter) syncTenant(ctx context.Context, tenantID string, first bool) error {
	m.mu.Lock()
	u := m.tenants[tenantID]
	m.mu.Unlock()
	if u == nil {
		return nil
	}
	select {
	case u.exchange <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-u.exchange }()
	m.mu.Lock()
	if m.tenants[tenantID] != u || first && u.synced {
		m.mu.Unlock()
		return nil // a new period began, or the count was synced meanwhile
	}
	own, dirty, plan, period, planSeen := u.own, u.dirty, m.plans[tenantID], u.period, u.plan
	readRollups := limited(plan) && m.opts.Now().Sub(u.persistedAt) >= rollupsEvery
	u.dirty = false
	m.mu.Unlock()
	if dirty {
		if err := m.opts.Store.PutQuotaCounter(ctx, own); err != nil {
			m.mu.Lock()
			u.dirty = true
			m.mu.Unlock()
			return err
		}
	}
	others, err := m.opts.Store.SumQuotaCounters(ctx, tenantID, own.PeriodStart, m.opts.Replica)
	if err != nil {
		return err
	}
	var persisted, counted gtmgate.QuotaCounter
	if readRollups {
		// What this replica counted up to now is in the rollups once the
		// recorder is flushed: a call is counted after its record is kept.
		m.mu.Lock()
		counted = u.own
		m.mu.Unlock()
		if persisted, err = m.persistedUsage(ctx, plan, period); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tenants[tenantID] != u {
		return nil // a new period began meanwhile
	}
	u.others = others
	if u.plan != planSeen {
		return nil // the plan changed: the next exchange reads under the new one
	}
	u.synced = true
	if readRollups {
		u.persisted, u.persistedAt = persisted, m.opts.Now()
		u.countedAt = gtmgate.QuotaCounter{Calls: counted.Calls + others.Calls, Tokens: counted.Tokens + others.Tokens,
			CostMicros: counted.CostMicros + others.CostMicros}
	}
	return nil
}

// persistedUsage flushes the recorder, then prices the period's rollups
// under plan, as the billing statement does.
func (m *Meter) persistedUsage(ctx context.Context, plan *gtmgate.BillingPlan, p billing.Period) (gtmgate.QuotaCounter, error) {
	if m.opts.Flush != nil {
		fctx, cancel := context.WithTimeout(ctx, flushTimeout)
		err := m.opts.Flush(fctx)
		cancel()
		if err != nil {
			return gtmgate.QuotaCounter{}, fmt.Errorf("quota: recorded calls not yet in the store: %w", err)
		}
	}
	rows, err := m.opts.Store.ListUsageRollups(ctx, gtmgate.UsageQuery{TenantID: plan.TenantID, From: p.Start, To: p.End})
	if err != nil {
		return gtmgate.QuotaCounter{}, err
	}
	pr := billing.Pricing{Plan: plan, Category: m.opts.Category}
	var c gtmgate.QuotaCounter
	for _, r := range rows {
		calls, tokens, cost := pr.Usage(r)
		c.Calls += calls
		c.Tokens += tokens
		c.CostMicros += int64(cost)
	}
	return c, nil
}

var _ gtmgate.QuotaChecker = (*Meter)(nil)

// Recorder counts each usage event recorded through it.
type Recorder struct {
	gtmgate.Recorder
	Meter *Meter
}

// Record implements gtmgate.Recorder.
func (r Recorder) Record(ctx context.Context, a gtmgate.AuditEntry, u *gtmgate.UsageEvent) error {
	err := r.Recorder.Record(ctx, a, u)
	if err == nil && u != nil {
		r.Meter.Count(*u)
	}
	return err
}
