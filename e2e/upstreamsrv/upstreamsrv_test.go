package upstreamsrv

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate/registry"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolSchemasArePortable lists the tools over in-memory transports and
// checks every input and output schema against gtmgate's portable subset,
// and the annotations the e2e tests rely on.
func TestToolSchemasArePortable(t *testing.T) {
	s := New(Options{})
	s.AddTool("added_later")
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
		check := func(kind string, v any) {
			if v == nil {
				return
			}
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var schema jsonschema.Schema
			if err := json.Unmarshal(raw, &schema); err != nil {
				t.Fatalf("%s %s schema: %v", tool.Name, kind, err)
			}
			if err := registry.CheckPortable(&schema); err != nil {
				t.Errorf("%s %s schema %s: %v", tool.Name, kind, raw, err)
			}
		}
		check("input", tool.InputSchema)
		check("output", tool.OutputSchema)
	}
	for _, name := range []string{"lookup", "create_note", "delete_note", "wait", "fail", "added_later"} {
		if tools[name] == nil || tools[name].Annotations == nil {
			t.Fatalf("tool %s missing or without annotations: %v", name, tools[name])
		}
	}
	if a := tools["lookup"].Annotations; !a.ReadOnlyHint {
		t.Errorf("lookup not read-only: %+v", a)
	}
	if a := tools["create_note"].Annotations; a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint {
		t.Errorf("create_note annotations: %+v", a)
	}
	if a := tools["delete_note"].Annotations; a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("delete_note annotations: %+v", a)
	}
	if tools["lookup"].OutputSchema == nil {
		t.Error("lookup has no output schema")
	}
}
