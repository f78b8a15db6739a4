package quota_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/quota"
)

// newMeter returns a loaded meter "a" for tenant acme's plan on a fresh store.
func newMeter(t testing.TB, plan gtmgate.BillingPlan, now func() time.Time) (*quota.Meter, *memStore) {
	t.Helper()
	plan.TenantID, plan.Currency = "acme", "EUR"
	if plan.Timezone == "" {
		plan.BillingDay, plan.Timezone = 1, "UTC"
	}
	st := &memStore{plans: map[string]*gtmgate.BillingPlan{"acme": &plan}, counters: map[[3]string]gtmgate.QuotaCounter{}}
	m := quota.New(quota.Options{Store: st, Replica: "a", Now: now, Category: func(_, action string) string {
		if action == "create" {
			return "crm_write"
		}
		return "crm_read"
	}})
	if err := m.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	return m, st
}

// counted is what replica a has counted for acme, as it stores it.
func counted(t *testing.T, m *quota.Meter, st *memStore) gtmgate.QuotaCounter {
	t.Helper()
	m.Sync(t.Context())
	st.mu.Lock()
	defer st.mu.Unlock()
	for k, c := range st.counters {
		if k[0] == "acme" && k[2] == "a" {
			return c
		}
	}
	return gtmgate.QuotaCounter{}
}

// step is one thing a test does to the meter: admit a call (into slot
// name), or settle the call in a slot: "ok" counts it as succeeded, "fail"
// as failed (free), "release" gives its place back.
type step struct {
	admit  string
	use    gtmgate.QuotaUse
	settle string
	slot   string
	tokens int64 // a chat completion's real tokens, when it is counted
	// want for an admission: "" admitted, "warn" admitted with a warning,
	// else a substring of the QUOTA_EXCEEDED message.
	want string
}

var (
	readCall  = gtmgate.QuotaUse{TenantID: "acme", Use: gtmgate.UseTool, Tool: "crm_contacts", Action: "list"}
	writeCall = gtmgate.QuotaUse{TenantID: "acme", Use: gtmgate.UseTool, Tool: "crm_contacts", Action: "create"}
	chatCall  = func(cap int64) gtmgate.QuotaUse {
		return gtmgate.QuotaUse{TenantID: "acme", Use: gtmgate.UseChat, Model: "m", MaxTokens: cap}
	}
)

func TestReservations(t *testing.T) {
	prices := gtmgate.CallPrices{Default: 0.1, ByCategory: map[string]float64{"crm_write": 0.3}}
	tests := []struct {
		name  string
		plan  gtmgate.BillingPlan
		steps []step
		// held and own are what is held and counted at the end.
		held, own gtmgate.QuotaCounter
	}{{
		name: "calls in flight take the places of a hard quota",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: 2},
		steps: []step{
			{admit: "a", use: readCall}, {admit: "b", use: readCall},
			{admit: "c", use: readCall, want: "included_calls reached (2 of 2)"},
			{settle: "ok", slot: "a"},
			{admit: "c", use: readCall, want: "included_calls reached (2 of 2)"},
		},
		held: gtmgate.QuotaCounter{Calls: 1, CostMicros: 0}, own: gtmgate.QuotaCounter{Calls: 1},
	}, {
		name: "a released or failed call gives its place back",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: 2},
		steps: []step{
			{admit: "a", use: readCall}, {admit: "b", use: readCall},
			{settle: "release", slot: "a"}, {settle: "fail", slot: "b"},
			{admit: "c", use: readCall}, {admit: "d", use: readCall},
			{admit: "e", use: readCall, want: "QUOTA_EXCEEDED"},
			{settle: "ok", slot: "c"}, {settle: "ok", slot: "d"},
		},
		own: gtmgate.QuotaCounter{Calls: 2},
	}, {
		name: "settling twice changes nothing",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: 2},
		steps: []step{
			{admit: "a", use: readCall},
			{settle: "ok", slot: "a"}, {settle: "ok", slot: "a"}, {settle: "release", slot: "a"},
			{admit: "b", use: readCall}, {settle: "release", slot: "b"}, {settle: "release", slot: "b"},
			{admit: "c", use: readCall},
		},
		held: gtmgate.QuotaCounter{Calls: 1}, own: gtmgate.QuotaCounter{Calls: 1},
	}, {
		name: "a call released, then counted, counts",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: 2},
		steps: []step{
			{admit: "a", use: readCall}, {settle: "release", slot: "a"}, {settle: "ok", slot: "a"},
		},
		own: gtmgate.QuotaCounter{Calls: 1},
	}, {
		name: "a soft quota admits with a warning and still holds",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitSoft, IncludedCalls: 1},
		steps: []step{
			{admit: "a", use: readCall}, {admit: "b", use: readCall, want: "warn"},
			{settle: "ok", slot: "a"},
		},
		held: gtmgate.QuotaCounter{Calls: 1}, own: gtmgate.QuotaCounter{Calls: 1},
	}, {
		name: "a hard budget admits only calls whose price fits",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitHard, MonthlyBudget: 1, ToolCallPrice: prices},
		steps: []step{
			{admit: "w1", use: writeCall}, {admit: "w2", use: writeCall}, {admit: "w3", use: writeCall},
			{admit: "w4", use: writeCall, want: "monthly_budget would be passed by this call (0.90 of 1.00 used, the call needs 0.30)"},
			{admit: "r1", use: readCall},
			{admit: "r2", use: readCall, want: "monthly_budget reached (1.00 of 1.00)"},
			{settle: "fail", slot: "w1"}, {settle: "ok", slot: "w2"},
			{admit: "w5", use: writeCall},
		},
		held: gtmgate.QuotaCounter{Calls: 3, CostMicros: 700_000}, own: gtmgate.QuotaCounter{Calls: 1, CostMicros: 300_000},
	}, {
		name: "chat holds its cap until counted at its real tokens",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedTokens: 100},
		steps: []step{
			{admit: "a", use: chatCall(60)}, {admit: "b", use: chatCall(60)},
			{admit: "c", use: chatCall(1), want: "included_tokens reached (120 of 100)"},
			{settle: "ok", slot: "a", tokens: 10}, {settle: "release", slot: "b"},
			{admit: "c", use: chatCall(0)}, {admit: "d", use: chatCall(500)},
			{admit: "e", use: chatCall(0), want: "included_tokens reached (510 of 100)"},
		},
		held: gtmgate.QuotaCounter{Tokens: 500}, own: gtmgate.QuotaCounter{Tokens: 10},
	}, {
		name: "chat is not held against the calls quota",
		plan: gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: 1},
		steps: []step{
			{admit: "a", use: chatCall(10)}, {admit: "b", use: readCall},
			{admit: "c", use: readCall, want: "included_calls"}, {admit: "d", use: chatCall(10)},
		},
		held: gtmgate.QuotaCounter{Calls: 1, Tokens: 20},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m, st := newMeter(t, tt.plan, nil)
			slots := map[string]gtmgate.QuotaReservation{}
			uses := map[string]gtmgate.QuotaUse{}
			for i, s := range tt.steps {
				if s.admit != "" {
					res, err := m.ReserveQuota(t.Context(), s.use)
					switch {
					case s.want == "" && (err != nil || res.Warning() != ""):
						t.Fatalf("step %d: admit %s: %v, warning %q; want admitted", i, s.admit, err, warning(res))
					case s.want == "warn" && (err != nil || res.Warning() == ""):
						t.Fatalf("step %d: admit %s: %v; want a warning", i, s.admit, err)
					case s.want != "" && s.want != "warn" && (gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded ||
						!strings.Contains(err.Error()+" QUOTA_EXCEEDED", s.want)):
						t.Fatalf("step %d: admit %s: %v; want QUOTA_EXCEEDED with %q", i, s.admit, err, s.want)
					}
					if err == nil {
						slots[s.admit], uses[s.admit] = res, s.use
					}
					continue
				}
				res, use := slots[s.slot], uses[s.slot]
				switch s.settle {
				case "release":
					res.Release()
				case "ok", "fail":
					e := gtmgate.UsageEvent{Time: time.Now(), TenantID: "acme", Tool: use.Tool, Action: use.Action,
						OK: s.settle == "ok", Reservation: res}
					if use.Use == gtmgate.UseChat {
						e.Tool, e.Action, e.CompletionTokens = gtmgate.ChatUsageTool, use.Model, s.tokens
					}
					m.Count(e)
				}
			}
			if got := m.Held("acme"); got != tt.held {
				t.Errorf("held %+v, want %+v", got, tt.held)
			}
			got := counted(t, m, st)
			if got.Calls != tt.own.Calls || got.Tokens != tt.own.Tokens || got.CostMicros != tt.own.CostMicros {
				t.Errorf("counted %+v, want %+v", got, tt.own)
			}
		})
	}
}

func warning(r gtmgate.QuotaReservation) string {
	if r == nil {
		return ""
	}
	return r.Warning()
}

// TestPlaceCarriedIntoNextPeriod: a call admitted just before a period ends
// and counted after it counts in the new period, so its place is held there
// meanwhile.
func TestPlaceCarriedIntoNextPeriod(t *testing.T) {
	ctx := t.Context()
	clk := &clock{now: time.Date(2026, 3, 31, 23, 59, 59, 0, time.UTC)}
	m, st := newMeter(t, gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: 2}, clk.Now)
	late, err := m.ReserveQuota(ctx, readCall)
	if err != nil {
		t.Fatal(err)
	}
	if err := admitAndCount(ctx, m, call(clk.Now())); err != nil {
		t.Fatal(err)
	}
	if err := admitAndCount(ctx, m, call(clk.Now())); gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
		t.Fatalf("third call in March: %v", err)
	}
	clk.Set(time.Date(2026, 4, 1, 0, 0, 1, 0, time.UTC))
	if err := admitAndCount(ctx, m, call(clk.Now())); err != nil {
		t.Fatalf("first call of April: %v", err)
	}
	// March's late call is still held: April has no place left.
	if err := admitAndCount(ctx, m, call(clk.Now())); gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
		t.Fatalf("April past its quota with March's call in flight: %v", err)
	}
	e := call(clk.Now())
	e.Reservation = late
	m.Count(e)
	if got := m.Held("acme"); got != (gtmgate.QuotaCounter{}) {
		t.Errorf("held after settling: %+v", got)
	}
	if got := counted(t, m, st); got.Calls != 2 || !got.PeriodStart.Equal(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("April counted %+v, want 2 calls", got)
	}
}

// TestUnlimitedTenantHoldsNothing: a tenant without quotas is admitted with
// a reservation that settles as a no-op, and its calls count once a plan
// with quotas arrives.
func TestUnlimitedTenantHoldsNothing(t *testing.T) {
	m, _ := newMeter(t, gtmgate.BillingPlan{Limit: gtmgate.LimitHard}, nil)
	res, err := m.ReserveQuota(t.Context(), readCall)
	if err != nil || res.Warning() != "" {
		t.Fatalf("unlimited: %v", err)
	}
	res.Release()
	res.Release()
	e := call(time.Now())
	e.Reservation = res
	m.Count(e)
	if got := m.Held("acme"); got != (gtmgate.QuotaCounter{}) {
		t.Errorf("held %+v", got)
	}
}

// TestHardQuotaExactUnderConcurrency hammers one meter from many goroutines,
// round after round: exactly N calls succeed, and at no moment do the calls
// admitted (in flight plus succeeded) pass N, though a third of the admitted
// calls fail or are refused later and give their place back. With prior
// usage, the period already holds calls made before the plan had quotas
// (issue 43): the quota is theirs plus N, and still exactly N succeed.
func TestHardQuotaExactUnderConcurrency(t *testing.T) {
	const n, rounds = 50, 20
	for _, prior := range []int64{0, 30} {
		for _, budget := range []bool{false, true} {
			t.Run(fmt.Sprintf("prior=%d/budget=%v", prior, budget), func(t *testing.T) {
				for round := range rounds {
					plan := gtmgate.BillingPlan{Limit: gtmgate.LimitHard, IncludedCalls: prior + n}
					if budget {
						// 0.02 a call: the budget also allows exactly prior+N.
						plan = gtmgate.BillingPlan{Limit: gtmgate.LimitHard, MonthlyBudget: float64(prior+n) * 0.02,
							ToolCallPrice: gtmgate.CallPrices{Default: 0.02}}
					}
					m, st := newMeter(t, plan, nil)
					if prior > 0 {
						st.rollups = []gtmgate.UsageRollup{{Hour: time.Now().UTC().Truncate(time.Hour), TenantID: "acme",
							Tool: "crm_contacts", Action: "list", Calls: prior}}
					}
					r := hammer(t, m, n, func(e gtmgate.UsageEvent) error { m.Count(e); return nil })
					if t.Failed() {
						t.Fatalf("round %d: %s", round, r)
					}
					if got := counted(t, m, st); got.Calls != n {
						t.Fatalf("round %d: counted %d calls, want %d", round, got.Calls, n)
					}
					if round == 0 {
						t.Log(r)
					}
				}
			})
		}
	}
}

// hammered is what a hammer saw.
type hammered struct{ admitted, refused, worst int64 }

func (h hammered) String() string {
	return fmt.Sprintf("%d admissions, %d refusals, at most %d admitted at once", h.admitted, h.refused, h.worst)
}

// hammer makes readCalls from many goroutines until n have succeeded; of
// the calls admitted, a third fail (free), a third give their place back
// and a third succeed. record records an admitted call's usage event,
// which carries its reservation. hammer fails the test unless exactly n
// succeed, never more than n at once were admitted, and no place is left
// held.
//
// A refused goroutine waits until some call settles and tries again, so a
// meter that keeps places no call holds (a Release that leaks) is found
// when every goroutine waits with no call in flight, and the test fails at
// once instead of spinning until it times out.
func hammer(t *testing.T, m *quota.Meter, n int64, record func(gtmgate.UsageEvent) error) hammered {
	t.Helper()
	const workers = 64
	var inFlight, succeeded, admitted, refused, worst atomic.Int64
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	settles, waiting, active, stuck := 0, 0, workers, false // guarded by mu
	settled := func() {
		mu.Lock()
		settles++
		cond.Broadcast()
		mu.Unlock()
	}
	// awaitSettle waits until a call settles after the seen'th settle; it
	// reports false when none ever will: every goroutine is waiting.
	awaitSettle := func(seen int) bool {
		mu.Lock()
		defer mu.Unlock()
		waiting++
		defer func() { waiting-- }()
		for settles == seen && succeeded.Load() < n && !stuck {
			if waiting == active {
				stuck = true
				cond.Broadcast()
				break
			}
			cond.Wait()
		}
		return !stuck
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			defer func() {
				mu.Lock()
				active--
				cond.Broadcast()
				mu.Unlock()
			}()
			for i := 0; ; i++ {
				mu.Lock()
				seen := settles
				mu.Unlock()
				res, err := m.ReserveQuota(context.Background(), readCall)
				if err != nil {
					if gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
						t.Error(err)
						return
					}
					refused.Add(1)
					if succeeded.Load() >= n || !awaitSettle(seen) {
						return
					}
					continue // calls in flight gave places back
				}
				admitted.Add(1)
				now := inFlight.Add(1) + succeeded.Load()
				for old := worst.Load(); now > old && !worst.CompareAndSwap(old, now); old = worst.Load() {
				}
				runtime.Gosched()
				e := call(time.Now())
				e.Reservation = res
				// Leave inFlight before the place is free, so the
				// figure never counts one call twice.
				inFlight.Add(-1)
				switch (w + i) % 3 {
				case 0:
					e.OK = false // failed: free
					err = record(e)
				case 1:
					res.Release() // refused later, or its record was not kept
				default:
					if err = record(e); err == nil {
						succeeded.Add(1)
					}
				}
				res.Release() // deferred in real callers: a no-op once settled
				settled()
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	h := hammered{admitted.Load(), refused.Load(), worst.Load()}
	if stuck {
		held := m.Held("acme")
		t.Errorf("every goroutine refused with no call in flight after %d of %d calls succeeded (%s): the meter holds "+
			"places no call holds (%d calls, %d tokens, %d cost micros): a Release or Count that does not give the place back",
			succeeded.Load(), n, h, held.Calls, held.Tokens, held.CostMicros)
		return h
	}
	if got := succeeded.Load(); got != n {
		t.Errorf("%d calls succeeded, want exactly %d (%s)", got, n, h)
	}
	if h.worst > n {
		t.Errorf("%d calls admitted at once (in flight plus succeeded), want at most %d", h.worst, n)
	}
	if got := m.Held("acme"); got != (gtmgate.QuotaCounter{}) {
		t.Errorf("places leaked: %+v", got)
	}
	return h
}
