package schedule

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/store/storetest"
)

// TestTickChecksTheCredential: a due schedule whose token was revoked behind
// the scheduler's back (no revocation notice) does not run at its tick: the
// tick disables it with the reason and starts no run. A schedule stored by a
// tenant's agent before schedules carried credentials is disabled too; an
// operator's is left to run.
func TestTickChecksTheCredential(t *testing.T) {
	ctx := t.Context()
	st := storetest.TenantWithToken(t)
	now := time.Date(2026, 11, 30, 7, 0, 30, 0, time.UTC)
	due := now.Add(-30 * time.Second)
	put := func(job, updatedBy string, by *gtmgate.Credential) {
		t.Helper()
		if _, err := st.PutSchedule(ctx, &gtmgate.Schedule{JobID: job, TenantID: "acme", Cron: "* * * * *", Timezone: "UTC", Enabled: true,
			Call: &gtmgate.ToolCallSpec{Tool: "crm_deals", Input: json.RawMessage(`{"action":"list"}`)}, NextRunAt: &due,
			UpdatedBy: updatedBy, CreatedBy: by}); err != nil {
			t.Fatal(err)
		}
	}
	put("by-token", "agent:req_1", &gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_1"})
	put("legacy-agent", "agent:req_0", nil)
	if err := st.RevokeTenantToken(ctx, "acme", "tok_1", now.Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	s := New(Options{Store: st, Now: func() time.Time { return now }})
	if err := s.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	for job, want := range map[string]string{"by-token": "tenant token tok_1, which created it, was revoked at 2026-11-30T06:59:30Z",
		"legacy-agent": "before schedules carried their creator's rights"} {
		sc, err := st.GetSchedule(ctx, "acme", job)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Enabled || sc.NextRunAt != nil || !strings.Contains(sc.DisabledReason, want) || sc.DisabledAt == nil || !sc.DisabledAt.Equal(now) {
			t.Errorf("%s after the tick: enabled %v, next %v, disabled %q at %v; want disabled: %s", job, sc.Enabled, sc.NextRunAt,
				sc.DisabledReason, sc.DisabledAt, want)
		}
	}
	runs, err := st.ListAgentRuns(ctx, gtmgate.AgentRunFilter{TenantID: "acme"})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 0 {
		t.Errorf("the tick started %d runs for revoked or unbound schedules", len(runs))
	}
	ran, err := s.RunNow(ctx, "acme", "by-token")
	if err != nil || ran.Status != gtmgate.RunSkipped || !strings.Contains(ran.Reason, "revoked") {
		t.Errorf("run now of the disabled schedule = %+v, %v", ran, err)
	}
}
