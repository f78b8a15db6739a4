package approvalnotice_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/approvalnotice"
	"github.com/gtmgate/gtmgate/jobs"
	"github.com/gtmgate/gtmgate/jobs/jobstest"
	"github.com/gtmgate/gtmgate/webhook"
)

// store holds gates, tenants, people and grants.
type store struct {
	gates   map[string]*gtmgate.Approval
	tenants map[string]*gtmgate.Tenant
	people  []*gtmgate.Person
	grants  []*gtmgate.RoleGrant
}

func (s *store) GetApproval(_ context.Context, id string) (*gtmgate.Approval, error) {
	if a, ok := s.gates[id]; ok {
		return a, nil
	}
	return nil, gtmgate.ErrNotFound
}

func (s *store) GetTenant(_ context.Context, id string) (*gtmgate.Tenant, error) {
	if t, ok := s.tenants[id]; ok {
		return t, nil
	}
	return nil, gtmgate.ErrNotFound
}

func (s *store) GetPerson(_ context.Context, id string) (*gtmgate.Person, error) {
	for _, p := range s.people {
		if p.ID == id {
			return p, nil
		}
	}
	return nil, gtmgate.ErrNotFound
}

func (s *store) ListPeople(context.Context) ([]*gtmgate.Person, error) { return s.people, nil }

func (s *store) ListRoleGrants(context.Context, string) ([]*gtmgate.RoleGrant, error) {
	return s.grants, nil
}

// queue keeps the webhook messages and the reminders queued.
type queue struct {
	msgs      []webhook.Args
	reminders []*river.InsertOpts
}

func (q *queue) Insert(_ context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	switch a := args.(type) {
	case webhook.Args:
		q.msgs = append(q.msgs, a)
	case approvalnotice.Args:
		if a.Event != approvalnotice.Reminder {
			panic("a notice queued another notice than a reminder: " + a.Event)
		}
		q.reminders = append(q.reminders, opts)
	}
	return &rivertype.JobInsertResult{}, nil
}

// held is when the test gates were held, a day before they expire; before
// is a time they are pending at.
var (
	held   = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	before = held.Add(20 * time.Hour)
)

func gate(status string) *gtmgate.Approval {
	return &gtmgate.Approval{ID: "apr_1", TenantID: "demo", Status: status, Gate: gtmgate.GatePolicy, Tool: "google_ads_campaigns",
		Action: "update_budget", Category: "ads_mutate", AccountID: "1234567890", Agent: "tok_1", Person: "p_ada",
		Input:  json.RawMessage(`{"action":"update_budget","amount":150,"campaign_id":"21000100002","rationale":"launch week","note":"` + strings.Repeat("x", 300) + `"}`),
		Digest: "v1:abc", PolicyVersion: "pol_123456789abc", CreatedAt: held, ExpiresAt: held.Add(24 * time.Hour)}
}

// work runs the notice of event about gate apr_1 at now.
func work(t *testing.T, st *store, now time.Time, alert bool, event string) (*queue, error) {
	t.Helper()
	q := &queue{}
	w := approvalnotice.New(approvalnotice.Options{Store: st, Queue: q, GatewayURL: "https://gw.example", AlertWebhook: alert,
		Now: func() time.Time { return now }})
	err := w.Work(t.Context(), &river.Job[approvalnotice.Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: approvalnotice.Args{ApprovalID: "apr_1", Event: event}})
	return q, err
}

// TestNotice: each notice waits for its gate's state, then queues one
// signed message; a state that will never come cancels it without one.
func TestNotice(t *testing.T) {
	for _, tc := range []struct {
		name, event, status string
		want                string // "sent", "wait" or "cancel"
	}{
		{"requested, pending", approvalnotice.Requested, gtmgate.ApprovalPending, "sent"},
		{"requested, already decided", approvalnotice.Requested, gtmgate.ApprovalExecuted, "sent"},
		{"requested, gate not stored (yet)", approvalnotice.Requested, "", "wait"},
		{"decided, still pending", approvalnotice.Decided, gtmgate.ApprovalPending, "wait"},
		{"decided, executing", approvalnotice.Decided, gtmgate.ApprovalApproved, "wait"},
		{"decided, executed", approvalnotice.Decided, gtmgate.ApprovalExecuted, "sent"},
		{"decided, failed", approvalnotice.Decided, gtmgate.ApprovalFailed, "sent"},
		{"decided, rejected", approvalnotice.Decided, gtmgate.ApprovalRejected, "sent"},
		{"decided, expired instead", approvalnotice.Decided, gtmgate.ApprovalExpired, "cancel"},
		{"decided, withdrawn", approvalnotice.Decided, gtmgate.ApprovalWithdrawn, "cancel"},
		{"expired, pending", approvalnotice.Expired, gtmgate.ApprovalPending, "wait"},
		{"expired", approvalnotice.Expired, gtmgate.ApprovalExpired, "sent"},
		{"expired, decided instead", approvalnotice.Expired, gtmgate.ApprovalRejected, "cancel"},
		{"reminder, pending", approvalnotice.Reminder, gtmgate.ApprovalPending, "sent"},
		{"reminder, pending past the deadline", approvalnotice.Reminder, gtmgate.ApprovalPending + " late", "cancel"},
		{"reminder, executing", approvalnotice.Reminder, gtmgate.ApprovalApproved, "cancel"},
		{"reminder, decided", approvalnotice.Reminder, gtmgate.ApprovalRejected, "cancel"},
		{"reminder, expired", approvalnotice.Reminder, gtmgate.ApprovalExpired, "cancel"},
		{"reminder, withdrawn", approvalnotice.Reminder, gtmgate.ApprovalWithdrawn, "cancel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &store{gates: map[string]*gtmgate.Approval{}}
			now := before
			if status, late := strings.CutSuffix(tc.status, " late"); late {
				tc.status, now = status, held.Add(25*time.Hour)
			}
			if tc.status != "" {
				st.gates["apr_1"] = gate(tc.status)
			}
			q, err := work(t, st, now, true, tc.event)
			var cancel *rivertype.JobCancelError
			got := "wait"
			switch {
			case err == nil && len(q.msgs) == 1:
				got = "sent"
			case errors.As(err, &cancel):
				got = "cancel"
			}
			if got != tc.want || (got != "sent" && len(q.msgs) != 0) {
				t.Fatalf("got %s (%v, %d messages), want %s", got, err, len(q.msgs), tc.want)
			}
			// The requested notice of a pending gate, and it only, schedules
			// the reminder.
			if want := tc.name == "requested, pending"; (len(q.reminders) == 1) != want || len(q.reminders) > 1 {
				t.Errorf("%d reminders scheduled, want one: %v", len(q.reminders), want)
			} else if want && !q.reminders[0].ScheduledAt.Equal(held.Add(24*time.Hour-24*time.Hour/5)) {
				t.Errorf("reminder scheduled at %v, want when a fifth of the gate's life remains", q.reminders[0].ScheduledAt)
			}
			if got != "sent" {
				return
			}
			m := q.msgs[0]
			if m.WebhookID != tc.event+"_apr_1" || m.Event != tc.event || m.TenantID != "demo" || m.Endpoint != "" {
				t.Errorf("message %+v", m)
			}
			var env struct {
				Type string
				Data approvalnotice.Summary
			}
			if err := json.Unmarshal(m.Body, &env); err != nil {
				t.Fatal(err)
			}
			d := env.Data
			if env.Type != tc.event || d.URL != "https://gw.example/console/approvals/apr_1" || d.Rationale != "launch week" ||
				d.Fields["amount"] != 150.0 || d.Fields["campaign_id"] != "21000100002" || d.Agent != "tok_1" || d.Person != "p_ada" ||
				d.Digest != "v1:abc" || d.Fields["rationale"] != nil || len([]rune(d.Fields["note"].(string))) != 201 {
				t.Errorf("summary %+v", d)
			}
		})
	}
}

// TestJobQueues pins the notices, the reminder scheduled with its time
// included, to the webhooks queue.
func TestJobQueues(t *testing.T) {
	jobstest.Check(t, []jobstest.Pin{
		{Name: "a notice", Args: approvalnotice.Args{ApprovalID: "apr_1", Event: approvalnotice.Requested},
			Kind: "approval_notice", Queue: jobs.QueueWebhooks, Priority: 1},
		{Name: "a reminder", Args: approvalnotice.Args{ApprovalID: "apr_1", Event: approvalnotice.Reminder},
			Opts: &river.InsertOpts{ScheduledAt: before}, Kind: "approval_notice", Queue: jobs.QueueWebhooks, Priority: 1},
	})
}
