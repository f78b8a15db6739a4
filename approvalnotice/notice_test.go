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

type store map[string]*gtmgate.Approval

func (s store) GetApproval(_ context.Context, id string) (*gtmgate.Approval, error) {
	if a, ok := s[id]; ok {
		return a, nil
	}
	return nil, gtmgate.ErrNotFound
}

type queue struct{ msgs []webhook.Args }

func (q *queue) Insert(_ context.Context, args river.JobArgs, _ *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	q.msgs = append(q.msgs, args.(webhook.Args))
	return &rivertype.JobInsertResult{}, nil
}

func gate(status string) *gtmgate.Approval {
	return &gtmgate.Approval{ID: "apr_1", TenantID: "demo", Status: status, Gate: gtmgate.GatePolicy, Tool: "google_ads_campaigns",
		Action: "update_budget", Category: "ads_mutate", AccountID: "1234567890", Agent: "tok_1", Person: "p_ada",
		Input:  json.RawMessage(`{"action":"update_budget","amount":150,"campaign_id":"21000100002","rationale":"launch week","note":"` + strings.Repeat("x", 300) + `"}`),
		Digest: "v1:abc", PolicyVersion: "pol_123456789abc", ExpiresAt: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := store{}
			if tc.status != "" {
				st["apr_1"] = gate(tc.status)
			}
			q := &queue{}
			w := approvalnotice.New(approvalnotice.Options{Store: st, Queue: q, GatewayURL: "https://gw.example"})
			err := w.Work(t.Context(), &river.Job[approvalnotice.Args]{JobRow: &rivertype.JobRow{Attempt: 1}, Args: approvalnotice.Args{ApprovalID: "apr_1", Event: tc.event}})
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
			if got != "sent" {
				return
			}
			m := q.msgs[0]
			if m.WebhookID != tc.event+"_apr_1" || m.Event != tc.event || m.TenantID != "demo" {
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
			if env.Type != tc.event || d.URL != "https://gw.example/console/approvals#apr_1" || d.Rationale != "launch week" ||
				d.Fields["amount"] != 150.0 || d.Fields["campaign_id"] != "21000100002" || d.Agent != "tok_1" || d.Person != "p_ada" ||
				d.Digest != "v1:abc" || d.Fields["rationale"] != nil || len([]rune(d.Fields["note"].(string))) != 201 {
				t.Errorf("summary %+v", d)
			}
		})
	}
}

// TestJobQueues pins the notice to the webhooks queue.
func TestJobQueues(t *testing.T) {
	jobstest.Check(t, []jobstest.Pin{{Name: "a notice", Args: approvalnotice.Args{ApprovalID: "apr_1", Event: approvalnotice.Requested},
		Kind: "approval_notice", Queue: jobs.QueueWebhooks, Priority: 1}})
}
