package agent

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// TestStepOfARevokedCredential: a run whose token was revoked behind its
// back (no revocation notice reached it) makes no further call: the step
// it was about to make fails as UNAUTHORIZED, the run is cancelled with the
// reason, and its pending gates are withdrawn. The decision reads the run's
// principal, so a run of the admin key goes on.
func TestStepOfARevokedCredential(t *testing.T) {
	ctx := t.Context()
	st := storetest.TenantWithToken(t)
	now := time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)
	a := New(Options{Store: st, Now: func() time.Time { return now }})
	run := func(id string, c *gtmgate.Credential) *gtmgate.AgentRun {
		t.Helper()
		r := &gtmgate.AgentRun{ID: id, TenantID: "acme", Status: gtmgate.RunRunning, Trigger: gtmgate.TriggerSchedule, MaxSteps: 1, Credential: c,
			Call: &gtmgate.ToolCallSpec{Tool: "crm_contacts", Input: json.RawMessage(`{"action":"create"}`)}, CreatedAt: now,
			Steps: []gtmgate.RunStep{{N: 1, Tool: "crm_contacts", Input: json.RawMessage(`{"action":"create"}`), Status: gtmgate.StepPlanned,
				RequestID: id + "-s1", StartedAt: now}}}
		if err := st.CreateAgentRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	revoked := run("run_tok", &gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_1"})
	if err := st.CreateApproval(ctx, &gtmgate.Approval{ID: "apr_1", TenantID: "acme", Status: gtmgate.ApprovalPending, Tool: "crm_contacts",
		Action: "create", RequestID: "run_tok-s0", RunID: "run_tok", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := st.RevokeTenantToken(ctx, "acme", "tok_1", now); err != nil {
		t.Fatal(err)
	}
	if _, err := a.advance(ctx, revoked); err != nil {
		t.Fatal(err)
	}
	got, err := st.GetAgentRun(ctx, "run_tok")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != gtmgate.RunCancelled || !strings.Contains(got.Reason, "tenant token tok_1, which it acts for, was revoked") {
		t.Errorf("run = %s: %s", got.Status, got.Reason)
	}
	if s := got.Steps[0]; s.Status != gtmgate.StepError || s.ErrorCode != gtmgate.EUnauthorized {
		t.Errorf("the step it was about to make = %s %s", s.Status, s.ErrorCode)
	}
	if g, _ := st.GetApproval(ctx, "apr_1"); g.Status != gtmgate.ApprovalWithdrawn {
		t.Errorf("its gate is %s", g.Status)
	}

	// The admin key is never revoked: the check lets its run go on to its
	// step (which, with no runner here, is as far as this test goes).
	admin := run("run_admin", &gtmgate.Credential{Kind: gtmgate.CredentialAdmin})
	if reason, err := a.credentialRevoked(ctx, admin); err != nil || reason != "" {
		t.Errorf("admin run: %q, %v", reason, err)
	}
}
