package approvalnotice_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/approvalnotice"
)

var (
	ada    = &gtmgate.Person{ID: "p_ada", IdP: "corp", Subject: "ada", Email: "ada@demo.example", Name: "Ada Approver"}
	victor = &gtmgate.Person{ID: "p_victor", IdP: "corp", Subject: "victor", Email: "victor@demo.example", Name: "Victor Viewer"}
	olga   = &gtmgate.Person{ID: "p_olga", IdP: "corp", Subject: "olga", Email: "olga@demo.example", Name: "Olga Owner"}
)

// TestRoutes: a gate's notices go to the webhooks of the first route that
// matches it (by category or by tool, a route with neither matching every
// gate), each in its format, naming the route's approvers, else the
// tenant's deciders; a gate no route sends elsewhere goes to the alert
// webhook, or nowhere without one.
func TestRoutes(t *testing.T) {
	slack := gtmgate.ApprovalWebhook{ID: "whk_slack", Format: gtmgate.WebhookSlack}
	std := gtmgate.ApprovalWebhook{ID: "whk_std"} // format left out: standard
	ops := gtmgate.ApprovalWebhook{ID: "whk_ops", Format: gtmgate.WebhookStandard}
	grants := []*gtmgate.RoleGrant{{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "olga", Role: gtmgate.RoleOwner, TenantID: "demo"}}
	type msg struct{ Endpoint, Format string }
	for _, tc := range []struct {
		name   string
		routes []gtmgate.ApprovalRoute
		alert  bool
		want   []msg
		// approvers are the ids the messages name.
		approvers []string
	}{
		{"no routes: the alert webhook, naming the deciders", nil, true, []msg{{"", "standard"}}, []string{"p_olga"}},
		{"no routes, no alert webhook: nothing", nil, false, nil, nil},
		{"by category", []gtmgate.ApprovalRoute{{Categories: []string{"ads_mutate"}, Approvers: []string{"p_ada"}, Webhooks: []gtmgate.ApprovalWebhook{slack, std}}},
			true, []msg{{"whk_slack", "slack"}, {"whk_std", "standard"}}, []string{"p_ada"}},
		{"by tool", []gtmgate.ApprovalRoute{{Tools: []string{"google_ads_campaigns"}, Webhooks: []gtmgate.ApprovalWebhook{std}}},
			false, []msg{{"whk_std", "standard"}}, []string{"p_olga"}},
		{"category or tool: either matches", []gtmgate.ApprovalRoute{{Categories: []string{"email_send"}, Tools: []string{"google_ads_campaigns"},
			Webhooks: []gtmgate.ApprovalWebhook{std}}}, false, []msg{{"whk_std", "standard"}}, []string{"p_olga"}},
		{"no match: the alert webhook", []gtmgate.ApprovalRoute{{Categories: []string{"email_send"}, Tools: []string{"crm_deals"},
			Webhooks: []gtmgate.ApprovalWebhook{std}}}, true, []msg{{"", "standard"}}, []string{"p_olga"}},
		{"the first match wins", []gtmgate.ApprovalRoute{
			{Categories: []string{"email_send"}, Webhooks: []gtmgate.ApprovalWebhook{ops}},
			{Categories: []string{"ads_mutate"}, Approvers: []string{"p_victor", "p_ada"}, Webhooks: []gtmgate.ApprovalWebhook{slack}},
			{Webhooks: []gtmgate.ApprovalWebhook{std}}}, true, []msg{{"whk_slack", "slack"}}, []string{"p_victor", "p_ada"}},
		{"a catch-all route", []gtmgate.ApprovalRoute{{Webhooks: []gtmgate.ApprovalWebhook{ops}}}, true, []msg{{"whk_ops", "standard"}}, []string{"p_olga"}},
		{"a route of approvers only: the alert webhook names them", []gtmgate.ApprovalRoute{{Categories: []string{"ads_mutate"}, Approvers: []string{"p_ada"}}},
			true, []msg{{"", "standard"}}, []string{"p_ada"}},
		{"a route naming someone deleted since", []gtmgate.ApprovalRoute{{Approvers: []string{"p_gone"}, Webhooks: []gtmgate.ApprovalWebhook{std}}},
			false, []msg{{"whk_std", "standard"}}, []string{"p_gone"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &store{gates: map[string]*gtmgate.Approval{"apr_1": gate(gtmgate.ApprovalPending)}, people: []*gtmgate.Person{ada, victor, olga},
				grants: grants, tenants: map[string]*gtmgate.Tenant{"demo": {ID: "demo", Approval: &gtmgate.ApprovalPolicy{
					Categories: []string{"ads_mutate"}, Routes: tc.routes}}}}
			q, err := work(t, st, before, tc.alert, approvalnotice.Requested)
			if err != nil {
				t.Fatal(err)
			}
			var got []msg
			for _, m := range q.msgs {
				var body map[string]any
				if err := json.Unmarshal(m.Body, &body); err != nil {
					t.Fatal(err)
				}
				format := "standard"
				if _, ok := body["blocks"]; ok {
					format = "slack"
				} else {
					var env struct{ Data approvalnotice.Summary }
					json.Unmarshal(m.Body, &env)
					var ids []string
					for _, a := range env.Data.Approvers {
						ids = append(ids, a.ID)
					}
					if diff := cmp.Diff(tc.approvers, ids); diff != "" {
						t.Errorf("approvers named (-want +got):\n%s", diff)
					}
				}
				if m.WebhookID != "approval.requested_apr_1" {
					t.Errorf("webhook id %s", m.WebhookID)
				}
				got = append(got, msg{m.Endpoint, format})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeciders: who may decide a gate, as the tenant's grants say.
func TestDeciders(t *testing.T) {
	nina := &gtmgate.Person{ID: "p_nina", IdP: "partner", Subject: "ada", Email: "nina@partner.example"} // ada's subject, another IdP
	people := []*gtmgate.Person{ada, victor, olga, nina}
	for _, tc := range []struct {
		name   string
		grants []*gtmgate.RoleGrant
		want   []approvalnotice.Approver
	}{
		{"nobody", nil, []approvalnotice.Approver{}},
		{"an owner by subject, an unlimited approver by email", []*gtmgate.RoleGrant{
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "olga", Role: gtmgate.RoleOwner, TenantID: "demo"},
			{IdP: "corp", Kind: gtmgate.GrantEmail, Match: "ADA@demo.example", Role: gtmgate.RoleApprover, TenantID: "demo"},
		}, []approvalnotice.Approver{{ID: "p_ada", Name: "Ada Approver", Email: "ada@demo.example"}, {ID: "p_olga", Name: "Olga Owner", Email: "olga@demo.example"}}},
		{"an approver limited to the gate's category or tool", []*gtmgate.RoleGrant{
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "ada", Role: gtmgate.RoleApprover, TenantID: "demo", Categories: []string{"ads_mutate"}},
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "victor", Role: gtmgate.RoleApprover, TenantID: "demo", Tools: []string{"google_ads_campaigns"}},
		}, []approvalnotice.Approver{{ID: "p_ada", Name: "Ada Approver", Email: "ada@demo.example"}, {ID: "p_victor", Name: "Victor Viewer", Email: "victor@demo.example"}}},
		{"an approver limited elsewhere, viewers, members, another tenant's owner, an operator admin", []*gtmgate.RoleGrant{
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "ada", Role: gtmgate.RoleApprover, TenantID: "demo", Categories: []string{"email_send"}, Tools: []string{"crm_deals"}},
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "victor", Role: gtmgate.RoleViewer, TenantID: "demo"},
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "victor", Role: gtmgate.RoleMember, TenantID: "demo"},
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "olga", Role: gtmgate.RoleOwner, TenantID: "acme"},
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "olga", Role: gtmgate.RoleAdmin},
		}, []approvalnotice.Approver{}},
		{"a subject is matched within its IdP only", []*gtmgate.RoleGrant{
			{IdP: "partner", Kind: gtmgate.GrantSubject, Match: "ada", Role: gtmgate.RoleOwner, TenantID: "demo"},
		}, []approvalnotice.Approver{{ID: "p_nina", Email: "nina@partner.example"}}},
		{"an email nobody has signed in with yet; a group", []*gtmgate.RoleGrant{
			{IdP: "corp", Kind: gtmgate.GrantEmail, Match: "Bea@Demo.example", Role: gtmgate.RoleApprover, TenantID: "demo"},
			{IdP: "corp", Kind: gtmgate.GrantGroup, Match: "demo-marketing", Role: gtmgate.RoleApprover, TenantID: "demo"},
		}, []approvalnotice.Approver{{Email: "bea@demo.example"}}},
		{"one person through two grants is named once", []*gtmgate.RoleGrant{
			{IdP: "corp", Kind: gtmgate.GrantSubject, Match: "ada", Role: gtmgate.RoleOwner, TenantID: "demo"},
			{IdP: "corp", Kind: gtmgate.GrantEmail, Match: "ada@demo.example", Role: gtmgate.RoleApprover, TenantID: "demo"},
		}, []approvalnotice.Approver{{ID: "p_ada", Name: "Ada Approver", Email: "ada@demo.example"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := approvalnotice.Deciders(tc.grants, people, "demo", "ads_mutate", "google_ads_campaigns")
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("deciders (-want +got):\n%s", diff)
			}
		})
	}
}
