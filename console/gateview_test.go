package console

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDescribeGate(t *testing.T) {
	t.Parallel()
	unknownBudget := " (the current budget is not known to the gateway)"
	heldRead := gateField{Label: "Current value", Value: "read from the provider when the call was held; it may have changed since"}
	for _, tc := range []struct {
		name string
		call heldCall
		want gateDescription
	}{
		{"email", heldCall{Tool: "email_send", Action: "send", Category: "email_send", Account: "me", AccountLabel: "ada@demo.example",
			Input: map[string]any{"action": "send", "to": []any{"bo@example.com", "cy@example.com"}, "cc": []any{"ops@demo.example"},
				"subject": "Launch", "text": "Hi Bo,\n\n<script>alert(1)</script>\nAda", "rationale": "follow-up"}},
			gateDescription{Kind: "email", Title: "Send an email", Fields: []gateField{
				{Label: "From", Value: "ada@demo.example, account me"}, {Label: "To", Value: "bo@example.com, cy@example.com"},
				{Label: "Cc", Value: "ops@demo.example"}, {Label: "Subject", Value: "Launch"},
				{Label: "Body", Value: "Hi Bo,\n\n<script>alert(1)</script>\nAda", Block: true},
				{Label: "Agent's rationale", Value: "follow-up"}}}},
		{"email draft on the default account", heldCall{Tool: "email_send", Action: "draft", Category: "content_generate",
			Input: map[string]any{"action": "draft", "subject": "Ad spend", "html": "<p>Three</p>"}},
			gateDescription{Kind: "email", Title: "Save an email as a draft (nothing is sent)", Fields: []gateField{
				{Label: "From", Value: "the tenant's default account"}, {Label: "Subject", Value: "Ad spend"},
				{Label: "HTML body (source)", Value: "<p>Three</p>", Block: true}}}},
		{"google ads budget, pending", heldCall{Tool: "google_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "1234567890",
			Input: map[string]any{"action": "update_budget", "campaign_id": "21000100002", "amount": 150.0, "rationale": "launch week"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's daily budget", Fields: []gateField{
				{Label: "Campaign", Value: "21000100002"}, {Label: "Account", Value: "1234567890"},
				{Label: "New daily budget", Value: "150.00 in the account's currency" + unknownBudget},
				{Label: "Agent's rationale", Value: "launch week"}}}},
		{"google ads budget, executed", heldCall{Tool: "google_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "1234567890",
			Input:  map[string]any{"action": "update_budget", "campaign_id": "21000100002", "amount": 150.0},
			Result: map[string]any{"daily_budget": 150.0, "previous_daily_budget": 120.5, "currency": "EUR"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's daily budget", Fields: []gateField{
				{Label: "Campaign", Value: "21000100002"}, {Label: "Account", Value: "1234567890"},
				{Label: "Daily budget", Value: "120.50 → 150.00 EUR"}}}},
		{"meta ads lifetime budget", heldCall{Tool: "meta_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "act_1",
			Input: map[string]any{"action": "update_budget", "campaign_id": "120000001", "amount": 2000.0, "budget_type": "lifetime"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's lifetime budget", Fields: []gateField{
				{Label: "Campaign", Value: "120000001"}, {Label: "Account", Value: "act_1"},
				{Label: "New lifetime budget", Value: "2000.00 in the account's currency" + unknownBudget}}}},
		{"meta ads default budget", heldCall{Tool: "meta_ads_campaigns", Action: "update_budget", Category: "ads_mutate",
			Input: map[string]any{"action": "update_budget", "campaign_id": "120000001", "amount": 75.5}},
			gateDescription{Kind: "budget", Title: "Change a campaign's daily budget", Fields: []gateField{
				{Label: "Campaign", Value: "120000001"}, {Label: "Account", Value: "the tenant's default account"},
				{Label: "New daily budget", Value: "75.50 in the account's currency" + unknownBudget}}}},
		{"campaign paused", heldCall{Tool: "linkedin_ads_campaigns", Action: "update_status", Category: "ads_mutate", Account: "507000001",
			Input: map[string]any{"action": "update_status", "campaign_id": "600000001", "status": "PAUSED"}},
			gateDescription{Kind: "status", Title: "Change a campaign's status", Fields: []gateField{
				{Label: "Campaign", Value: "600000001"}, {Label: "Account", Value: "507000001"},
				{Label: "Status", Value: "to PAUSED (the current status is not known to the gateway)"}}}},
		{"deal stage", heldCall{Tool: "crm_deals", Action: "update", Category: "crm_write",
			Input: map[string]any{"action": "update", "id": "9001", "properties": map[string]any{"dealstage": "closedwon", "amount": "5000"}}},
			gateDescription{Kind: "status", Title: "Move a deal to another stage", Fields: []gateField{
				{Label: "Deal", Value: "9001"}, {Label: "Account", Value: "the tenant's default account"},
				{Label: "Stage", Value: "to closedwon (the current stage is not known to the gateway)"},
				{Label: "Also sets amount", Value: "5000"}}}},
		{"google ads budget, pending, read when held", heldCall{Tool: "google_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "1234567890",
			Input:  map[string]any{"action": "update_budget", "campaign_id": "21000100002", "amount": 75.0},
			Before: map[string]any{"daily_budget": 50.0, "currency": "EUR"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's daily budget", Fields: []gateField{
				{Label: "Campaign", Value: "21000100002"}, {Label: "Account", Value: "1234567890"},
				{Label: "Daily budget", Value: "50.00 → 75.00 EUR"}, heldRead}}},
		{"executed budget: the result wins over the read", heldCall{Tool: "google_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "1234567890",
			Input:  map[string]any{"action": "update_budget", "campaign_id": "21000100002", "amount": 75.0},
			Before: map[string]any{"daily_budget": 50.0, "currency": "EUR"},
			Result: map[string]any{"daily_budget": 75.0, "previous_daily_budget": 60.0, "currency": "EUR"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's daily budget", Fields: []gateField{
				{Label: "Campaign", Value: "21000100002"}, {Label: "Account", Value: "1234567890"},
				{Label: "Daily budget", Value: "60.00 → 75.00 EUR"}}}},
		{"meta lifetime budget read when held, kind not named", heldCall{Tool: "meta_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "act_1",
			Input:  map[string]any{"action": "update_budget", "campaign_id": "120000003", "amount": 4200.0},
			Before: map[string]any{"lifetime_budget": 3000.0, "currency": "USD"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's lifetime budget", Fields: []gateField{
				{Label: "Campaign", Value: "120000003"}, {Label: "Account", Value: "act_1"},
				{Label: "Lifetime budget", Value: "3000.00 → 4200.00 USD"}, heldRead}}},
		{"meta lifetime budget executed, kind not named", heldCall{Tool: "meta_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "act_1",
			Input:  map[string]any{"action": "update_budget", "campaign_id": "120000003", "amount": 4200.0},
			Result: map[string]any{"lifetime_budget": 4200.0, "previous_lifetime_budget": 3000.0, "currency": "USD"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's lifetime budget", Fields: []gateField{
				{Label: "Campaign", Value: "120000003"}, {Label: "Account", Value: "act_1"},
				{Label: "Lifetime budget", Value: "3000.00 → 4200.00 USD"}}}},
		{"budget the campaign does not have", heldCall{Tool: "meta_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "act_1",
			Input:  map[string]any{"action": "update_budget", "campaign_id": "120000003", "amount": 40.0, "budget_type": "daily"},
			Before: map[string]any{"daily_budget": nil, "currency": "JPY"}},
			gateDescription{Kind: "budget", Title: "Change a campaign's daily budget", Fields: []gateField{
				{Label: "Campaign", Value: "120000003"}, {Label: "Account", Value: "act_1"},
				{Label: "New daily budget", Value: "40.00 JPY (the campaign had no daily budget when the call was held)"}}}},
		{"budget read failed", heldCall{Tool: "google_ads_campaigns", Action: "update_budget", Category: "ads_mutate", Account: "1234567890",
			Input:       map[string]any{"action": "update_budget", "campaign_id": "21000100002", "amount": 75.0},
			BeforeError: "google_ads rejected the request (HTTP 403): The caller does not have permission"},
			gateDescription{Kind: "budget", Title: "Change a campaign's daily budget", Fields: []gateField{
				{Label: "Campaign", Value: "21000100002"}, {Label: "Account", Value: "1234567890"},
				{Label: "New daily budget", Value: "75.00 in the account's currency (the current budget could not be read: " +
					"google_ads rejected the request (HTTP 403): The caller does not have permission)"}}}},
		{"status read when held", heldCall{Tool: "meta_ads_campaigns", Action: "update_status", Category: "ads_mutate", Account: "act_1",
			Input: map[string]any{"action": "update_status", "campaign_id": "120000001", "status": "PAUSED"}, Before: map[string]any{"status": "ACTIVE"}},
			gateDescription{Kind: "status", Title: "Change a campaign's status", Fields: []gateField{
				{Label: "Campaign", Value: "120000001"}, {Label: "Account", Value: "act_1"},
				{Label: "Status", Value: "ACTIVE → PAUSED"}, heldRead}}},
		{"status executed, from its result", heldCall{Tool: "meta_ads_campaigns", Action: "update_status", Category: "ads_mutate", Account: "act_1",
			Input:  map[string]any{"action": "update_status", "campaign_id": "120000001", "status": "PAUSED"},
			Result: map[string]any{"status": "PAUSED", "previous_status": "ACTIVE"}},
			gateDescription{Kind: "status", Title: "Change a campaign's status", Fields: []gateField{
				{Label: "Campaign", Value: "120000001"}, {Label: "Account", Value: "act_1"},
				{Label: "Status", Value: "ACTIVE → PAUSED"}}}},
		{"status read failed", heldCall{Tool: "linkedin_ads_campaigns", Action: "update_status", Category: "ads_mutate", Account: "507000001",
			Input: map[string]any{"action": "update_status", "campaign_id": "600000001", "status": "PAUSED"}, BeforeError: "the provider did not answer within 5s"},
			gateDescription{Kind: "status", Title: "Change a campaign's status", Fields: []gateField{
				{Label: "Campaign", Value: "600000001"}, {Label: "Account", Value: "507000001"},
				{Label: "Status", Value: "to PAUSED (the current status could not be read: the provider did not answer within 5s)"}}}},
		{"deal stage read when held", heldCall{Tool: "crm_deals", Action: "update", Category: "crm_write",
			Input:  map[string]any{"action": "update", "id": "9001", "properties": map[string]any{"dealstage": "closedwon", "amount": "5000"}},
			Before: map[string]any{"stage": "qualifiedtobuy"}},
			gateDescription{Kind: "status", Title: "Move a deal to another stage", Fields: []gateField{
				{Label: "Deal", Value: "9001"}, {Label: "Account", Value: "the tenant's default account"},
				{Label: "Stage", Value: "qualifiedtobuy → closedwon"}, heldRead,
				{Label: "Also sets amount", Value: "5000"}}}},
		{"deal stage read failed", heldCall{Tool: "crm_deals", Action: "update", Category: "crm_write",
			Input:       map[string]any{"action": "update", "id": "9001", "properties": map[string]any{"dealstage": "closedwon"}},
			BeforeError: "no hubspot token is stored for account \"portal\" of tenant \"acme\""},
			gateDescription{Kind: "status", Title: "Move a deal to another stage", Fields: []gateField{
				{Label: "Deal", Value: "9001"}, {Label: "Account", Value: "the tenant's default account"},
				{Label: "Stage", Value: "to closedwon (the current stage could not be read: no hubspot token is stored for account \"portal\" of tenant \"acme\")"}}}},
		{"deletion", heldCall{Tool: "calendar_events", Action: "delete", Category: "calendar_op", Account: "ada@demo.example", Destructive: true,
			Input: map[string]any{"action": "delete", "event_id": "ev42", "send_updates": "all"}},
			gateDescription{Kind: "deletion", Title: "Delete an event", Fields: []gateField{
				{Label: "Tool", Value: "calendar_events delete"}, {Label: "Event", Value: "ev42"},
				{Label: "Account", Value: "ada@demo.example"}}}},
		{"destructive, not a delete", heldCall{Tool: "mcp__files__overwrite", Action: "", Destructive: true,
			Input: map[string]any{"path": "/a"}},
			gateDescription{Kind: "deletion", Title: "mcp__files__overwrite: a destructive action", Fields: []gateField{
				{Label: "Tool", Value: "mcp__files__overwrite"}, {Label: "Account", Value: "the tenant's default account"}}}},
		{"unknown tool", heldCall{Tool: "sheets_values", Action: "append", Category: "data_query",
			Input: map[string]any{"action": "append", "range": "A1", "values": []any{[]any{"x", 1.0}}}},
			gateDescription{Kind: "call", Title: "sheets_values append", Fields: []gateField{
				{Label: "range", Value: "A1"}, {Label: "values", Value: `[["x",1]]`}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, describeGate(tc.call)); diff != "" {
				t.Errorf("describeGate (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDescribeApprovalReadsBefore: the admin API's before and
// before_error reach the description.
func TestDescribeApprovalReadsBefore(t *testing.T) {
	t.Parallel()
	var g obj
	if err := json.Unmarshal([]byte(`{"tool":"google_ads_campaigns","action":"update_budget","category":"ads_mutate","account_id":"1234567890",
		"input":{"action":"update_budget","campaign_id":"21000100002","amount":75},"before":{"daily_budget":50,"currency":"EUR"}}`), &g); err != nil {
		t.Fatal(err)
	}
	if d := describeApproval(g); len(d.Fields) < 3 || d.Fields[2].Value != "50.00 → 75.00 EUR" {
		t.Errorf("described %+v", d)
	}
	delete(g, "before")
	g["before_error"] = "the provider did not answer within 5s"
	if d := describeApproval(g); len(d.Fields) < 3 || !strings.Contains(d.Fields[2].Value, "could not be read: the provider did not answer within 5s") {
		t.Errorf("described %+v", d)
	}
}
