package registry

import (
	"context"
	"testing"

	"github.com/gtmgate/gtmgate"
)

// TestHints checks the MCP annotations derived from the actions' flags and
// the tool facts, with the meanings of the 2025-11-25 specification.
func TestHints(t *testing.T) {
	t.Parallel()
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	read := gtmgate.Action{Name: "get", Category: gtmgate.CategoryCRMRead}
	create := gtmgate.Action{Name: "create", Category: gtmgate.CategoryCRMWrite, Mutating: true, Additive: true}
	update := gtmgate.Action{Name: "update", Category: gtmgate.CategoryCRMWrite, Mutating: true}
	remove := gtmgate.Action{Name: "delete", Category: gtmgate.CategoryCRMWrite, Mutating: true, Destructive: true}
	tool := func(name string, actions ...gtmgate.Action) gtmgate.Tool {
		return gtmgate.Tool{Name: name, Domain: "crm", Actions: actions, Run: run}
	}
	withProvider := func(t gtmgate.Tool) gtmgate.Tool { t.Provider = "hubspot"; return t }
	openWorld := func(t gtmgate.Tool) gtmgate.Tool { t.OpenWorld = true; return t }
	delegates := func(t gtmgate.Tool) gtmgate.Tool { t.Delegates = true; return t }
	tests := []struct {
		name  string
		tools []gtmgate.Tool // the first is checked; the others share its registry
		want  Hints
	}{
		{"reads only, over a provider", []gtmgate.Tool{withProvider(tool("t", read))},
			Hints{ReadOnly: true, Idempotent: true, OpenWorld: true}},
		{"reads only, the gateway's own records", []gtmgate.Tool{tool("t", read)},
			Hints{ReadOnly: true, Idempotent: true}},
		{"reads only, the public web", []gtmgate.Tool{openWorld(tool("t", read))},
			Hints{ReadOnly: true, Idempotent: true, OpenWorld: true}},
		{"creates only: additive", []gtmgate.Tool{withProvider(tool("t", read, create))},
			Hints{OpenWorld: true}},
		{"updates: may overwrite", []gtmgate.Tool{withProvider(tool("t", read, update))},
			Hints{Destructive: true, OpenWorld: true}},
		{"creates and updates", []gtmgate.Tool{withProvider(tool("t", create, update))},
			Hints{Destructive: true, OpenWorld: true}},
		{"deletes", []gtmgate.Tool{withProvider(tool("t", read, remove))},
			Hints{Destructive: true, OpenWorld: true}},
		{"mutating, not declared additive", []gtmgate.Tool{tool("t", gtmgate.Action{Name: "x", Category: gtmgate.CategoryCRMWrite, Mutating: true})},
			Hints{Destructive: true}},
		{"delegates with only reads of its own, to a destructive tool", []gtmgate.Tool{delegates(tool("t", read)), withProvider(tool("u", read, remove))},
			Hints{Destructive: true, OpenWorld: true}},
		{"delegates to additive and read-only tools", []gtmgate.Tool{delegates(tool("t", read)), withProvider(tool("u", create)), tool("v", read)},
			Hints{OpenWorld: true}},
		{"delegating tools do not make each other destructive", []gtmgate.Tool{delegates(tool("t", read)), delegates(tool("u", remove))},
			Hints{OpenWorld: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, _ := MustNew(tc.tools...).Tool(tc.tools[0].Name)
			if got := e.Hints(); got != tc.want {
				t.Fatalf("Hints() = %+v, want %+v", got, tc.want)
			}
			ro, destructive, idem := e.Annotations()
			if ro != tc.want.ReadOnly || destructive != tc.want.Destructive || idem != tc.want.Idempotent {
				t.Fatalf("Annotations() = %v %v %v, disagree with Hints %+v", ro, destructive, idem, tc.want)
			}
		})
	}
}
