package storetest

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
)

func ledgerEntry(id, tenant, kind string, mutating bool, step int) *gtmgate.LedgerEntry {
	return &gtmgate.LedgerEntry{ID: id, Kind: kind, Time: t0.Add(timeStep(step)), TenantID: tenant,
		Source: gtmgate.SourceREST, Tool: "crm_contacts", Action: "create", Mutating: mutating,
		Input:     json.RawMessage(`{"rationale":"r","properties":{"email":"a@b.c"}}`),
		ErrorCode: gtmgate.EUpstream, Message: "upstream failed", Detail: json.RawMessage(`{"provider":"hubspot","status":500}`),
		RequestID: "req-" + id}
}

// testLedgerWithCalls: a failed call's ledger entry is written with its
// audit entry, by WriteCalls and by ApplyJournal, and writing the same call
// again (a record retried after a timed-out wait) neither fails nor doubles it.
func testLedgerWithCalls(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	at := t0
	failed := func(id string) gtmgate.AuditEntry {
		a := auditEntry(0, "acme", "email_send.send", gtmgate.SourceREST, "k", gtmgate.OutcomeError, at)
		a.RequestID = "req-" + id
		a.Failure = ledgerEntry(id, "acme", gtmgate.LedgerFailure, true, 1)
		a.Failure.Key = "tok_" + id
		return a
	}
	ok := auditEntry(0, "acme", "crm_contacts.list", gtmgate.SourceREST, "k", gtmgate.OutcomeOK, at)
	must(t, s.WriteCalls(ctx, []gtmgate.AuditEntry{failed("lw1"), ok}, nil))
	must(t, s.WriteCalls(ctx, []gtmgate.AuditEntry{failed("lw1")}, nil))
	must(t, s.ApplyJournal(ctx, "jl", 0, 10, []gtmgate.AuditEntry{failed("lw2"), ok}, nil))
	for _, id := range []string{"lw1", "lw2"} {
		got, err := s.GetLedgerEntry(ctx, id)
		must(t, err)
		want := ledgerEntry(id, "acme", gtmgate.LedgerFailure, true, 1)
		want.Key = "tok_" + id
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ledger entry %s written with its call (-want +got):\n%s", id, diff)
		}
	}
	l, err := s.ListLedger(ctx, gtmgate.LedgerFilter{TenantID: "acme"})
	must(t, err)
	if len(l) != 2 {
		t.Errorf("%d ledger entries, want 2", len(l))
	}
}

func testLedger(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	_, err := s.GetLedgerEntry(ctx, "nope")
	wantErr(t, err, gtmgate.ErrNotFound)

	e1 := ledgerEntry("l1", "acme", gtmgate.LedgerFailure, true, 1)
	e2 := ledgerEntry("l2", "beta", gtmgate.LedgerFailure, false, 2)
	e3 := ledgerEntry("l3", "acme", gtmgate.LedgerIncident, false, 3)
	e3.Input, e3.Detail, e3.Tool, e3.Action = nil, nil, "", ""
	e4 := ledgerEntry("l4", "acme", gtmgate.LedgerFailure, false, 4)
	e1.Key, e2.Key, e4.Key = "tok_a", "tok_b", "oauth:grt_1"
	for _, e := range []*gtmgate.LedgerEntry{e1, e2, e3, e4} {
		must(t, s.AddLedgerEntry(ctx, e))
	}
	wantErr(t, s.AddLedgerEntry(ctx, ledgerEntry("l1", "acme", gtmgate.LedgerFailure, false, 9)), gtmgate.ErrConflict)

	got, err := s.GetLedgerEntry(ctx, "l1")
	must(t, err)
	if diff := cmp.Diff(e1, got); diff != "" {
		t.Errorf("GetLedgerEntry (-want +got):\n%s", diff)
	}
	got, err = s.GetLedgerEntry(ctx, "l3")
	must(t, err)
	if diff := cmp.Diff(e3, got); diff != "" {
		t.Errorf("GetLedgerEntry without input (-want +got):\n%s", diff)
	}

	for _, tc := range []struct {
		name string
		f    gtmgate.LedgerFilter
		want []string
	}{
		{"all newest first", gtmgate.LedgerFilter{}, []string{"l4", "l3", "l2", "l1"}},
		{"tenant", gtmgate.LedgerFilter{TenantID: "acme"}, []string{"l4", "l3", "l1"}},
		{"kind", gtmgate.LedgerFilter{Kind: gtmgate.LedgerIncident}, []string{"l3"}},
		{"since", gtmgate.LedgerFilter{Since: t0.Add(timeStep(2))}, []string{"l4", "l3", "l2"}},
		{"limit", gtmgate.LedgerFilter{Limit: 2}, []string{"l4", "l3"}},
		{"key", gtmgate.LedgerFilter{Key: "tok_a"}, []string{"l1"}},
		{"tenant and key", gtmgate.LedgerFilter{TenantID: "acme", Key: "oauth:grt_1"}, []string{"l4"}},
		{"key of another tenant", gtmgate.LedgerFilter{TenantID: "acme", Key: "tok_b"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list, err := s.ListLedger(ctx, tc.f)
			must(t, err)
			var ids []string
			for _, e := range list {
				ids = append(ids, e.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
}

func testLedgerReplay(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	must(t, s.AddLedgerEntry(ctx, ledgerEntry("mut", "acme", gtmgate.LedgerFailure, true, 1)))
	must(t, s.AddLedgerEntry(ctx, ledgerEntry("read", "acme", gtmgate.LedgerFailure, false, 1)))
	must(t, s.AddLedgerEntry(ctx, ledgerEntry("gated", "acme", gtmgate.LedgerFailure, true, 1)))

	r := func(n int, ok, forced bool, code string) gtmgate.LedgerReplay {
		return gtmgate.LedgerReplay{Time: t0.Add(timeStep(10 + n)), RequestID: fmt.Sprintf("replay-%d", n), OK: ok, Forced: forced, ErrorCode: code}
	}
	steps := []struct {
		name string
		id   string
		r    gtmgate.LedgerReplay
		want error
	}{
		{"unknown entry", "nope", r(0, true, false, ""), gtmgate.ErrNotFound},
		{"mutation fails again", "mut", r(1, false, false, gtmgate.EUpstream), nil},
		{"mutation succeeds", "mut", r(2, true, false, ""), nil},
		{"mutation replayed after success", "mut", r(3, true, false, ""), gtmgate.ErrConflict},
		{"failed replay after success", "mut", r(4, false, false, gtmgate.EUpstream), gtmgate.ErrConflict},
		{"forced replay after success", "mut", r(5, true, true, ""), nil},
		{"read succeeds", "read", r(6, true, false, ""), nil},
		{"read replayed again", "read", r(7, true, false, ""), nil},
		{"mutation pending approval", "gated", r(8, false, false, gtmgate.EApprovalRequired), nil},
		{"mutation replayed while pending", "gated", r(9, true, false, ""), gtmgate.ErrConflict},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			err := s.AddLedgerReplay(ctx, st.id, st.r)
			if st.want == nil {
				must(t, err)
				return
			}
			wantErr(t, err, st.want)
		})
	}
	got, err := s.GetLedgerEntry(ctx, "mut")
	must(t, err)
	want := []gtmgate.LedgerReplay{r(1, false, false, gtmgate.EUpstream), r(2, true, false, ""), r(5, true, true, "")}
	if diff := cmp.Diff(want, got.Replays); diff != "" {
		t.Errorf("replays kept, newest last (-want +got):\n%s", diff)
	}
}

func testLedgerReplayConcurrent(t *testing.T, open func(t *testing.T) gtmgate.Store) {
	s := open(t)
	ctx := t.Context()
	must(t, s.AddLedgerEntry(ctx, ledgerEntry("mut", "acme", gtmgate.LedgerFailure, true, 1)))
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = s.AddLedgerReplay(ctx, "mut", gtmgate.LedgerReplay{Time: t0, RequestID: fmt.Sprint(i), OK: true})
		})
	}
	wg.Wait()
	var ok int
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		default:
			wantErr(t, err, gtmgate.ErrConflict)
		}
	}
	if ok != 1 {
		t.Errorf("%d concurrent successful replays of a mutation were recorded, want 1", ok)
	}
	got, err := s.GetLedgerEntry(ctx, "mut")
	must(t, err)
	if len(got.Replays) != 1 {
		t.Errorf("entry has %d replays, want 1", len(got.Replays))
	}
}
