package registry

import (
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func TestCheckPortable(t *testing.T) {
	t.Parallel()
	obj := func(props map[string]*jsonschema.Schema) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "object", Properties: props, AdditionalProperties: Closed()}
	}
	tests := []struct {
		name   string
		schema *jsonschema.Schema
		want   string // empty: portable
	}{
		{"closed object", obj(map[string]*jsonschema.Schema{"a": {Type: "string", Enum: []any{"x"}}}), ""},
		{"map of scalars", &jsonschema.Schema{Type: "object", AdditionalProperties: Scalar("", true)}, ""},
		{"free-form object", &jsonschema.Schema{Type: "object"}, ""},
		{"array of anyOf", &jsonschema.Schema{Type: "array", Items: Scalar("", false)}, ""},
		{"typeless value", obj(map[string]*jsonschema.Schema{"filter": obj(map[string]*jsonschema.Schema{"value": {Description: "v"}})}), "filter.value: needs exactly one type"},
		{"type array", obj(map[string]*jsonschema.Schema{"v": {Types: []string{"string", "null"}}}), "v: type array"},
		{"open object with properties", &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"a": {Type: "string"}}}, "additionalProperties false"},
		{"array without items", &jsonschema.Schema{Type: "array"}, "[]: missing schema"},
		{"oneOf", &jsonschema.Schema{OneOf: []*jsonschema.Schema{{Type: "string"}}}, "keyword oneOf"},
		{"propertyNames", &jsonschema.Schema{Type: "object", PropertyNames: &jsonschema.Schema{Pattern: "^a"}}, "keyword propertyNames"},
		{"exclusiveMinimum", &jsonschema.Schema{Type: "number", ExclusiveMinimum: jsonschema.Ptr(0.0)}, "keyword exclusiveMinimum"},
		{"anyOf beside type", &jsonschema.Schema{Type: "string", AnyOf: []*jsonschema.Schema{{Type: "string"}}}, "anyOf beside type"},
		{"typeless anyOf branch", &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string"}, {}}}, "(anyOf 1)"},
		{"required undeclared", &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"a": {Type: "string"}}, AdditionalProperties: Closed(), Required: []string{"b"}}, "requires b"},
		{"nested $schema", obj(map[string]*jsonschema.Schema{"a": {Type: "string", Schema: "x"}}), "$schema only at the root"},
		{"string with properties", &jsonschema.Schema{Type: "string", Items: &jsonschema.Schema{Type: "string"}}, "object or array keywords"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := CheckPortable(tt.schema)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("CheckPortable = %v, want portable", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("CheckPortable = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestListSchemaIsPortable holds the common fields the registry adds (filter
// among them) to the subset, so a change to them cannot slip past.
func TestListSchemaIsPortable(t *testing.T) {
	t.Parallel()
	reg := MustNew(sampleTool())
	e, _ := reg.Tool("crm_things")
	if err := CheckPortable(e.Schema); err != nil {
		t.Fatal(err)
	}
	if v := e.Schema.Properties["filter"].Properties["value"]; len(v.AnyOf) == 0 {
		t.Fatalf("filter.value = %+v, want typed anyOf", v)
	}
}
