package toolrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/quota"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

// quotaEnv is a runner whose calls a meter admits, with a hard quota of
// one call, and a tool whose behaviour each test sets.
type quotaEnv struct {
	store  *sqlstore.Store
	meter  *quota.Meter
	rec    *recorder
	runner *toolrun.Runner
	run    func(ctx context.Context) (any, error)
}

func newQuotaEnv(t *testing.T) *quotaEnv {
	t.Helper()
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "g.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// The default approval policy gates send, not read.
	if _, err := st.PutTenant(ctx, &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PutBillingPlan(ctx, &gtmgate.BillingPlan{TenantID: "acme", Plan: "p", Currency: "EUR", Limit: gtmgate.LimitHard,
		IncludedCalls: 1, BillingDay: 1, Timezone: "UTC"}); err != nil {
		t.Fatal(err)
	}
	e := &quotaEnv{store: st, rec: &recorder{ledger: st}, meter: quota.New(quota.Options{Store: st, Replica: "r"})}
	e.run = func(context.Context) (any, error) { return "done", nil }
	if err := e.meter.Load(ctx); err != nil {
		t.Fatal(err)
	}
	reg, err := registry.New(gtmgate.Tool{
		Name: "email_send", Domain: "email", Title: "Send", Description: "send mail",
		Actions: []gtmgate.Action{{Name: "send", Category: gtmgate.CategoryEmailSend, Mutating: true},
			{Name: "read", Category: gtmgate.CategoryCRMRead}},
		Run: func(ctx context.Context, _ *gtmgate.Call) (any, error) { return e.run(ctx) },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.runner = toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: quota.Recorder{Recorder: e.rec, Meter: e.meter},
		Quota: e.meter, CallTimeout: time.Minute})
	return e
}

func (e *quotaEnv) call(ctx context.Context, action string) error {
	_, err := e.runner.Call(ctx, &toolrun.Request{
		Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_1"}, TenantID: "acme",
		Tool: "email_send", Input: json.RawMessage(`{"action":"` + action + `","rationale":"r"}`), Source: "rest", RequestID: "req1",
	})
	return err
}

// settled checks that nothing is held once calls have returned.
func (e *quotaEnv) settled(t *testing.T) {
	t.Helper()
	if h := e.meter.Held("acme"); h != (gtmgate.QuotaCounter{}) {
		t.Fatalf("places still held after the calls returned: %+v", h)
	}
}

// TestRunnerSettlesEveryReservation: a call's place is given back when its
// usage is not counted (gated, failed, not recorded, panicking) and turned
// into its counted use when it is, including an approved gate's second run.
func TestRunnerSettlesEveryReservation(t *testing.T) {
	tests := []struct {
		name string
		// do makes calls that must leave the one place of the quota free.
		do func(t *testing.T, e *quotaEnv)
	}{{
		name: "gated",
		do: func(t *testing.T, e *quotaEnv) {
			if err := e.call(t.Context(), "send"); gtmgate.ErrorCode(err) != gtmgate.EApprovalRequired {
				t.Fatalf("send: %v, want APPROVAL_REQUIRED", err)
			}
		},
	}, {
		name: "failed",
		do: func(t *testing.T, e *quotaEnv) {
			e.run = func(context.Context) (any, error) {
				return nil, &gtmgate.Error{Code: gtmgate.EUpstream, Message: "provider said no"}
			}
			defer func() { e.run = func(context.Context) (any, error) { return "done", nil } }()
			if err := e.call(t.Context(), "read"); gtmgate.ErrorCode(err) != gtmgate.EUpstream {
				t.Fatalf("read: %v, want UPSTREAM_ERROR", err)
			}
		},
	}, {
		name: "record not kept",
		do: func(t *testing.T, e *quotaEnv) {
			e.rec.recordErr = errors.New("disk full")
			defer func() { e.rec.recordErr = nil }()
			if err := e.call(t.Context(), "read"); gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
				t.Fatalf("read: %v, want UNAVAILABLE", err)
			}
		},
	}, {
		name: "panicking",
		do: func(t *testing.T, e *quotaEnv) {
			e.run = func(context.Context) (any, error) { panic("adapter bug") }
			defer func() { e.run = func(context.Context) (any, error) { return "done", nil } }()
			func() {
				defer func() { recover() }()
				e.call(t.Context(), "read")
			}()
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newQuotaEnv(t)
			tt.do(t, e)
			e.settled(t)
			if err := e.call(t.Context(), "read"); err != nil {
				t.Fatalf("the one call of the quota: %v", err)
			}
			if err := e.call(t.Context(), "read"); gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
				t.Fatalf("past the quota: %v", err)
			}
			e.settled(t)
		})
	}
}

// TestApprovedGateTakesThePlaceWhenItRuns: a gate holds no place while it
// waits; approving it runs the call through the runner again, which admits
// it then and counts it.
func TestApprovedGateTakesThePlaceWhenItRuns(t *testing.T) {
	e := newQuotaEnv(t)
	var ge *gtmgate.Error
	if err := e.call(t.Context(), "send"); !errors.As(err, &ge) || ge.Code != gtmgate.EApprovalRequired {
		t.Fatalf("send: %v", err)
	}
	if _, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: ge.ApprovalID, Approve: true, DecidedBy: "ops", RequestID: "req2"}); err != nil {
		t.Fatalf("approve: %v", err)
	}
	e.settled(t)
	if err := e.call(t.Context(), "read"); gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
		t.Fatalf("after the approved call used the quota: %v", err)
	}
}

// TestCallInFlightHoldsItsPlace: while the quota's one call runs, another
// is refused; the first's failure then frees the place.
func TestCallInFlightHoldsItsPlace(t *testing.T) {
	e := newQuotaEnv(t)
	started, finish := make(chan struct{}), make(chan struct{})
	e.run = func(context.Context) (any, error) {
		close(started)
		<-finish
		return nil, &gtmgate.Error{Code: gtmgate.EUpstream, Message: "provider said no"}
	}
	done := make(chan error, 1)
	go func() { done <- e.call(t.Context(), "read") }()
	<-started
	e.run = func(context.Context) (any, error) { return "done", nil }
	if err := e.call(t.Context(), "read"); gtmgate.ErrorCode(err) != gtmgate.EQuotaExceeded {
		t.Errorf("second call while the first is in flight: %v, want QUOTA_EXCEEDED", err)
	}
	close(finish)
	if err := <-done; gtmgate.ErrorCode(err) != gtmgate.EUpstream {
		t.Fatalf("first call: %v", err)
	}
	if err := e.call(t.Context(), "read"); err != nil {
		t.Fatalf("after the first failed (free): %v", err)
	}
}
