package searchconsole

import (
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/provider/providertest"
)

// TestEveryActionIsChecked walks the Search Console action against the
// sandbox that enforces the API's discovery document.
func TestEveryActionIsChecked(t *testing.T) {
	f := newFixture(t)
	kit := providertest.NewKit([]gtmgate.Tool{f.tool}, f.accounts[0], SandboxToken)
	providertest.Walk(t, kit, f.sandbox.Spec, []providertest.ActionWalk{
		{Tool: "search_console_query", Action: "query", Steps: []providertest.Step{
			{Input: `{"rationale":"r","dimensions":["query","device"],"limit":5,"filter":{"property":"country","operator":"NEQ","value":"usa"}}`},
			{Input: `{"rationale":"r"}`, Before: func() { f.sandbox.FailNext(400, 1) }, WantCode: gtmgate.EUpstream}}},
	})
}
