package quota_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/quota"
)

// memStore keeps plans and counters for meters sharing it, as replicas share
// a database.
type memStore struct {
	mu       sync.Mutex
	plans    map[string]*gtmgate.BillingPlan
	counters map[[3]string]gtmgate.QuotaCounter
	rollups  []gtmgate.UsageRollup
}

func (s *memStore) ListUsageRollups(_ context.Context, q gtmgate.UsageQuery) ([]gtmgate.UsageRollup, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []gtmgate.UsageRollup
	for _, r := range s.rollups {
		if r.TenantID == q.TenantID && !r.Hour.Before(q.From) && r.Hour.Before(q.To) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *memStore) ListBillingPlans(context.Context) ([]*gtmgate.BillingPlan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*gtmgate.BillingPlan
	for _, p := range s.plans {
		cp := *p
		out = append(out, &cp)
	}
	return out, nil
}

func (s *memStore) GetBillingPlan(_ context.Context, id string) (*gtmgate.BillingPlan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.plans[id]
	if !ok {
		return nil, gtmgate.ErrNotFound
	}
	cp := *p
	return &cp, nil
}

func (s *memStore) PutQuotaCounter(_ context.Context, c gtmgate.QuotaCounter) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counters[[3]string{c.TenantID, c.PeriodStart.String(), c.Replica}] = c
	return nil
}

func (s *memStore) SumQuotaCounters(_ context.Context, tenant string, start time.Time, except string) (gtmgate.QuotaCounter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := gtmgate.QuotaCounter{TenantID: tenant, PeriodStart: start}
	for k, c := range s.counters {
		if k[0] == tenant && k[1] == start.String() && k[2] != except {
			sum.Calls += c.Calls
			sum.Tokens += c.Tokens
			sum.CostMicros += c.CostMicros
		}
	}
	return sum, nil
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// toolUse is the quota use of the calls call makes.
var toolUse = gtmgate.QuotaUse{TenantID: "acme", Use: gtmgate.UseTool, Tool: "crm_contacts", Action: "list"}

// admitAndCount reserves a place for e and, when admitted, counts e on it.
func admitAndCount(ctx context.Context, m *quota.Meter, e gtmgate.UsageEvent) error {
	res, err := m.ReserveQuota(ctx, toolUse)
	if err != nil {
		return err
	}
	e.Reservation = res
	m.Count(e)
	return nil
}

func call(at time.Time) gtmgate.UsageEvent {
	return gtmgate.UsageEvent{Time: at, TenantID: "acme", Tool: "crm_contacts", Action: "list", OK: true}
}

func TestTwoReplicasShareAHardQuota(t *testing.T) {
	ctx := t.Context()
	st := &memStore{plans: map[string]*gtmgate.BillingPlan{"acme": {TenantID: "acme", Currency: "EUR", Limit: gtmgate.LimitHard,
		IncludedCalls: 5, BillingDay: 1, Timezone: "UTC"}}, counters: map[[3]string]gtmgate.QuotaCounter{}}
	clk := &clock{now: time.Date(2026, 3, 31, 22, 0, 0, 0, time.UTC)}
	a := quota.New(quota.Options{Store: st, Replica: "a", Now: clk.Now})
	b := quota.New(quota.Options{Store: st, Replica: "b", Now: clk.Now})
	for _, m := range []*quota.Meter{a, b} {
		if err := m.Load(ctx); err != nil {
			t.Fatal(err)
		}
	}
	admit := func(m *quota.Meter) error {
		return admitAndCount(ctx, m, call(clk.Now()))
	}
	for range 3 {
		if err := admit(a); err != nil {
			t.Fatalf("a within the quota: %v", err)
		}
	}
	for range 2 {
		if err := admit(b); err != nil {
			t.Fatalf("b within the quota: %v", err)
		}
	}
	// Unsynced, each sees only its own count: this is the documented overshoot window.
	a.Sync(ctx)
	b.Sync(ctx)
	a.Sync(ctx) // a reads b's count
	for name, m := range map[string]*quota.Meter{"a": a, "b": b} {
		err := admit(m)
		if gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
			t.Errorf("%s after sync at 5 of 5: %v, want QUOTA_EXCEEDED", name, err)
			continue
		}
		e := err.(*gtmgate.Error)
		if e.RetryAfter != 2*3600+1 || e.Detail.(map[string]any)["quota"] != gtmgate.QuotaCalls {
			t.Errorf("%s: retry after %d, detail %v", name, e.RetryAfter, e.Detail)
		}
	}
	// The next period starts afresh.
	clk.Set(time.Date(2026, 4, 1, 0, 0, 1, 0, time.UTC))
	if err := admit(a); err != nil {
		t.Errorf("new period: %v", err)
	}
}

func TestSoftLimitAnnouncedOnce(t *testing.T) {
	ctx := t.Context()
	st := &memStore{plans: map[string]*gtmgate.BillingPlan{"acme": {TenantID: "acme", Currency: "EUR", Limit: gtmgate.LimitSoft,
		MonthlyBudget: 1, ToolCallPrice: gtmgate.CallPrices{Default: 0.5}}}, counters: map[[3]string]gtmgate.QuotaCounter{}}
	var events []quota.Event
	m := quota.New(quota.Options{Store: st, Replica: "a", SoftLimit: func(_ context.Context, e quota.Event) { events = append(events, e) }})
	if err := m.Load(ctx); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	for range 4 {
		res, err := m.ReserveQuota(ctx, toolUse)
		if err != nil {
			t.Fatal(err)
		}
		warnings = append(warnings, res.Warning())
		e := call(time.Now())
		e.Reservation = res
		m.Count(e)
	}
	if warnings[0] != "" || warnings[1] != "" || warnings[2] == "" || warnings[3] == "" {
		t.Errorf("warnings %q: want none until the budget of 1.00 is spent (2 calls at 0.50)", warnings)
	}
	if len(events) != 1 || events[0].Quota != gtmgate.QuotaBudget || events[0].Used != 1 {
		t.Errorf("events %+v, want one budget event", events)
	}
	// Failed calls are free and not counted.
	m2 := quota.New(quota.Options{Store: st, Replica: "b"})
	m2.Load(ctx)
	for range 5 {
		e := call(time.Now())
		e.OK = false
		m2.Count(e)
	}
	if res, err := m2.ReserveQuota(ctx, toolUse); err != nil || res.Warning() != "" {
		t.Errorf("failed calls counted: %v", err)
	}
}

// TestPlanSetMidPeriodCountsEarlierUsage: calls made before a plan had
// quotas count against them, as the billing statement counts them (from
// the rollups), and calls counted after are not counted twice once they
// reach the rollups too.
func TestPlanSetMidPeriodCountsEarlierUsage(t *testing.T) {
	ctx := t.Context()
	clk := &clock{now: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
	hour := func(h int) time.Time { return time.Date(2026, 3, 10, h, 0, 0, 0, time.UTC) }
	st := &memStore{plans: map[string]*gtmgate.BillingPlan{}, counters: map[[3]string]gtmgate.QuotaCounter{},
		rollups: []gtmgate.UsageRollup{
			{Hour: hour(9), TenantID: "acme", Tool: "crm_contacts", Action: "list", Calls: 4, Errors: 1},
			{Hour: hour(10), TenantID: "acme", Tool: "crm_contacts", Action: "list", Calls: 3},
			{Hour: hour(10), TenantID: "beta", Tool: "crm_contacts", Action: "list", Calls: 50},
			// Last period's calls are not this one's.
			{Hour: time.Date(2026, 2, 27, 9, 0, 0, 0, time.UTC), TenantID: "acme", Tool: "crm_contacts", Action: "list", Calls: 50},
		}}
	m := quota.New(quota.Options{Store: st, Replica: "a", Now: clk.Now})
	if err := m.Load(ctx); err != nil {
		t.Fatal(err)
	}
	check := func() error { return admitAndCount(ctx, m, call(clk.Now())) }
	if err := check(); err != nil { // no plan: not limited
		t.Fatal(err)
	}
	// 6 successful calls so far this period; a quota of 8 leaves 2.
	st.plans["acme"] = &gtmgate.BillingPlan{TenantID: "acme", Currency: "EUR", Limit: gtmgate.LimitHard, IncludedCalls: 8, BillingDay: 1, Timezone: "UTC"}
	m.PlanChanged("acme")
	for i := range 2 {
		if err := check(); err != nil {
			t.Fatalf("call %d of the 2 left: %v", i, err)
		}
	}
	if err := check(); gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
		t.Fatalf("past 8 with earlier usage: %v", err)
	}
	// The counted calls reach the rollups; a later read does not add them twice.
	st.mu.Lock()
	st.rollups = append(st.rollups, gtmgate.UsageRollup{Hour: hour(12), TenantID: "acme", Tool: "crm_contacts", Action: "list", Calls: 2})
	st.plans["acme"].IncludedCalls = 9
	st.mu.Unlock()
	m.PlanChanged("acme")
	if err := check(); err != nil {
		t.Fatalf("the 9th call with a quota of 9: %v", err)
	}
}
