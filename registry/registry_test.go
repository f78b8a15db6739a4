package registry

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
)

func sampleTool() gtmgate.Tool {
	shared := &jsonschema.Schema{Type: "string"}
	return gtmgate.Tool{
		Name: "crm_things", Domain: "crm", Provider: "hubspot", Description: "things",
		Actions: []gtmgate.Action{
			{Name: "list", Category: gtmgate.CategoryCRMRead, List: true},
			{Name: "get", Category: gtmgate.CategoryCRMRead, Required: []string{"id"}},
			{Name: "delete", Category: gtmgate.CategoryCRMWrite, Mutating: true, Destructive: true, Required: []string{"id"}},
		},
		// One schema value used twice: the registry must still build a tree.
		Properties: map[string]*jsonschema.Schema{"id": shared, "name": shared},
		Run:        func(context.Context, *gtmgate.Call) (any, error) { return nil, nil },
	}
}

func TestNewRejects(t *testing.T) {
	t.Parallel()
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	ok := gtmgate.Action{Name: "run", Category: gtmgate.CategoryDataQuery}
	tests := []struct {
		name  string
		tools []gtmgate.Tool
		want  string
	}{
		{"bad name", []gtmgate.Tool{{Name: "has space", Domain: "data", Actions: []gtmgate.Action{ok}, Run: run}}, "not within"},
		{"duplicate", []gtmgate.Tool{{Name: "t", Domain: "data", Actions: []gtmgate.Action{ok}, Run: run}, {Name: "t", Domain: "data", Actions: []gtmgate.Action{ok}, Run: run}}, "twice"},
		{"unknown domain", []gtmgate.Tool{{Name: "t", Domain: "weather", Actions: []gtmgate.Action{ok}, Run: run}}, "unknown domain"},
		{"no actions", []gtmgate.Tool{{Name: "t", Domain: "data", Run: run}}, "at least one action"},
		{"bad category", []gtmgate.Tool{{Name: "t", Domain: "data", Actions: []gtmgate.Action{{Name: "x", Category: "vibes"}}, Run: run}}, "known category"},
		{"undeclared required", []gtmgate.Tool{{Name: "t", Domain: "data", Actions: []gtmgate.Action{{Name: "x", Category: gtmgate.CategoryDataQuery, Required: []string{"q"}}}, Run: run}}, "undeclared"},
		{"destructive but not mutating", []gtmgate.Tool{{Name: "t", Domain: "data", Actions: []gtmgate.Action{{Name: "x", Category: gtmgate.CategoryDataQuery, Destructive: true}}, Run: run}}, "not mutating"},
		{"additive but not mutating", []gtmgate.Tool{{Name: "t", Domain: "data", Actions: []gtmgate.Action{{Name: "x", Category: gtmgate.CategoryDataQuery, Additive: true}}, Run: run}}, "not mutating"},
		{"additive and destructive", []gtmgate.Tool{{Name: "t", Domain: "data", Actions: []gtmgate.Action{{Name: "x", Category: gtmgate.CategoryDataQuery, Mutating: true, Additive: true, Destructive: true}}, Run: run}}, "both"},
		{"before of a read", []gtmgate.Tool{{Name: "t", Domain: "data", Actions: []gtmgate.Action{{Name: "x", Category: gtmgate.CategoryDataQuery,
			Before: func(context.Context, *gtmgate.Call) (map[string]any, error) { return nil, nil }}}, Run: run}}, "does not change any"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := New(tt.tools...); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	reg := MustNew(sampleTool())
	e, _ := reg.Tool("crm_things")
	tests := []struct {
		name, input, code, contains, action string
	}{
		{name: "list", input: `{"rationale":"r","action":"list","limit":5,"filter":{"property":"a","operator":"EQ","value":1}}`, action: "list"},
		{name: "not an object", input: `[1]`, code: gtmgate.EValidation, contains: "JSON object"},
		{name: "no rationale", input: `{"action":"list"}`, code: gtmgate.EValidation, contains: "rationale is required"},
		{name: "blank rationale", input: `{"action":"list","rationale":"  "}`, code: gtmgate.EValidation, contains: "rationale"},
		{name: "no action", input: `{"rationale":"r"}`, code: gtmgate.EValidation, contains: "action"},
		{name: "unknown action", input: `{"rationale":"r","action":"explode"}`, code: gtmgate.EValidation, contains: "action"},
		{name: "unknown field", input: `{"rationale":"r","action":"list","bogus":1}`, code: gtmgate.EValidation, contains: "bogus"},
		{name: "limit too big", input: `{"rationale":"r","action":"list","limit":1000}`, code: gtmgate.EValidation, contains: "limit"},
		{name: "filter without operator", input: `{"rationale":"r","action":"list","filter":{"property":"a"}}`, code: gtmgate.EValidation, contains: "filter"},
		{name: "bad operator", input: `{"rationale":"r","action":"list","filter":{"property":"a","operator":"LIKE"}}`, code: gtmgate.EValidation, contains: "filter.operator"},
		{name: "per-action required", input: `{"rationale":"r","action":"get"}`, code: gtmgate.EValidation, contains: "id is required for action get"},
		{name: "duplicate action", input: `{"rationale":"r","action":"list","action":"get"}`, code: gtmgate.EValidation, contains: "duplicate field action"},
		{name: "duplicate nested name", input: `{"rationale":"r","action":"list","filter":{"property":"a","operator":"EQ","property":"b"}}`, code: gtmgate.EValidation, contains: "duplicate field filter.property"},
		{name: "case-variant action", input: `{"rationale":"r","action":"list","Action":"get"}`, code: gtmgate.EValidation, contains: "differ only in case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, action, err := e.Validate(json.RawMessage(tt.input))
			if got := gtmgate.ErrorCode(err); got != tt.code {
				t.Fatalf("code %q, want %q (%v)", got, tt.code, err)
			}
			if err != nil {
				full := gtmgate.AsError(err).Message + " " + gtmgate.AsError(err).Hint
				if !strings.Contains(full, tt.contains) {
					t.Fatalf("%q does not contain %q", full, tt.contains)
				}
				return
			}
			if action.Name != tt.action {
				t.Fatalf("action %q", action.Name)
			}
		})
	}
}

func TestSchemaAndAnnotations(t *testing.T) {
	t.Parallel()
	e, _ := MustNew(sampleTool()).Tool("crm_things")
	b, _ := json.Marshal(e.Schema)
	for _, want := range []string{`"required":["rationale","action"]`, `"account_id"`, `"filter"`, `"additionalProperties":false`,
		`"description":"Required per action: get: id; delete: id."`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("schema lacks %s: %s", want, b)
		}
	}
	// The dialect is 2020-12 without saying so (MCP's default since
	// 2025-11-25), and the tool's title and description are beside the
	// schema, not in it.
	if e.Schema.Schema != "" || e.Schema.Title != "" || e.Schema.Description != "" {
		t.Errorf("schema root carries $schema %q, title %q, description %q", e.Schema.Schema, e.Schema.Title, e.Schema.Description)
	}
	ro, destructive, idem := e.Annotations()
	if ro || !destructive || idem {
		t.Fatalf("annotations %v %v %v", ro, destructive, idem)
	}
	limit, cursor, filter := ListParams(map[string]any{"limit": float64(7), "cursor": "c", "filter": map[string]any{"property": "p", "operator": "GT", "value": 3.0}})
	if limit != 7 || cursor != "c" || filter.Operator != "GT" {
		t.Fatalf("ListParams = %d %q %+v", limit, cursor, filter)
	}
}

func FuzzValidate(f *testing.F) {
	e, _ := MustNew(sampleTool()).Tool("crm_things")
	for _, s := range []string{`{"rationale":"r","action":"list"}`, `{}`, `null`, `{"rationale":1}`, `{"filter":{"value":[1,{}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _, err := e.Validate(json.RawMessage(s))
		if err != nil && gtmgate.ErrorCode(err) != gtmgate.EValidation {
			t.Fatalf("non-validation error %v", err)
		}
	})
}
