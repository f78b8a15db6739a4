package hubspot

import (
	"slices"
	"strings"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

func TestAssociations(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	// Deal 7207 (Pinecrest) has three contacts and one company.
	contacts := mustRun[AssociationPage](e, "crm_associations", `{"rationale": "who is on the deal", "action": "list", "from_type": "deals", "from_id": "7207", "to_type": "contacts"}`)
	if len(contacts.Items) != 3 || contacts.Items[0].Type != "contacts" || !slices.Contains(contacts.Items[0].TypeIDs, 3) {
		t.Fatalf("deal contacts = %+v", contacts.Items)
	}
	paged := mustRun[AssociationPage](e, "crm_associations", `{"rationale": "page", "action": "list", "from_type": "deals", "from_id": "7207", "to_type": "contacts", "limit": 2}`)
	if len(paged.Items) != 2 || paged.NextCursor == "" {
		t.Fatalf("paged = %+v", paged)
	}
	rest := mustRun[AssociationPage](e, "crm_associations", `{"rationale": "page", "action": "list", "from_type": "deals", "from_id": "7207", "to_type": "contacts", "cursor": "`+paged.NextCursor+`"}`)
	if len(rest.Items) != 1 || rest.NextCursor != "" {
		t.Fatalf("second page = %+v", rest)
	}
	res := mustRun[AssociationResult](e, "crm_associations", `{"rationale": "Ravi joins the deal", "action": "create", "from_type": "contacts", "from_id": "1528", "to_type": "deals", "to_id": "7211"}`)
	if res.Status != "COMPLETE" || !slices.Contains(res.TypeIDs, 4) || !slices.Contains(res.TypeIDs, 3) {
		t.Fatalf("create = %+v", res)
	}
	back := mustRun[AssociationPage](e, "crm_associations", `{"rationale": "check", "action": "list", "from_type": "deals", "from_id": "7211", "to_type": "contacts"}`)
	if !slices.ContainsFunc(back.Items, func(a Association) bool { return a.ID == "1528" }) {
		t.Fatalf("new association not listed from the deal: %+v", back.Items)
	}

	tests := []struct {
		name, input, code string
	}{
		{"missing to_type", `{"rationale": "r", "action": "list", "from_type": "deals", "from_id": "7207"}`, gtmgate.EValidation},
		{"missing to_id", `{"rationale": "r", "action": "create", "from_type": "deals", "from_id": "7207", "to_type": "contacts"}`, gtmgate.EValidation},
		{"unsupported pair", `{"rationale": "r", "action": "list", "from_type": "notes", "from_id": "5601", "to_type": "tasks"}`, gtmgate.EValidation},
		{"unknown type", `{"rationale": "r", "action": "list", "from_type": "tickets", "from_id": "1", "to_type": "deals"}`, gtmgate.EValidation},
		{"filter rejected", `{"rationale": "r", "action": "list", "from_type": "deals", "from_id": "7207", "to_type": "contacts", "filter": {"property": "email", "operator": "HAS_PROPERTY"}}`, gtmgate.EValidation},
		{"missing record", `{"rationale": "r", "action": "create", "from_type": "contacts", "from_id": "1501", "to_type": "deals", "to_id": "1"}`, gtmgate.EUpstream},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.run("crm_associations", tt.input)
			providertest.WantCode(t, err, tt.code)
		})
	}
}

func TestPipelines(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	deals := mustRun[PipelineList](e, "crm_pipelines", `{"rationale": "stage ids before moving a deal"}`)
	if len(deals.Items) != 2 || deals.Items[0].ID != "default" || len(deals.Items[0].Stages) != 7 {
		t.Fatalf("deal pipelines = %+v", deals.Items)
	}
	won := deals.Items[0].Stages[5]
	if won.ID != "closedwon" || !won.Closed || won.Probability == nil || *won.Probability != 1 {
		t.Fatalf("closed won stage = %+v", won)
	}
	if first := deals.Items[0].Stages[0]; first.Closed || first.Probability == nil || *first.Probability != 0.2 {
		t.Fatalf("first stage = %+v", first)
	}
	tickets := mustRun[PipelineList](e, "crm_pipelines", `{"rationale": "support stages", "action": "list", "object_type": "tickets"}`)
	if len(tickets.Items) != 1 || !tickets.Items[0].Stages[3].Closed || tickets.Items[0].Stages[0].Probability != nil {
		t.Fatalf("ticket pipelines = %+v", tickets.Items)
	}
	_, err := e.run("crm_pipelines", `{"rationale": "r", "object_type": "contacts"}`)
	providertest.WantCode(t, err, gtmgate.EValidation)
}

func TestProperties(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	all := mustRun[PropertyPage](e, "crm_properties", `{"rationale": "what can I set", "object_type": "deals", "limit": 5}`)
	if len(all.Items) != 5 || all.NextCursor != "5" || all.Total < 10 {
		t.Fatalf("first page = %d items, cursor %q, total %d", len(all.Items), all.NextCursor, all.Total)
	}
	next := mustRun[PropertyPage](e, "crm_properties", `{"rationale": "more", "object_type": "deals", "limit": 5, "cursor": "5"}`)
	if len(next.Items) != 5 || next.Items[0].Name == all.Items[0].Name {
		t.Fatalf("second page = %+v", next.Items)
	}
	enums := mustRun[PropertyPage](e, "crm_properties", `{"rationale": "stages", "object_type": "deals", "filter": {"property": "name", "operator": "EQ", "value": "dealstage"}}`)
	if len(enums.Items) != 1 || len(enums.Items[0].Options) != 12 || enums.Items[0].Options[0].Value != "appointmentscheduled" {
		t.Fatalf("dealstage = %+v", enums.Items)
	}
	ro := mustRun[PropertyPage](e, "crm_properties", `{"rationale": "read only", "object_type": "contacts", "filter": {"property": "read_only", "operator": "EQ", "value": true}}`)
	if ro.Total != 3 {
		t.Fatalf("read-only contact properties = %d, want 3", ro.Total)
	}
	tests := []struct{ name, input, mention string }{
		{"missing object_type", `{"rationale": "r"}`, "object_type"},
		{"unknown filter field", `{"rationale": "r", "object_type": "deals", "filter": {"property": "options", "operator": "HAS_PROPERTY"}}`, "filter.property"},
		{"bad cursor", `{"rationale": "r", "object_type": "deals", "cursor": "abc"}`, "cursor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.run("crm_properties", tt.input)
			if ge := providertest.WantCode(t, err, gtmgate.EValidation); !strings.Contains(ge.Message, tt.mention) {
				t.Fatalf("message %q lacks %q", ge.Message, tt.mention)
			}
		})
	}
}
