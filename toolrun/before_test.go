package toolrun_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/googleads"
	"github.com/gtmgate/gtmgate/provider/providertest"
	"github.com/gtmgate/gtmgate/provider/upstream"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/sqlstore"
	"github.com/gtmgate/gtmgate/toolrun"
)

// sandboxTokens gives every account the token the provider's sandbox takes.
type sandboxTokens string

func (s sandboxTokens) TokenSource(context.Context, string, string, string) (gtmgate.TokenSource, error) {
	return gtmgate.StaticToken(s), nil
}

// adsEnv is a runner with the Google Ads tools pointed at their sandbox,
// for a tenant whose policy holds ads changes.
type adsEnv struct {
	store  *sqlstore.Store
	runner *toolrun.Runner
	rec    *recorder
	sb     *googleads.Sandbox
}

func newAdsEnv(t *testing.T) *adsEnv {
	t.Helper()
	st := openStore(t)
	psb := googleads.NewSandbox()
	opts := googleads.Options(providertest.Serve(t, psb), "sandbox-dev-token", "")
	opts.Backoff = time.Millisecond
	if _, err := st.PutTenant(t.Context(), &gtmgate.Tenant{ID: "acme", Name: "Acme", Status: gtmgate.TenantActive,
		Providers: map[string]gtmgate.ProviderAccounts{googleads.Provider: {Accounts: psb.Accounts[:1]}}}); err != nil {
		t.Fatal(err)
	}
	e := &adsEnv{store: st, rec: &recorder{ledger: st}, sb: psb.Handler.(*googleads.Sandbox)}
	e.runner = toolrun.New(toolrun.Options{Registry: registry.MustNew(googleads.Tools(upstream.MustNew(opts))...), Store: st,
		Recorder: e.rec, Tokens: sandboxTokens(psb.Token), CallTimeout: time.Minute})
	return e
}

// call runs google_ads_campaigns with input as agent tok_1.
func (e *adsEnv) call(t *testing.T, input string) (*toolrun.Outcome, error) {
	t.Helper()
	return e.runner.Call(t.Context(), &toolrun.Request{Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_1"}, TenantID: "acme",
		Tool: "google_ads_campaigns", Input: json.RawMessage(input), Source: "rest", RequestID: "req-" + fmt.Sprint(len(e.rec.entries))})
}

// hold makes a call the policy holds and returns its stored gate.
func (e *adsEnv) hold(t *testing.T, input string) *gtmgate.Approval {
	t.Helper()
	_, err := e.call(t, input)
	return storedGate(t, e.store, err)
}

// TestHeldBudgetChangeReadsTheCurrentBudget: a held budget change stores
// the campaign's budget and currency as they were when it was held,
// through the adapter's own read on the tenant's account; the read is the
// gateway's, so the only audit entry is the held call's and no usage is
// counted.
func TestHeldBudgetChangeReadsTheCurrentBudget(t *testing.T) {
	e := newAdsEnv(t)
	got, err := e.call(t, `{"rationale":"r","action":"get","campaign_id":"21000100002"}`)
	if err != nil {
		t.Fatal(err)
	}
	campaign := got.Result.(map[string]any)
	e.rec.entries, e.rec.usage = nil, nil
	requests := e.sb.Requests()

	a := e.hold(t, `{"rationale":"launch week","action":"update_budget","campaign_id":"21000100002","amount":250}`)
	var before map[string]any
	if err := json.Unmarshal(a.Before, &before); err != nil {
		t.Fatalf("before %s: %v", a.Before, err)
	}
	if diff := cmp.Diff(map[string]any{"daily_budget": campaign["daily_budget"], "currency": campaign["currency"]}, before); diff != "" || a.BeforeError != "" {
		t.Errorf("before (-want +got):\n%s\nbefore_error %q", diff, a.BeforeError)
	}
	if e.sb.Requests() == requests {
		t.Error("the sandbox saw no read when the call was held")
	}
	if len(e.rec.entries) != 1 || e.rec.entries[0].ErrorCode != gtmgate.EApprovalRequired || len(e.rec.usage) != 0 {
		t.Errorf("audit %+v, usage %+v; want the held call's entry alone and no usage", e.rec.entries, e.rec.usage)
	}

	status := e.hold(t, `{"rationale":"r","action":"update_status","campaign_id":"21000100002","status":"PAUSED"}`)
	if string(status.Before) != fmt.Sprintf(`{"status":%q}`, campaign["status"]) {
		t.Errorf("status before = %s, want the campaign's %v", status.Before, campaign["status"])
	}
}

// TestFailedBeforeReadStillHolds: a read the provider refuses is noted on
// the gate in words without the token, the call is held all the same, and
// approving it runs it.
func TestFailedBeforeReadStillHolds(t *testing.T) {
	e := newAdsEnv(t)
	e.sb.DenyNext("CUSTOMER_NOT_ENABLED", 1)
	a := e.hold(t, `{"rationale":"r","action":"update_budget","campaign_id":"21000100002","amount":250}`)
	if a.Before != nil || a.BeforeError == "" || strings.Contains(a.BeforeError, googleads.SandboxToken) {
		t.Fatalf("before %s, before_error %q; want only a reason, without the token", a.Before, a.BeforeError)
	}
	if a.Status != gtmgate.ApprovalPending {
		t.Fatalf("gate is %s, want pending", a.Status)
	}
	done, err := e.runner.Decide(t.Context(), toolrun.Decision{ApprovalID: a.ID, Approve: true, DecidedBy: "op", RequestID: "req-ok"})
	if err != nil || done.Status != gtmgate.ApprovalExecuted {
		t.Fatalf("approving: %v, %v; want it executed", done, err)
	}
}

// TestBeforeReason: what a failed read tells the approver is the error's
// safe message, never its cause, and a read that outlives its time says so.
func TestBeforeReason(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"gateway error", &gtmgate.Error{Code: gtmgate.EReauthRequired, Message: "the token has expired", Err: errors.New("Bearer s3cret")},
			"the token has expired"},
		{"timeout", fmt.Errorf("read: %w", context.DeadlineExceeded), "the provider did not answer within 5s"},
		{"anything else", errors.New("dial tcp: token=s3cret"), "internal error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newFakeBeforeEnv(t, func(context.Context, *gtmgate.Call) (map[string]any, error) { return nil, tc.err })
			a := e.hold(t)
			if a.BeforeError != tc.want || a.Before != nil {
				t.Errorf("before %s, before_error %q; want %q", a.Before, a.BeforeError, tc.want)
			}
		})
	}
	e := newFakeBeforeEnv(t, func(context.Context, *gtmgate.Call) (map[string]any, error) { return nil, nil })
	if a := e.hold(t); a.Before != nil || a.BeforeError != "" {
		t.Errorf("a read with nothing to say stored before %s, before_error %q", a.Before, a.BeforeError)
	}
}

// newFakeBeforeEnv is a runner whose one held action reads its before
// with read.
func newFakeBeforeEnv(t *testing.T, read gtmgate.BeforeRead) *personEnv {
	t.Helper()
	st := openAcme(t)
	reg := registry.MustNew(gtmgate.Tool{
		Name: "email_send", Domain: "email", Title: "Send", Description: "send mail",
		Actions: []gtmgate.Action{{Name: "send", Category: gtmgate.CategoryEmailSend, Mutating: true, Before: read}},
		Run:     func(context.Context, *gtmgate.Call) (any, error) { return map[string]any{"sent": true}, nil },
	})
	return &personEnv{store: st, runner: toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: &recorder{ledger: st}, CallTimeout: time.Minute})}
}
