package hubspot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestNotes(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	all := mustRun[Page](e, "crm_notes", `{"rationale": "recent activity", "action": "list", "limit": 3}`)
	if len(all.Items) != 3 || all.NextCursor == "" || all.Total == nil || *all.Total != len(seedNotes) {
		t.Fatalf("list: %d items, cursor %q, total %v", len(all.Items), all.NextCursor, all.Total)
	}
	if a, b := propValue(all.Items[0], "hs_timestamp"), propValue(all.Items[1], "hs_timestamp"); a < b {
		t.Fatalf("notes not newest first: %s before %s", a, b)
	}
	// Halcyon's deal (7203) has two seeded notes; contact 1503 (Rachel) one.
	onDeal := mustRun[Page](e, "crm_notes", `{"rationale": "deal history", "action": "list", "deal_id": "7203"}`)
	if len(onDeal.Items) != 2 {
		t.Fatalf("notes on deal 7203 = %d, want 2", len(onDeal.Items))
	}
	created := mustRun[Item](e, "crm_notes", `{"rationale": "log the call", "action": "create", "body": "<p>Pricing call: wants annual billing.</p>",
		"timestamp": "2026-01-10T10:00:00Z", "contact_id": "1503", "deal_id": "7203"}`)
	if created.ID == "" || propValue(created, "hs_note_body") == "" || propValue(created, "hs_timestamp") != "2026-01-10T10:00:00.000Z" {
		t.Fatalf("created = %+v", created.Properties)
	}
	onContact := mustRun[Page](e, "crm_notes", `{"rationale": "contact history", "action": "list", "contact_id": "1503"}`)
	if len(onContact.Items) != 2 || onContact.Items[0].ID != created.ID {
		t.Fatalf("contact notes = %+v, want the new note first", onContact.Items)
	}
	filtered := mustRun[Page](e, "crm_notes", `{"rationale": "pricing mentions", "action": "list", "company_id": "8802", "filter": {"property": "hs_note_body", "operator": "CONTAINS_TOKEN", "value": "security"}}`)
	if len(filtered.Items) != 1 {
		t.Fatalf("filtered notes = %d, want 1", len(filtered.Items))
	}
}

func TestNotesValidation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tests := []struct{ name, input, mention string }{
		{"create without body", `{"rationale": "r", "action": "create", "contact_id": "1501"}`, "body is required"},
		{"bad timestamp", `{"rationale": "r", "action": "create", "body": "x", "timestamp": "yesterday"}`, "RFC 3339"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.run("crm_notes", tt.input)
			if ge := providertest.WantCode(t, err, gtmgate.EValidation); !strings.Contains(ge.Message, tt.mention) {
				t.Fatalf("message %q lacks %q", ge.Message, tt.mention)
			}
		})
	}
	_, err := e.run("crm_notes", `{"rationale": "r", "action": "create", "body": "x", "contact_id": "424242"}`)
	if d := upstreamDetail(t, providertest.WantCode(t, err, gtmgate.EUpstream)); d.Status != 400 {
		t.Fatalf("note on missing contact: status %d, want 400", d.Status)
	}
}

func TestTasks(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	open := mustRun[Page](e, "crm_tasks", `{"rationale": "what is open", "action": "list", "filter": {"property": "hs_task_status", "operator": "NOT_IN", "value": ["COMPLETED", "DEFERRED"]}}`)
	if len(open.Items) != len(seedTasks)-2 {
		t.Fatalf("open tasks = %d, want %d", len(open.Items), len(seedTasks)-2)
	}
	for i := 1; i < len(open.Items); i++ {
		if propValue(open.Items[i-1], "hs_timestamp") > propValue(open.Items[i], "hs_timestamp") {
			t.Fatal("tasks not ordered by due date")
		}
	}
	created := mustRun[Item](e, "crm_tasks", `{"rationale": "follow up", "action": "create", "subject": "Send ROI model to Devon",
		"priority": "HIGH", "task_type": "EMAIL", "due": "2026-02-01T09:00:00Z", "contact_id": "1505", "company_id": "8803"}`)
	if propValue(created, "hs_task_status") != "NOT_STARTED" || propValue(created, "hs_task_priority") != "HIGH" {
		t.Fatalf("created = %+v", created.Properties)
	}
	updated := mustRun[Item](e, "crm_tasks", fmt.Sprintf(`{"rationale": "done", "action": "update", "id": %q, "status": "COMPLETED", "body": "Sent with case study."}`, created.ID))
	if propValue(updated, "hs_task_status") != "COMPLETED" || propValue(updated, "hs_task_subject") != "Send ROI model to Devon" {
		t.Fatalf("updated = %+v", updated.Properties)
	}
	mine := mustRun[Page](e, "crm_tasks", `{"rationale": "Devon's tasks", "action": "list", "contact_id": "1505"}`)
	if len(mine.Items) != 1 || mine.Items[0].ID != created.ID || propValue(mine.Items[0], "hs_task_body") != "Sent with case study." {
		t.Fatalf("tasks on contact 1505 = %+v", mine.Items)
	}
}

func TestTasksValidation(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	tests := []struct{ name, input, mention string }{
		{"create without subject", `{"rationale": "r", "action": "create"}`, "subject is required"},
		{"update without id", `{"rationale": "r", "action": "update", "status": "COMPLETED"}`, "id is required"},
		{"update with nothing", `{"rationale": "r", "action": "update", "id": "6401"}`, "at least one"},
		{"update relinks", `{"rationale": "r", "action": "update", "id": "6401", "contact_id": "1501"}`, "create and list only"},
		{"bad status", `{"rationale": "r", "action": "update", "id": "6401", "status": "DONE"}`, "status"},
		{"bad due", `{"rationale": "r", "action": "create", "subject": "s", "due": "2025-13-01"}`, "RFC 3339"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.run("crm_tasks", tt.input)
			if ge := providertest.WantCode(t, err, gtmgate.EValidation); !strings.Contains(ge.Message, tt.mention) {
				t.Fatalf("message %q lacks %q", ge.Message, tt.mention)
			}
		})
	}
}
