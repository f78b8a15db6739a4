package toolrun_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// recorder keeps audit entries in memory and writes the failures they carry
// to the ledger, as the audit writer does; checkErr and recordErr simulate a
// journal and store that cannot take records.
type recorder struct {
	mu        sync.Mutex
	ledger    gtmgate.LedgerStore
	entries   []gtmgate.AuditEntry
	usage     []gtmgate.UsageEvent
	checkErr  error
	recordErr error
}

func (r *recorder) Record(ctx context.Context, a gtmgate.AuditEntry, u *gtmgate.UsageEvent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.recordErr != nil {
		return r.recordErr
	}
	if a.Failure != nil {
		// Like the audit writer, a caller that hung up still gets its record.
		if err := r.ledger.AddLedgerEntry(context.WithoutCancel(ctx), a.Failure); err != nil {
			return err
		}
	}
	r.entries = append(r.entries, a)
	if u != nil {
		r.usage = append(r.usage, *u)
	}
	return nil
}
func (r *recorder) Flush(context.Context) error { return nil }
func (r *recorder) Check() error                { return r.checkErr }

type env struct {
	store  *sqlstore.Store
	runner *toolrun.Runner
	rec    *recorder
	runs   atomic.Int64
	// gate, when set, holds the send action until closed, and started is
	// closed when it begins.
	gate, started chan struct{}
	sawCancel     atomic.Bool
	// fail makes the tool fail as a provider error would.
	fail atomic.Bool
}

// openStore opens a SQLite store in a temporary directory, closed at cleanup.
func openStore(t *testing.T) *sqlstore.Store {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "g.db"), &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// openAcme is openStore with the active tenant acme.
func openAcme(t *testing.T) *sqlstore.Store {
	t.Helper()
	st := openStore(t)
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive}); err != nil {
		t.Fatal(err)
	}
	return st
}

func newEnv(t *testing.T) *env {
	t.Helper()
	st := openAcme(t)
	e := &env{store: st, rec: &recorder{ledger: st}}
	reg, err := registry.New(gtmgate.Tool{
		Name: "email_send", Domain: "email", Title: "Send", Description: "send mail",
		Actions: []gtmgate.Action{{Name: "send", Category: gtmgate.CategoryEmailSend, Mutating: true}},
		Run: func(ctx context.Context, _ *gtmgate.Call) (any, error) {
			e.runs.Add(1)
			if e.gate != nil {
				close(e.started)
				<-e.gate
			}
			if ctx.Err() != nil {
				e.sawCancel.Store(true)
				return nil, ctx.Err()
			}
			if e.fail.Load() {
				return nil, &gtmgate.Error{Code: gtmgate.EUpstream, Message: "provider said no"}
			}
			return map[string]any{"sent": true}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	e.runner = toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: e.rec, CallTimeout: time.Minute})
	return e
}

func (e *env) call(ctx context.Context) (*toolrun.Outcome, error) {
	return e.runner.Call(ctx, &toolrun.Request{
		Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_1"}, TenantID: "acme",
		Tool: "email_send", Input: json.RawMessage(`{"action":"send","rationale":"r"}`), Source: "rest", RequestID: "req1",
	})
}

// gateID makes a gated call and returns its approval id.
func (e *env) gateID(t *testing.T) string {
	t.Helper()
	_, err := e.call(t.Context())
	var ge *gtmgate.Error
	if !errors.As(err, &ge) || ge.Code != gtmgate.EApprovalRequired {
		t.Fatalf("call: %v, want APPROVAL_REQUIRED", err)
	}
	return ge.ApprovalID
}

// An approver who hangs up mid-execution does not cancel the provider call,
// and the gate ends executed, not stuck approved.
func TestApprovalOutlivesTheApproversRequest(t *testing.T) {
	e := newEnv(t)
	id := e.gateID(t)
	e.gate, e.started = make(chan struct{}), make(chan struct{})
	ctx, hangUp := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := e.runner.Decide(ctx, toolrun.Decision{ApprovalID: id, Approve: true, DecidedBy: "ops", RequestID: "req2"})
		done <- err
	}()
	<-e.started
	hangUp()
	close(e.gate)
	if err := <-done; err != nil {
		t.Fatalf("Decide: %v", err)
	}
	a, err := e.store.GetApproval(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != gtmgate.ApprovalExecuted || e.sawCancel.Load() || e.runs.Load() != 1 {
		t.Fatalf("status %s, provider call cancelled %v, runs %d; want executed, false, 1", a.Status, e.sawCancel.Load(), e.runs.Load())
	}
}

// A gate left approved by a stopped process is resolved from the audit log
// when its call was recorded, else failed as outcome unknown; never re-run.
func TestResolveStuckApprovals(t *testing.T) {
	e := newEnv(t)
	unknown, recorded, fresh := e.gateID(t), e.gateID(t), e.gateID(t)
	long := time.Now().Add(-time.Hour)
	for _, id := range []string{unknown, recorded} {
		if _, err := e.store.DecideApproval(t.Context(), gtmgate.ApprovalDecision{ID: id, Status: gtmgate.ApprovalApproved, DecidedBy: "ops", At: long}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.store.DecideApproval(t.Context(), gtmgate.ApprovalDecision{ID: fresh, Status: gtmgate.ApprovalApproved, DecidedBy: "ops", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := e.store.WriteCalls(t.Context(), []gtmgate.AuditEntry{{Time: long, TenantID: "acme", Action: "email_send.send", Source: "rest",
		Key: "approval:" + recorded, Outcome: gtmgate.OutcomeOK, Status: 200, RequestID: "req9"}}, nil); err != nil {
		t.Fatal(err)
	}
	n, err := e.runner.ResolveStuckApprovals(t.Context(), e.store)
	if err != nil || n != 2 {
		t.Fatalf("resolved %d, %v; want 2", n, err)
	}
	for id, want := range map[string]string{unknown: gtmgate.ApprovalFailed, recorded: gtmgate.ApprovalExecuted, fresh: gtmgate.ApprovalApproved} {
		a, err := e.store.GetApproval(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != want {
			t.Errorf("%s: status %s, want %s", id, a.Status, want)
		}
		if id == unknown && !strings.Contains(string(a.Result), "outcome unknown") {
			t.Errorf("failed gate result = %s", a.Result)
		}
	}
	if e.runs.Load() != 0 {
		t.Errorf("the provider was called %d times; a stuck gate must never run again", e.runs.Load())
	}
}

// A call whose record cannot be made durable does not run; one whose record
// fails after it ran is not acknowledged.
func TestCallsAreNotAcknowledgedWithoutARecord(t *testing.T) {
	e := newEnv(t)
	if _, err := e.store.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive,
		Approval: &gtmgate.ApprovalPolicy{}}); err != nil {
		t.Fatal(err)
	}
	unavailable := &gtmgate.Error{Code: gtmgate.EUnavailable, Message: "the call was not run: its audit record cannot be made durable"}
	e.rec.checkErr = unavailable
	if _, err := e.call(t.Context()); gtmgate.ErrorCode(err) != gtmgate.EUnavailable || e.runs.Load() != 0 {
		t.Fatalf("with Check failing: err %v, runs %d; want UNAVAILABLE and no run", err, e.runs.Load())
	}
	e.rec.checkErr, e.rec.recordErr = nil, errors.New("disk full")
	out, err := e.call(t.Context())
	if out != nil || gtmgate.ErrorCode(err) != gtmgate.EUnavailable {
		t.Fatalf("with Record failing: outcome %v, err %v; want no outcome and UNAVAILABLE", out, err)
	}
	e.rec.recordErr = nil
	if _, err := e.call(t.Context()); err != nil {
		t.Fatalf("recovered: %v", err)
	}
}

func (e *env) ungated(t *testing.T) {
	t.Helper()
	if _, err := e.store.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive,
		Approval: &gtmgate.ApprovalPolicy{}}); err != nil {
		t.Fatal(err)
	}
}

func (e *env) ledger(t *testing.T) []*gtmgate.LedgerEntry {
	t.Helper()
	l, err := e.store.ListLedger(t.Context(), gtmgate.LedgerFilter{TenantID: "acme", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A client that hangs up mid-call leaves a CLIENT_CLOSED ledger entry (the
// write does not use its cancelled context), not an UPSTREAM_ERROR.
func TestClientHangUpIsLedgered(t *testing.T) {
	e := newEnv(t)
	e.ungated(t)
	e.gate, e.started = make(chan struct{}), make(chan struct{})
	ctx, hangUp := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { _, err := e.call(ctx); done <- err }()
	<-e.started
	hangUp()
	close(e.gate)
	if err := <-done; gtmgate.ErrorCode(err) != gtmgate.EClientClosed {
		t.Fatalf("err = %v, want CLIENT_CLOSED", err)
	}
	l := e.ledger(t)
	if len(l) != 1 || l[0].ErrorCode != gtmgate.EClientClosed {
		t.Fatalf("ledger = %+v, want one CLIENT_CLOSED entry", l)
	}
	if len(e.rec.entries) != 1 || e.rec.entries[0].ErrorCode != gtmgate.EClientClosed || e.rec.entries[0].Status != 499 {
		t.Errorf("audit = %+v, want one CLIENT_CLOSED entry with status 499", e.rec.entries)
	}
}

// A failed replay is recorded on the entry it replays, not as a new entry.
func TestFailedReplayAddsNoLedgerEntry(t *testing.T) {
	e := newEnv(t)
	e.ungated(t)
	e.fail.Store(true)
	if _, err := e.call(t.Context()); gtmgate.ErrorCode(err) != gtmgate.EUpstream {
		t.Fatalf("call: %v", err)
	}
	l := e.ledger(t)
	if len(l) != 1 {
		t.Fatalf("ledger has %d entries, want 1", len(l))
	}
	res, err := e.runner.Replay(t.Context(), l[0].ID, true, "ops", "req-replay")
	if err != nil || res.OK {
		t.Fatalf("replay: %+v, %v; want a failed replay", res, err)
	}
	l = e.ledger(t)
	if len(l) != 1 || len(l[0].Replays) != 1 || l[0].Replays[0].OK {
		t.Fatalf("after a failed replay: %d entries, replays %+v; want 1 entry with one failed replay", len(l), l[0].Replays)
	}
}

// A call refused before it ran for its input is the caller's to fix and
// resend: the operator cannot replay its ledger entry, and the tool does
// not run.
func TestValidationErrorIsNotReplayed(t *testing.T) {
	e := newEnv(t)
	e.ungated(t)
	_, err := e.runner.Call(t.Context(), &toolrun.Request{
		Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_1"}, TenantID: "acme",
		Tool: "email_send", Input: json.RawMessage(`{"action":"send"}`), Source: "rest", RequestID: "req1",
	})
	if gtmgate.ErrorCode(err) != gtmgate.EValidation {
		t.Fatalf("call without a rationale: %v, want VALIDATION_ERROR", err)
	}
	l := e.ledger(t)
	if len(l) != 1 || l[0].ErrorCode != gtmgate.EValidation {
		t.Fatalf("ledger = %+v, want one VALIDATION_ERROR entry", l)
	}
	_, err = e.runner.Replay(t.Context(), l[0].ID, true, "ops", "req-replay")
	var ge *gtmgate.Error
	if !errors.As(err, &ge) || ge.Code != gtmgate.EValidation || !strings.Contains(ge.Message, "cannot be replayed") || !strings.Contains(ge.Hint, "caller") {
		t.Fatalf("replay: %v, want VALIDATION_ERROR saying it cannot be replayed and the caller resends it", err)
	}
	if n := e.runs.Load(); n != 0 {
		t.Errorf("the tool ran %d times", n)
	}
	if l = e.ledger(t); len(l[0].Replays) != 0 {
		t.Errorf("replays recorded: %+v", l[0].Replays)
	}
}

// A failed call's ledger entry travels with its audit record, so the
// journal keeps it through a store outage; when the record cannot be taken
// at all, the failure is still written straight to the store.
func TestFailureTravelsWithTheAuditRecord(t *testing.T) {
	e := newEnv(t)
	e.ungated(t)
	e.fail.Store(true)
	if _, err := e.call(t.Context()); gtmgate.ErrorCode(err) != gtmgate.EUpstream {
		t.Fatalf("call: %v, want UPSTREAM_ERROR", err)
	}
	if len(e.rec.entries) != 1 {
		t.Fatalf("audit = %+v, want one entry", e.rec.entries)
	}
	f := e.rec.entries[0].Failure
	if f == nil || f.ErrorCode != gtmgate.EUpstream || f.Tool != "email_send" || f.Action != "send" || f.RequestID != "req1" || !f.Mutating {
		t.Fatalf("audit entry carries failure %+v, want the UPSTREAM_ERROR of email_send.send", f)
	}

	e.rec.recordErr = errors.New("journal and store both down")
	if _, err := e.call(t.Context()); err == nil {
		t.Fatal("call with no recorder succeeded")
	}
	if l := e.ledger(t); len(l) != 2 {
		t.Fatalf("ledger has %d entries, want 2 (the second written straight to the store)", len(l))
	}
}

// A call's usage event and, when it fails, its ledger entry name the agent
// that made it, as its audit entry does, so each can be read per agent.
func TestCallsCarryTheAgent(t *testing.T) {
	e := newEnv(t)
	e.ungated(t)
	if _, err := e.call(t.Context()); err != nil {
		t.Fatalf("call: %v", err)
	}
	e.fail.Store(true)
	if _, err := e.call(t.Context()); gtmgate.ErrorCode(err) != gtmgate.EUpstream {
		t.Fatalf("failing call: %v, want UPSTREAM_ERROR", err)
	}
	if len(e.rec.entries) != 2 || e.rec.entries[0].Key != "tok_1" || e.rec.entries[1].Key != "tok_1" {
		t.Fatalf("audit = %+v, want two entries of tok_1", e.rec.entries)
	}
	if len(e.rec.usage) != 2 || e.rec.usage[0].Key != "tok_1" || e.rec.usage[1].Key != "tok_1" || !e.rec.usage[0].OK || e.rec.usage[1].OK {
		t.Errorf("usage = %+v, want an ok and a failed event of tok_1", e.rec.usage)
	}
	l, err := e.store.ListLedger(t.Context(), gtmgate.LedgerFilter{TenantID: "acme", Key: "tok_1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 1 || l[0].Key != "tok_1" || l[0].ErrorCode != gtmgate.EUpstream {
		t.Errorf("ledger of tok_1 = %+v, want the UPSTREAM_ERROR", l)
	}
}

// TestDeniedCallIsNotUsage: a call the agent's toolset refuses never ran,
// so, like a held or invalid one, it is audited but neither billed nor
// counted as usage.
func TestDeniedCallIsNotUsage(t *testing.T) {
	e := newEnv(t)
	e.ungated(t)
	tenant, err := e.store.GetTenant(t.Context(), "acme")
	if err != nil {
		t.Fatal(err)
	}
	tenant.Toolsets = map[string]*gtmgate.Toolset{"reader": {Allow: []string{"*"}, ReadOnly: true}}
	if _, err := e.store.PutTenant(t.Context(), tenant); err != nil {
		t.Fatal(err)
	}
	_, err = e.runner.Call(t.Context(), &toolrun.Request{
		Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_r", Kind: gtmgate.PrincipalToken, Toolset: "reader"}, TenantID: "acme",
		Tool: "email_send", Input: json.RawMessage(`{"action":"send","rationale":"r"}`), Source: "rest", RequestID: "req-denied",
	})
	if gtmgate.ErrorCode(err) != gtmgate.EForbidden || e.runs.Load() != 0 {
		t.Fatalf("read-only agent sending mail: %v (ran %d times), want FORBIDDEN before it ran", err, e.runs.Load())
	}
	if len(e.rec.entries) != 1 || e.rec.entries[0].Outcome != gtmgate.OutcomeDenied {
		t.Errorf("audit = %+v, want one denied entry", e.rec.entries)
	}
	if len(e.rec.usage) != 0 {
		t.Errorf("usage = %+v, want none for a call that never ran", e.rec.usage)
	}
}

// personEnv is a runner whose tenant acme has a shared mailbox (its
// default) and Ada's own; the email_send tool records the account it sent
// from, and the tenant's policy holds every send.
type personEnv struct {
	path     string // the SQLite file, for a test that alters a row behind the store
	store    *sqlstore.Store
	runner   *toolrun.Runner
	sentFrom []string
}

func newPersonEnv(t *testing.T, policy *gtmgate.ApprovalPolicy) *personEnv {
	return newPersonEnvNotified(t, policy, nil)
}

func newPersonEnvNotified(t *testing.T, policy *gtmgate.ApprovalPolicy, notify func(ctx context.Context, event, approvalID string) error) *personEnv {
	path := filepath.Join(t.TempDir(), "g.db")
	st, err := sqlite.Open(t.Context(), path, &sqlstore.Options{Sealer: storetest.NewSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive, Approval: policy,
		Providers: map[string]gtmgate.ProviderAccounts{"gmail": {Default: "team@acme.example", Accounts: []gtmgate.Account{
			{ID: "team@acme.example"}, {ID: "ada@acme.example", Person: "p_ada"}}}}}); err != nil {
		t.Fatal(err)
	}
	e := &personEnv{store: st, path: path}
	reg := registry.MustNew(gtmgate.Tool{
		Name: "email_send", Domain: "email", Provider: "gmail", Title: "Send", Description: "send mail",
		Actions: []gtmgate.Action{{Name: "send", Category: gtmgate.CategoryEmailSend, Mutating: true}},
		Run: func(_ context.Context, c *gtmgate.Call) (any, error) {
			e.sentFrom = append(e.sentFrom, c.Account.ID)
			return map[string]any{"sent": true}, nil
		},
	})
	e.runner = toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: &recorder{ledger: st}, Tokens: noTokens{},
		CallTimeout: time.Minute, GateKey: []byte("test gate key"), Notify: notify})
	return e
}

// hold makes Ada's agent send mail (no account named) and returns the gate.
func (e *personEnv) hold(t *testing.T) *gtmgate.Approval {
	t.Helper()
	_, err := e.runner.Call(t.Context(), &toolrun.Request{
		Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_ada", Kind: gtmgate.PrincipalToken, Person: "p_ada"}, TenantID: "acme",
		Tool: "email_send", Input: json.RawMessage(`{"action":"send","rationale":"r"}`), Source: "rest", RequestID: "req-ada",
	})
	return storedGate(t, e.store, err)
}

// TestHeldCallKeepsThePersonsAccount: a call of an agent acting for a
// person, naming no account, acts on the person's own; when it is held,
// the gate stores that account in its input, so the approval (an
// operator's credential, which would take the tenant's default) sends from
// the same mailbox.
func TestHeldCallKeepsThePersonsAccount(t *testing.T) {
	e := newPersonEnv(t, nil)
	a := e.hold(t)
	if a.AccountID != "ada@acme.example" || !strings.Contains(string(a.Input), `"account_id":"ada@acme.example"`) {
		t.Fatalf("gate: account %q, input %s; want Ada's mailbox in both", a.AccountID, a.Input)
	}
	if _, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: true, DecidedBy: "op", RequestID: "req-ok"}); err != nil {
		t.Fatal(err)
	}
	if len(e.sentFrom) != 1 || e.sentFrom[0] != "ada@acme.example" {
		t.Errorf("the approved call sent from %v, want Ada's mailbox", e.sentFrom)
	}
}

// TestGateIsBoundToTheCall: a gate records the digest of the exact call it
// holds, the policy version that held it and whose agent made it; a stored
// call changed after it was held (here: moved to the shared mailbox) is
// refused when approved, and nothing runs.
func TestGateIsBoundToTheCall(t *testing.T) {
	e := newPersonEnv(t, nil)
	a := e.hold(t)
	want, _ := gtmgate.CallDigest([]byte("test gate key"), "acme", "email_send", "send", "ada@acme.example", a.Input)
	if a.Digest != want || a.Agent != "tok_ada" || a.Person != "p_ada" || a.PolicyVersion != gtmgate.PolicyVersion(gtmgate.DefaultApprovalPolicy()) {
		t.Fatalf("gate binding: digest %q (want %q), agent %q, person %q, policy %q", a.Digest, want, a.Agent, a.Person, a.PolicyVersion)
	}
	db, err := sql.Open("sqlite", e.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(t.Context(), "UPDATE approvals SET input = ?, account_id = ? WHERE id = ?",
		`{"account_id":"team@acme.example","action":"send","rationale":"r"}`, "team@acme.example", a.ID); err != nil {
		t.Fatal(err)
	}
	got, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: true, DecidedBy: "op", RequestID: "req-ok"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != gtmgate.ApprovalFailed || !strings.Contains(string(got.Result), "no longer matches") || len(e.sentFrom) != 0 {
		t.Fatalf("an altered gate: %s %s, sent from %v; want failed, nothing sent", got.Status, got.Result, e.sentFrom)
	}
	if stored, _ := e.store.GetApproval(t.Context(), a.ID); stored.Status != gtmgate.ApprovalFailed {
		t.Errorf("stored status %s, want failed", stored.Status)
	}
}

// TestNoSelfApproval: under no_self_approval the person an agent acts for
// cannot approve its held call; another approver can.
func TestNoSelfApproval(t *testing.T) {
	p := gtmgate.DefaultApprovalPolicy()
	p.NoSelfApproval = true
	e := newPersonEnv(t, &p)
	a := e.hold(t)
	_, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: true, DecidedBy: "ada@acme.example", DeciderPerson: "p_ada", RequestID: "r1"})
	if gtmgate.ErrorCode(err) != gtmgate.EForbidden || len(e.sentFrom) != 0 {
		t.Fatalf("Ada approving her own agent's call: %v (sent %v), want FORBIDDEN", err, e.sentFrom)
	}
	if stored, _ := e.store.GetApproval(t.Context(), a.ID); stored.Status != gtmgate.ApprovalPending {
		t.Fatalf("after the refusal: %s, want pending", stored.Status)
	}
	if got, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: true, DecidedBy: "bob@acme.example", DeciderPerson: "p_bob", RequestID: "r2"}); err != nil || got.Status != gtmgate.ApprovalExecuted {
		t.Fatalf("Bob approving: %v %v", got, err)
	}
	// Without the rule, Ada may approve her own agent's call.
	e = newPersonEnv(t, nil)
	a = e.hold(t)
	if got, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: true, DecidedBy: "ada", DeciderPerson: "p_ada", RequestID: "r3"}); err != nil || got.Status != gtmgate.ApprovalExecuted {
		t.Fatalf("Ada approving without the rule: %v %v", got, err)
	}
}

// noTokens gives every account a token source that the test's tools never read.
type noTokens struct{}

func (noTokens) TokenSource(context.Context, string, string, string) (gtmgate.TokenSource, error) {
	return nil, nil
}

// TestNoticesComeFirst: the notice of a held call is queued before its gate
// is stored, and a decision's before it is made, so a process killed
// between the two loses no notice (the notice's worker waits for the
// state it announces).
func TestNoticesComeFirst(t *testing.T) {
	var e *personEnv
	var seen []string
	e = newPersonEnvNotified(t, nil, func(ctx context.Context, event, id string) error {
		a, err := e.store.GetApproval(ctx, id)
		state := "absent"
		if err == nil {
			state = a.Status
		}
		seen = append(seen, event+" while "+state)
		return nil
	})
	a := e.hold(t)
	if _, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: false, Reason: "not now", DecidedBy: "op", RequestID: "r"}); err != nil {
		t.Fatal(err)
	}
	want := []string{gtmgate.EventApprovalRequested + " while absent", gtmgate.EventApprovalDecided + " while pending"}
	if !slices.Equal(seen, want) {
		t.Errorf("notices %q, want %q", seen, want)
	}
}

// storedGate is the gate a held call's err names, as stored; the test
// fails unless err is APPROVAL_REQUIRED.
func storedGate(t *testing.T, store gtmgate.ApprovalStore, err error) *gtmgate.Approval {
	t.Helper()
	var ge *gtmgate.Error
	if !errors.As(err, &ge) || ge.Code != gtmgate.EApprovalRequired {
		t.Fatalf("call: %v, want APPROVAL_REQUIRED", err)
	}
	a, err := store.GetApproval(t.Context(), ge.ApprovalID)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
