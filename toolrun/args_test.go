package toolrun_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/gtmgate/gtmgate/toolrun"
)

// TestAdapterGetsTheValidatedParse: the adapter is handed the map that
// validation parsed (the one the scope and gate decisions read), so one
// that wants a map need not parse the input again.
func TestAdapterGetsTheValidatedParse(t *testing.T) {
	st := openAcme(t)
	var got map[string]any
	reg, err := registry.New(gtmgate.Tool{
		Name: "crm_notes", Domain: "crm", Title: "Read", Description: "read notes",
		Actions: []gtmgate.Action{{Name: "list", Category: gtmgate.CategoryCRMRead}},
		Run: func(_ context.Context, c *gtmgate.Call) (any, error) {
			got = c.Args
			return map[string]any{"ok": true}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := toolrun.New(toolrun.Options{Registry: reg, Store: st, Recorder: &recorder{ledger: st}})
	_, err = r.Call(t.Context(), &toolrun.Request{Principal: &gtmgate.Principal{TenantID: "acme", KeyID: "tok_1"}, TenantID: "acme",
		Tool: "crm_notes", Input: json.RawMessage(`{"action":"list","rationale":"why"}`), Source: "rest", RequestID: "req1"})
	if err != nil {
		t.Fatal(err)
	}
	if got["action"] != "list" || got["rationale"] != "why" {
		t.Fatalf("adapter got Args %v, want the validated input", got)
	}
}
