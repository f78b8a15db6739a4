package quota_test

import (
	"context"
	"runtime"
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
	// rollupReads counts the reads of the rollups; duringRead, when set,
	// runs in each one after the rollups are read, before they are returned.
	rollupReads int
	duringRead  func()
}

func (s *memStore) ListUsageRollups(_ context.Context, q gtmgate.UsageQuery) ([]gtmgate.UsageRollup, error) {
	runtime.Gosched() // a round trip, as a database's: other goroutines run meanwhile
	out := s.listRollups(q)
	if s.duringRead != nil {
		s.duringRead()
	}
	return out, nil
}

func (s *memStore) listRollups(q gtmgate.UsageQuery) []gtmgate.UsageRollup {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rollupReads++
	var out []gtmgate.UsageRollup
	for _, r := range s.rollups {
		if r.TenantID == q.TenantID && !r.Hour.Before(q.From) && r.Hour.Before(q.To) {
			out = append(out, r)
		}
	}
	return out
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

// TestFirstChecksShareOneRead: the checks that arrive at once at the start
// of a period wait for one read of the period's usage, and none is
// admitted without it (issue 43: each made its own read, and a read that
// ended last overwrote the calls counted since it began).
func TestFirstChecksShareOneRead(t *testing.T) {
	const calls = 64
	m, st := newMeter(t, gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: 40}, nil)
	st.rollups = []gtmgate.UsageRollup{{Hour: time.Now().UTC().Truncate(time.Hour), TenantID: "acme", Tool: "crm_contacts",
		Action: "list", Calls: 30}}
	var admitted sync.WaitGroup
	var mu sync.Mutex
	outcomes := map[string]int{}
	for range calls {
		admitted.Go(func() {
			err := admitAndCount(t.Context(), m, call(time.Now()))
			mu.Lock()
			outcomes[string(gtmgate.ErrorCode(err))]++
			mu.Unlock()
		})
	}
	admitted.Wait()
	if outcomes[""] != 10 || outcomes[string(gtmgate.EQuotaExceeded)] != calls-10 {
		t.Errorf("outcomes %v, want 10 admitted (30 of 40 used before) and the rest QUOTA_EXCEEDED", outcomes)
	}
	if st.rollupReads != 1 {
		t.Errorf("%d reads of the rollups for %d checks at once, want 1", st.rollupReads, calls)
	}
}

// TestPlanChangedDuringARead: a read of the rollups begun under the old plan
// and ending after the plan changed does not stand for the new plan: the
// next check reads again, priced under the new plan.
func TestPlanChangedDuringARead(t *testing.T) {
	ctx := t.Context()
	// Ten calls earlier in the period: 0.10 under the first plan's prices,
	// 1.00 under the second's, whose budget of 1.60 leaves room for 6.
	m, st := newMeter(t, gtmgate.BillingPlan{Limit: gtmgate.LimitHard, MonthlyBudget: 100,
		ToolCallPrice: gtmgate.CallPrices{Default: 0.01}}, nil)
	st.rollups = []gtmgate.UsageRollup{{Hour: time.Now().UTC().Truncate(time.Hour), TenantID: "acme", Tool: "crm_contacts",
		Action: "list", Calls: 10}}
	res, err := m.ReserveQuota(ctx, toolUse) // the period's first read
	if err != nil {
		t.Fatal(err)
	}
	res.Release()
	st.duringRead = func() {
		st.duringRead = nil
		st.mu.Lock()
		st.plans["acme"] = &gtmgate.BillingPlan{TenantID: "acme", Currency: "EUR", Limit: gtmgate.LimitHard, MonthlyBudget: 1.6,
			ToolCallPrice: gtmgate.CallPrices{Default: 0.1}, BillingDay: 1, Timezone: "UTC"}
		st.mu.Unlock()
		m.PlanChanged("acme")
	}
	m.PlanChanged("acme") // the same plan: the next exchange reads the rollups
	m.Sync(ctx)           // reads under the first plan; the plan changes meanwhile
	admitted := 0
	for admitted <= 20 {
		if err := admitAndCount(ctx, m, call(time.Now())); err != nil {
			if gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
				t.Fatal(err)
			}
			break
		}
		admitted++
	}
	if admitted != 6 {
		t.Errorf("%d calls admitted under the new plan, want 6", admitted)
	}
}
