package toolrun_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlite"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

// calendarEnv is a runner whose tool calendar_events deletes (destructive)
// and creates events; Carol's agent makes the calls.
type calendarEnv struct {
	path    string // the SQLite file, for a test that alters a row behind the store
	store   *sqlstore.Store
	runner  *toolrun.Runner
	runs    atomic.Int64
	decided atomic.Int64
}

func newCalendarEnv(t *testing.T, policy *gtmgate.ApprovalPolicy) *calendarEnv {
	t.Helper()
	path := filepath.Join(t.TempDir(), "g.db")
	st, err := sqlite.Open(t.Context(), path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive, Approval: policy}); err != nil {
		t.Fatal(err)
	}
	e := &calendarEnv{store: st, path: path}
	reg := registry.MustNew(gtmgate.Tool{
		Name: "calendar_events", Domain: "calendar", Title: "Events", Description: "calendar events",
		Actions: []gtmgate.Action{
			{Name: "delete", Category: gtmgate.CategoryCalendarOp, Mutating: true, Destructive: true},
			{Name: "create", Category: gtmgate.CategoryCalendarOp, Mutating: true},
		},
		Run: func(context.Context, *gtmgate.Call) (any, error) {
			e.runs.Add(1)
			return map[string]any{"done": true}, nil
		},
	})
	e.runner = toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: &recorder{ledger: st}, CallTimeout: time.Minute,
		GateKey: []byte("test gate key"), Decided: func(context.Context, *gtmgate.Approval) { e.decided.Add(1) }})
	return e
}

// hold makes Carol's agent call action and returns the gate holding it.
func (e *calendarEnv) hold(t *testing.T, action string) *gtmgate.Approval {
	t.Helper()
	_, err := e.runner.Call(t.Context(), &toolrun.Request{
		Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_carol", Kind: gtmgate.PrincipalToken, Person: "p_carol"}, TenantID: "acme",
		Tool: "calendar_events", Input: json.RawMessage(`{"action":"` + action + `","rationale":"r"}`), Source: "rest", RequestID: "req-" + action,
	})
	return storedGate(t, e.store, err)
}

// decider is who decides a step: a person signed in, or a key.
type decider struct{ name, key, person string }

var (
	ada      = decider{"ada@acme.example", "person:p_ada", "p_ada"}
	bob      = decider{"bob@acme.example", "person:p_bob", "p_bob"}
	carol    = decider{"carol@acme.example", "person:p_carol", "p_carol"} // the person Carol's agent acts for
	adminKey = decider{"admin key", "admin-key", ""}
)

// step is one decision of a test and what it should leave.
type step struct {
	by      decider
	reject  bool
	code    string // the error code wanted, "" for none
	status  string // the gate's status after it
	given   int    // approvals recorded after it
	touches bool   // alter the stored call before this step
}

// TestTwoApproversForDestructive: under two_approvers_for_destructive a
// held destructive call runs once two different deciders approved it: the
// first approval is recorded and the gate stays pending; the same decider
// again is FORBIDDEN; a reject at any point rejects. Other gates, and
// every gate without the rule, need one approval.
func TestTwoApproversForDestructive(t *testing.T) {
	rule := &gtmgate.ApprovalPolicy{Actions: []string{"calendar_events.create"}, Destructive: true, TwoApproversForDestructive: true}
	noRule := &gtmgate.ApprovalPolicy{Actions: []string{"calendar_events.create"}, Destructive: true}
	selfRule := &gtmgate.ApprovalPolicy{Destructive: true, TwoApproversForDestructive: true, NoSelfApproval: true}
	for _, tc := range []struct {
		name     string
		policy   *gtmgate.ApprovalPolicy
		action   string
		required int
		steps    []step
		runs     int64
	}{
		{"two different approvers execute once", rule, "delete", 2, []step{
			{by: ada, status: gtmgate.ApprovalPending, given: 1},
			{by: bob, status: gtmgate.ApprovalExecuted, given: 2},
			{by: carol, code: gtmgate.EConflict, status: gtmgate.ApprovalExecuted, given: 2},
		}, 1},
		{"a person and the admin key are two deciders", rule, "delete", 2, []step{
			{by: adminKey, status: gtmgate.ApprovalPending, given: 1},
			{by: ada, status: gtmgate.ApprovalExecuted, given: 2},
		}, 1},
		{"the same approver twice is refused", rule, "delete", 2, []step{
			{by: ada, status: gtmgate.ApprovalPending, given: 1},
			{by: ada, code: gtmgate.EForbidden, status: gtmgate.ApprovalPending, given: 1},
			{by: bob, status: gtmgate.ApprovalExecuted, given: 2},
		}, 1},
		{"the admin key twice is refused", rule, "delete", 2, []step{
			{by: adminKey, status: gtmgate.ApprovalPending, given: 1},
			{by: adminKey, code: gtmgate.EForbidden, status: gtmgate.ApprovalPending, given: 1},
		}, 0},
		{"reject after the first approval", rule, "delete", 2, []step{
			{by: ada, status: gtmgate.ApprovalPending, given: 1},
			{by: bob, reject: true, status: gtmgate.ApprovalRejected, given: 1},
			{by: carol, code: gtmgate.EConflict, status: gtmgate.ApprovalRejected, given: 1},
		}, 0},
		{"the first approver may reject", rule, "delete", 2, []step{
			{by: ada, status: gtmgate.ApprovalPending, given: 1},
			{by: ada, reject: true, status: gtmgate.ApprovalRejected, given: 1},
		}, 0},
		{"no self-approval applies to each approval", selfRule, "delete", 2, []step{
			{by: carol, code: gtmgate.EForbidden, status: gtmgate.ApprovalPending, given: 0},
			{by: ada, status: gtmgate.ApprovalPending, given: 1},
			{by: carol, code: gtmgate.EForbidden, status: gtmgate.ApprovalPending, given: 1},
			{by: bob, status: gtmgate.ApprovalExecuted, given: 2},
		}, 1},
		{"the binding is checked when the second approval executes", rule, "delete", 2, []step{
			{by: ada, status: gtmgate.ApprovalPending, given: 1},
			{by: bob, status: gtmgate.ApprovalFailed, given: 2, touches: true},
		}, 0},
		{"a gate on a non-destructive action needs one", rule, "create", 0, []step{
			{by: ada, status: gtmgate.ApprovalExecuted, given: 0},
		}, 1},
		{"without the rule a destructive action needs one", noRule, "delete", 0, []step{
			{by: ada, status: gtmgate.ApprovalExecuted, given: 0},
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newCalendarEnv(t, tc.policy)
			a := e.hold(t, tc.action)
			if a.ApprovalsRequired != tc.required {
				t.Fatalf("held with approvals_required %d, want %d", a.ApprovalsRequired, tc.required)
			}
			for i, s := range tc.steps {
				if s.touches {
					alterStoredCall(t, e.path, a.ID)
				}
				got, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: !s.reject, Reason: "step",
					DecidedBy: s.by.name, Decider: s.by.key, DeciderPerson: s.by.person, RequestID: "req-decide"})
				if gtmgate.ErrorCode(err) != s.code && (s.code != "" || err != nil) {
					t.Fatalf("step %d by %s: %v, want code %q", i, s.by.name, err, s.code)
				}
				stored, err := e.store.GetApproval(t.Context(), a.ID)
				if err != nil {
					t.Fatal(err)
				}
				if stored.Status != s.status || len(stored.Approvals) != s.given {
					t.Fatalf("after step %d by %s: %s with %d approvals, want %s with %d", i, s.by.name, stored.Status, len(stored.Approvals), s.status, s.given)
				}
				if s.code == "" && got.Status != s.status {
					t.Errorf("step %d answered status %s, want %s", i, got.Status, s.status)
				}
			}
			if n := e.runs.Load(); n != tc.runs {
				t.Errorf("the call ran %d times, want %d", n, tc.runs)
			}
			// Agent runs parked on the gate hear of its decision once, never
			// of a first approval.
			wantDecided := int64(1)
			if tc.steps[len(tc.steps)-1].status == gtmgate.ApprovalPending {
				wantDecided = 0
			}
			if d := e.decided.Load(); d != wantDecided {
				t.Errorf("told of %d decisions, want %d", d, wantDecided)
			}
		})
	}
}

// TestSameApproverTwiceMessage: the refusal says why and what to do.
func TestSameApproverTwiceMessage(t *testing.T) {
	e := newCalendarEnv(t, &gtmgate.ApprovalPolicy{Destructive: true, TwoApproversForDestructive: true})
	a := e.hold(t, "delete")
	d := toolrun.Decision{ApprovalID: a.ID, Approve: true, DecidedBy: "admin key", Decider: "admin-key", RequestID: "r"}
	if _, err := e.runner.Decide(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	_, err := e.runner.Decide(t.Context(), d)
	var ge *gtmgate.Error
	if !errors.As(err, &ge) || ge.Code != gtmgate.EForbidden || !strings.Contains(ge.Message, "2 approvals by different approvers") ||
		!strings.Contains(ge.Message, "admin-key") || !strings.Contains(ge.Hint, "another approver") {
		t.Errorf("second approval by the admin key: %v, want FORBIDDEN naming the rule and the decider", err)
	}
}

// alterStoredCall rewrites a gate's stored input behind the store.
func alterStoredCall(t *testing.T, path, id string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), "UPDATE approvals SET input = ? WHERE id = ?",
		`{"action":"delete","rationale":"another event"}`, id); err != nil {
		t.Fatal(err)
	}
}
