package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

// twoApproverGate is a gate that requires approvals by two deciders.
func twoApproverGate(id string, step int, ttl time.Duration) *gtmgate.Approval {
	a := approval(id, "acme", step, ttl)
	a.Tool, a.Action, a.Category, a.ApprovalsRequired = "calendar_events", "delete", "calendar_op", 2
	return a
}

// approveAs is an approval decision by decider, shown as by.
func approveAs(id, by, decider string, at time.Time) gtmgate.ApprovalDecision {
	return gtmgate.ApprovalDecision{ID: id, Status: gtmgate.ApprovalApproved, DecidedBy: by, Decider: decider, Reason: "ok by " + by, At: at}
}

// testApprovalTwoApprovers: a gate that requires two approvals stays
// pending after the first, which it records; the same decider cannot give
// the second; a different one approves it; reject and expiry still apply
// after a first approval; a gate that requires one is approved at once.
func testApprovalTwoApprovers(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	t1, t2 := t0.Add(timeStep(5)), t0.Add(timeStep(6))
	ada := gtmgate.ApprovalGiven{By: "ada@acme.example", Decider: "person:p_ada", At: t1, Reason: "ok by ada@acme.example"}

	g := twoApproverGate("g1", 1, time.Hour)
	must(t, s.CreateApproval(ctx, g))
	got, err := s.GetApproval(ctx, "g1")
	must(t, err)
	if diff := cmp.Diff(g, got); diff != "" {
		t.Fatalf("stored gate (-want +got):\n%s", diff)
	}

	first, err := s.DecideApproval(ctx, approveAs("g1", ada.By, ada.Decider, t1))
	must(t, err)
	want := *g
	want.Approvals = []gtmgate.ApprovalGiven{ada}
	if diff := cmp.Diff(&want, first); diff != "" {
		t.Fatalf("after the first approval (-want +got):\n%s", diff)
	}

	again, err := s.DecideApproval(ctx, approveAs("g1", "ada (again)", ada.Decider, t2))
	wantErr(t, err, gtmgate.ErrConflict)
	if diff := cmp.Diff(&want, again); diff != "" {
		t.Errorf("the same decider approving again returned (-want +got):\n%s", diff)
	}

	second, err := s.DecideApproval(ctx, approveAs("g1", "admin key", "admin-key", t2))
	must(t, err)
	want.Status, want.DecidedAt, want.DecidedBy, want.Reason = gtmgate.ApprovalApproved, &t2, "admin key", "ok by admin key"
	want.Approvals = append(want.Approvals, gtmgate.ApprovalGiven{By: "admin key", Decider: "admin-key", At: t2, Reason: "ok by admin key"})
	if diff := cmp.Diff(&want, second); diff != "" {
		t.Errorf("after the second approval (-want +got):\n%s", diff)
	}
	stored, err := s.GetApproval(ctx, "g1")
	must(t, err)
	if diff := cmp.Diff(&want, stored); diff != "" {
		t.Errorf("stored after the second approval (-want +got):\n%s", diff)
	}
	_, err = s.DecideApproval(ctx, approveAs("g1", "bob", "person:p_bob", t2))
	wantErr(t, err, gtmgate.ErrConflict)

	// Reject after a first approval: anyone, the first approver too; the
	// approval given stays on record.
	must(t, s.CreateApproval(ctx, twoApproverGate("g2", 2, time.Hour)))
	_, err = s.DecideApproval(ctx, approveAs("g2", ada.By, ada.Decider, t1))
	must(t, err)
	rejected, err := s.DecideApproval(ctx, gtmgate.ApprovalDecision{ID: "g2", Status: gtmgate.ApprovalRejected,
		DecidedBy: ada.By, Decider: ada.Decider, Reason: "wrong event", At: t2})
	must(t, err)
	if rejected.Status != gtmgate.ApprovalRejected || rejected.Reason != "wrong event" || len(rejected.Approvals) != 1 {
		t.Errorf("rejected after a first approval: %+v", rejected)
	}
	_, err = s.DecideApproval(ctx, approveAs("g2", "admin key", "admin-key", t2))
	wantErr(t, err, gtmgate.ErrConflict)

	// Expiry: a first approval does not extend the deadline.
	short := twoApproverGate("g3", 3, time.Minute)
	must(t, s.CreateApproval(ctx, short))
	_, err = s.DecideApproval(ctx, approveAs("g3", ada.By, ada.Decider, short.CreatedAt.Add(time.Second)))
	must(t, err)
	late, err := s.DecideApproval(ctx, approveAs("g3", "admin key", "admin-key", short.ExpiresAt))
	wantErr(t, err, gtmgate.ErrConflict)
	if late == nil || late.Status != gtmgate.ApprovalExpired || len(late.Approvals) != 1 {
		t.Errorf("a second approval at the deadline returned %+v, want the gate expired with its first approval", late)
	}

	// A gate that requires one (0 or 1) is approved by the first approval,
	// which is not listed among approvals.
	for i, required := range []int{0, 1} {
		one := approval(fmt.Sprint("one", required), "acme", 4+i, time.Hour)
		one.ApprovalsRequired = required
		must(t, s.CreateApproval(ctx, one))
		got, err := s.DecideApproval(ctx, approveAs(one.ID, ada.By, ada.Decider, t1))
		must(t, err)
		if got.Status != gtmgate.ApprovalApproved || got.Approvals != nil {
			t.Errorf("a gate requiring %d: %s with approvals %+v, want approved with none listed", required, got.Status, got.Approvals)
		}
	}
}

// testApprovalTwoApproversConcurrent: approvals given at once are compared
// and set, never lost or doubled. Different deciders approving a fresh
// gate together: one is the first, one the second (the gate is approved),
// the rest find it approved. One decider approving from many requests at
// once gives one approval; the gate stays pending.
func testApprovalTwoApproversConcurrent(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	const n = 8
	approveAll := func(id string, decider func(i int) string) ([]*gtmgate.Approval, []error) {
		gates, errs := make([]*gtmgate.Approval, n), make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				gates[i], errs[i] = s.DecideApproval(ctx, approveAs(id, fmt.Sprint("op", i), decider(i), t0.Add(time.Minute)))
			})
		}
		wg.Wait()
		return gates, errs
	}

	must(t, s.CreateApproval(ctx, twoApproverGate("many", 0, time.Hour)))
	gates, errs := approveAll("many", func(i int) string { return fmt.Sprint("api-key:ak_", i) })
	var firsts, seconds []int
	for i, err := range errs {
		switch {
		case err != nil:
			wantErr(t, err, gtmgate.ErrConflict)
		case gates[i].Status == gtmgate.ApprovalPending:
			firsts = append(firsts, i)
		case gates[i].Status == gtmgate.ApprovalApproved:
			seconds = append(seconds, i)
		}
	}
	if len(firsts) != 1 || len(seconds) != 1 {
		t.Fatalf("first approvals %v, second %v; want one of each", firsts, seconds)
	}
	got, err := s.GetApproval(ctx, "many")
	must(t, err)
	deciders := []string{}
	for _, g := range got.Approvals {
		deciders = append(deciders, g.Decider)
	}
	wantDeciders := []string{fmt.Sprint("api-key:ak_", firsts[0]), fmt.Sprint("api-key:ak_", seconds[0])}
	if got.Status != gtmgate.ApprovalApproved || got.DecidedBy != fmt.Sprint("op", seconds[0]) || !cmp.Equal(deciders, wantDeciders) {
		t.Errorf("stored: %s by %s, approvals by %v; want approved by op%d, approvals by %v",
			got.Status, got.DecidedBy, deciders, seconds[0], wantDeciders)
	}

	must(t, s.CreateApproval(ctx, twoApproverGate("same", 1, time.Hour)))
	gates, errs = approveAll("same", func(int) string { return "admin-key" })
	ok := 0
	for i, err := range errs {
		if err == nil {
			ok++
			continue
		}
		wantErr(t, err, gtmgate.ErrConflict)
		if gates[i] == nil || gates[i].Status != gtmgate.ApprovalPending {
			t.Errorf("a refused repeat returned %+v, want the gate still pending", gates[i])
		}
	}
	got, err = s.GetApproval(ctx, "same")
	must(t, err)
	if ok != 1 || got.Status != gtmgate.ApprovalPending || len(got.Approvals) != 1 {
		t.Errorf("one decider approving %d times at once: %d succeeded, gate %s with %d approvals; want 1, pending with 1",
			n, ok, got.Status, len(got.Approvals))
	}
}
