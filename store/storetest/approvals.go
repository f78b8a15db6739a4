package storetest

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func approval(id, tenant string, step int, ttl time.Duration) *gtmgate.Approval {
	created := t0.Add(timeStep(step))
	return &gtmgate.Approval{ID: id, TenantID: tenant, Status: gtmgate.ApprovalPending, Tool: "email_send",
		Action: "send", Category: "email_send", AccountID: "me", Source: gtmgate.SourceMCP, RequestID: "req-" + id,
		Input:     json.RawMessage(`{"rationale":"follow up","to":["a@b.c"]}`),
		CreatedAt: created, ExpiresAt: created.Add(ttl),
		// What binds a gate to its call and its trace round-trips too.
		Digest: "hmac-sha256:" + id, PolicyVersion: "pol_1", Agent: "tok_" + id, Person: "p_1",
		TraceParent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
}

func testApprovals(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	_, err := s.GetApproval(ctx, "nope")
	wantErr(t, err, gtmgate.ErrNotFound)

	a1, a2, a3 := approval("a1", "acme", 1, time.Hour), approval("a2", "acme", 2, time.Hour), approval("a3", "beta", 3, time.Hour)
	for _, a := range []*gtmgate.Approval{a1, a2, a3} {
		must(t, s.CreateApproval(ctx, a))
	}
	wantErr(t, s.CreateApproval(ctx, approval("a1", "acme", 4, time.Hour)), gtmgate.ErrConflict)
	got, err := s.GetApproval(ctx, "a1")
	must(t, err)
	if diff := cmp.Diff(a1, got); diff != "" {
		t.Errorf("GetApproval (-want +got):\n%s", diff)
	}

	// Approve a1, reject a2.
	at := t0.Add(timeStep(5))
	dec, err := s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "a1", Status: gtmgate.ApprovalApproved, DecidedBy: "ops", Reason: "ok", At: at})
	must(t, err)
	want := *a1
	want.Status, want.DecidedAt, want.DecidedBy, want.Reason = gtmgate.ApprovalApproved, &at, "ops", "ok"
	if diff := cmp.Diff(&want, dec); diff != "" {
		t.Errorf("DecideApproval (-want +got):\n%s", diff)
	}
	_, err = s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "a2", Status: gtmgate.ApprovalRejected, DecidedBy: "ops", At: at})
	must(t, err)

	for _, tc := range []struct {
		name       string
		d          gtmgate.ApprovalDecision
		want       error
		wantStatus string
	}{
		{"approve approved", gtmgate.ApprovalDecision{ID: "a1", Status: gtmgate.ApprovalApproved, At: at}, gtmgate.ErrConflict, gtmgate.ApprovalApproved},
		{"reject approved", gtmgate.ApprovalDecision{ID: "a1", Status: gtmgate.ApprovalRejected, At: at}, gtmgate.ErrConflict, gtmgate.ApprovalApproved},
		{"approve rejected", gtmgate.ApprovalDecision{ID: "a2", Status: gtmgate.ApprovalApproved, At: at}, gtmgate.ErrConflict, gtmgate.ApprovalRejected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cur, err := s.DecideApproval(ctx, tc.d)
			wantErr(t, err, tc.want)
			if cur == nil || cur.Status != tc.wantStatus || cur.DecidedBy != "ops" {
				t.Errorf("conflict returned gate %+v, want it as it is (%s by ops)", cur, tc.wantStatus)
			}
		})
	}
	_, err = s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "nope", Status: gtmgate.ApprovalApproved, At: at})
	wantErr(t, err, gtmgate.ErrNotFound)
	if _, err := s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "a3", Status: gtmgate.ApprovalExecuted, At: at}); err == nil {
		t.Error("a decision to executed was accepted")
	}

	// Finish: only from approved.
	wantErr(t, s.FinishApproval(ctx, "a3", gtmgate.ApprovalExecuted, nil), gtmgate.ErrConflict)
	wantErr(t, s.FinishApproval(ctx, "a2", gtmgate.ApprovalExecuted, nil), gtmgate.ErrConflict)
	wantErr(t, s.FinishApproval(ctx, "nope", gtmgate.ApprovalExecuted, nil), gtmgate.ErrNotFound)
	result := []byte(`{"id":"msg-1"}`)
	must(t, s.FinishApproval(ctx, "a1", gtmgate.ApprovalExecuted, result))
	wantErr(t, s.FinishApproval(ctx, "a1", gtmgate.ApprovalFailed, nil), gtmgate.ErrConflict)
	got, err = s.GetApproval(ctx, "a1")
	must(t, err)
	if got.Status != gtmgate.ApprovalExecuted || string(got.Result) != string(result) {
		t.Errorf("after finish: status %s, result %s", got.Status, got.Result)
	}

	for _, tc := range []struct {
		name string
		f    gtmgate.ApprovalFilter
		want []string
	}{
		{"all newest first", gtmgate.ApprovalFilter{}, []string{"a3", "a2", "a1"}},
		{"tenant", gtmgate.ApprovalFilter{TenantID: "acme"}, []string{"a2", "a1"}},
		{"status", gtmgate.ApprovalFilter{Status: gtmgate.ApprovalPending}, []string{"a3"}},
		{"limit", gtmgate.ApprovalFilter{Limit: 1}, []string{"a3"}},
	} {
		t.Run("list/"+tc.name, func(t *testing.T) {
			list, err := s.ListApprovals(ctx, tc.f)
			must(t, err)
			var ids []string
			for _, a := range list {
				ids = append(ids, a.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

func testApprovalExpiry(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	a := approval("a1", "acme", 0, time.Hour)
	must(t, s.CreateApproval(ctx, a))

	cur, err := s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "a1", Status: gtmgate.ApprovalApproved, DecidedBy: "ops", At: a.ExpiresAt})
	wantErr(t, err, gtmgate.ErrConflict)
	if cur == nil || cur.Status != gtmgate.ApprovalExpired || cur.DecidedAt != nil {
		t.Fatalf("deciding at the deadline returned %+v, want the gate expired", cur)
	}
	got, err := s.GetApproval(ctx, "a1")
	must(t, err)
	if got.Status != gtmgate.ApprovalExpired {
		t.Errorf("stored status = %s, want expired", got.Status)
	}
	wantErr(t, s.FinishApproval(ctx, "a1", gtmgate.ApprovalExecuted, nil), gtmgate.ErrConflict)
}

// testApprovalExpiryOnRead: a pending gate past its deadline lists as
// expired before the expiry job stores it, and the job stores it once.
func testApprovalExpiryOnRead(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	short, long := approval("short", "acme", 0, time.Minute), approval("long", "acme", 1, time.Hour)
	must(t, s.CreateApproval(ctx, short))
	must(t, s.CreateApproval(ctx, long))
	now := short.ExpiresAt.Add(time.Second)
	ids := func(f gtmgate.ApprovalFilter) []string {
		t.Helper()
		list, err := s.ListApprovals(ctx, f)
		must(t, err)
		out := []string{}
		for _, a := range list {
			out = append(out, a.ID+":"+a.Status)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		f    gtmgate.ApprovalFilter
		want []string
	}{
		{"pending as of now", gtmgate.ApprovalFilter{Status: gtmgate.ApprovalPending, AsOf: now}, []string{"long:pending"}},
		{"expired as of now", gtmgate.ApprovalFilter{Status: gtmgate.ApprovalExpired, AsOf: now}, []string{"short:expired"}},
		{"all as of now", gtmgate.ApprovalFilter{AsOf: now}, []string{"long:pending", "short:expired"}},
		{"as stored", gtmgate.ApprovalFilter{Status: gtmgate.ApprovalPending}, []string{"long:pending", "short:pending"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ids(tc.f)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	n, err := s.ExpireApprovals(ctx, now, 10)
	must(t, err)
	if n != 1 {
		t.Errorf("ExpireApprovals = %d, want 1", n)
	}
	if n, err = s.ExpireApprovals(ctx, now, 10); err != nil || n != 0 {
		t.Errorf("second ExpireApprovals = %d, %v; want 0", n, err)
	}
	if diff := cmp.Diff([]string{"short:expired"}, ids(gtmgate.ApprovalFilter{Status: gtmgate.ApprovalExpired})); diff != "" {
		t.Errorf("stored expired (-want +got):\n%s", diff)
	}
	// The batch bound: one of two overdue gates per statement.
	must(t, s.CreateApproval(ctx, approval("x1", "acme", 2, time.Minute)))
	must(t, s.CreateApproval(ctx, approval("x2", "acme", 3, time.Minute)))
	later := now.Add(time.Hour)
	if n, err = s.ExpireApprovals(ctx, later, 1); err != nil || n != 1 {
		t.Errorf("bounded ExpireApprovals = %d, %v; want 1", n, err)
	}
}

func testApprovalConcurrent(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	must(t, s.CreateApproval(ctx, approval("a1", "acme", 0, time.Hour)))
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			status := gtmgate.ApprovalApproved
			if i%2 == 1 {
				status = gtmgate.ApprovalRejected
			}
			_, errs[i] = s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "a1", Status: status,
				DecidedBy: fmt.Sprint("op", i), At: t0.Add(time.Minute)})
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		if err == nil {
			if winner >= 0 {
				t.Fatalf("decisions %d and %d both succeeded", winner, i)
			}
			winner = i
			continue
		}
		wantErr(t, err, gtmgate.ErrConflict)
	}
	if winner < 0 {
		t.Fatal("no decision succeeded")
	}
	got, err := s.GetApproval(ctx, "a1")
	must(t, err)
	if got.DecidedBy != fmt.Sprint("op", winner) {
		t.Errorf("stored decision by %s, winner was op%d", got.DecidedBy, winner)
	}
}

// testApprovalWithdraw: withdrawing a cancelled run's gates moves its
// pending, unexpired ones to withdrawn with the reason, and no others (other
// runs', other tenants', decided and expired ones); a withdrawn gate cannot
// be decided.
func testApprovalWithdraw(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	gate := func(id, tenant, run string, step int, ttl time.Duration) {
		t.Helper()
		a := approval(id, tenant, step, ttl)
		a.RunID, a.Source = run, gtmgate.SourceAgent
		must(t, s.CreateApproval(ctx, a))
	}
	gate("w1", "acme", "run_1", 1, time.Hour)
	gate("w2", "acme", "run_1", 2, time.Hour)
	gate("w3", "acme", "run_1", 3, time.Minute)                          // expired by the withdrawal
	gate("w4", "acme", "run_1", 4, time.Hour)                            // decided before it
	gate("w5", "acme", "run_2", 5, time.Hour)                            // another run's
	gate("w6", "beta", "run_1", 6, time.Hour)                            // another tenant's run of that id
	must(t, s.CreateApproval(ctx, approval("w7", "acme", 7, time.Hour))) // no run
	at := t0.Add(timeStep(10))
	_, err := s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "w4", Status: gtmgate.ApprovalRejected, DecidedBy: "ops", Reason: "no", At: at})
	must(t, err)

	wd := gtmgate.ApprovalWithdrawal{TenantID: "acme", RunID: "run_1", Reason: "agent run run_1 was cancelled by admin", By: "admin", At: at}
	n, err := s.WithdrawApprovals(ctx, wd)
	must(t, err)
	if n != 2 {
		t.Errorf("withdrew %d gates, want 2", n)
	}
	for id, want := range map[string]string{"w1": gtmgate.ApprovalWithdrawn, "w2": gtmgate.ApprovalWithdrawn, "w3": gtmgate.ApprovalPending,
		"w4": gtmgate.ApprovalRejected, "w5": gtmgate.ApprovalPending, "w6": gtmgate.ApprovalPending, "w7": gtmgate.ApprovalPending} {
		a, err := s.GetApproval(ctx, id)
		must(t, err)
		if a.Status != want {
			t.Errorf("%s is %s, want %s", id, a.Status, want)
		}
	}
	w1, err := s.GetApproval(ctx, "w1")
	must(t, err)
	if w1.RunID != "run_1" || w1.Reason != wd.Reason || w1.DecidedBy != "admin" || w1.DecidedAt == nil || !w1.DecidedAt.Equal(at) {
		t.Errorf("withdrawn gate = %+v", w1)
	}
	got, err := s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "w1", Status: gtmgate.ApprovalApproved, DecidedBy: "ops", At: at})
	wantErr(t, err, gtmgate.ErrConflict)
	if got == nil || got.Status != gtmgate.ApprovalWithdrawn {
		t.Errorf("deciding a withdrawn gate returned %+v", got)
	}
	if n, err := s.WithdrawApprovals(ctx, wd); err != nil || n != 0 {
		t.Errorf("withdrawing again: %d, %v", n, err)
	}
	list, err := s.ListApprovals(ctx, gtmgate.ApprovalFilter{TenantID: "acme", Status: gtmgate.ApprovalWithdrawn})
	must(t, err)
	if len(list) != 2 {
		t.Errorf("withdrawn gates listed: %d, want 2", len(list))
	}
}
