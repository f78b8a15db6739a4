package agent

import (
	"context"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/store/storetest"
	"github.com/gtmgate/gtmgate/toolrun"
)

// TestToolDefsFollowTheToolset: a run acting for an agent limited to a
// toolset offers the model only the tools and actions the toolset allows;
// a run of an unlimited credential offers them all.
func TestToolDefsFollowTheToolset(t *testing.T) {
	ctx := t.Context()
	st := storetest.TenantWithToken(t)
	tenant, err := st.GetTenant(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	tenant.Toolsets = map[string]*gtmgate.Toolset{"reader": {Allow: []string{"crm_*"}, ReadOnly: true}}
	if _, err := st.PutTenant(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	reg := registry.MustNew(
		gtmgate.Tool{Name: "crm_contacts", Domain: "crm", Title: "Contacts", Description: "contacts", Run: run, Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead}, {Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true}}},
		gtmgate.Tool{Name: "email_send", Domain: "email", Title: "Send", Description: "send", Run: run, Actions: []gtmgate.Action{
			{Name: "send", Category: gtmgate.CategoryEmailSend, Mutating: true}}},
	)
	a := New(Options{Store: st})
	a.UseRunner(toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: &storetest.AuditRecorder{}}))
	offered := func(c *gtmgate.Credential) []string {
		var out []string
		for _, tool := range a.toolDefs(ctx, &gtmgate.AgentRun{TenantID: "acme", Tools: []string{"crm_contacts", "email_send"}, Credential: c}) {
			props := tool.Function.Parameters.(*jsonschema.Schema).Properties["action"]
			for _, action := range props.Enum {
				out = append(out, tool.Function.Name+"."+action.(string))
			}
		}
		return out
	}
	if got := offered(&gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_1"}); !slices.Equal(got, []string{"crm_contacts.list", "crm_contacts.create", "email_send.send"}) {
		t.Errorf("unlimited run offers %v", got)
	}
	if got := offered(&gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_2", Toolset: "reader"}); !slices.Equal(got, []string{"crm_contacts.list"}) {
		t.Errorf("the reader agent's run offers %v, want crm_contacts.list only", got)
	}
	if got := offered(&gtmgate.Credential{Kind: gtmgate.CredentialToken, ID: "tok_3", Toolset: "gone"}); len(got) != 0 {
		t.Errorf("a run whose toolset is gone offers %v, want nothing", got)
	}
}
