package federation

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

// deepRefs is a chain of n definitions, each pointing at the next.
func deepRefs(n int) string {
	defs := map[string]any{fmt.Sprintf("d%d", n): map[string]any{"type": "string"}}
	for i := range n {
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
	}
	b, _ := json.Marshal(map[string]any{"$defs": defs, "type": "object", "properties": map[string]any{"x": map[string]any{"$ref": "#/$defs/d0"}}})
	return string(b)
}

// laughs is a schema whose definitions double at each level: small as
// sent, enormous expanded.
func laughs(levels int) string {
	defs := map[string]any{"l0": map[string]any{"type": "string", "description": strings.Repeat("x", 40)}}
	for i := 1; i <= levels; i++ {
		ref := map[string]any{"$ref": fmt.Sprintf("#/$defs/l%d", i-1)}
		defs[fmt.Sprintf("l%d", i)] = map[string]any{"type": "object", "properties": map[string]any{"a": ref, "b": ref}}
	}
	b, _ := json.Marshal(map[string]any{"$defs": defs, "type": "object", "properties": map[string]any{"x": map[string]any{"$ref": fmt.Sprintf("#/$defs/l%d", levels)}}})
	return string(b)
}

// TestPortableSchema rewrites schemas as 2026 upstreams write them
// (Pydantic, zod, draft-07 generators, hand-written ones) and checks that
// the gateway serves them, accepts the inputs the upstream would and
// refuses the ones it would not; or that the tool is refused with a reason
// a person understands.
func TestPortableSchema(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		// refused, when set, is part of the reason the tool is refused.
		refused        string
		valid, invalid []string
	}{
		{
			name: "pydantic nested model and optional field",
			schema: `{"$defs":{"Address":{"properties":{"city":{"title":"City","type":"string"}},"required":["city"],"title":"Address","type":"object"}},
				"properties":{"address":{"$ref":"#/$defs/Address"},"note":{"anyOf":[{"type":"string"},{"type":"null"}],"default":null,"title":"Note"}},
				"required":["address"],"title":"CreateContact","type":"object"}`,
			valid:   []string{`{"address":{"city":"Lyon"}}`, `{"address":{"city":"Lyon"},"note":null}`, `{"address":{"city":"Lyon"},"note":"hi"}`},
			invalid: []string{`{}`, `{"address":{}}`, `{"address":{"city":1}}`, `{"address":{"city":"Lyon","zip":"1"}}`},
		},
		{
			name:    "draft-07 definitions with a description beside the $ref",
			schema:  `{"definitions":{"email":{"type":"string","format":"email","maxLength":254}},"type":"object","properties":{"to":{"$ref":"#/definitions/email","description":"Recipient"}},"required":["to"]}`,
			valid:   []string{`{"to":"a@example.com"}`},
			invalid: []string{`{"to":5}`, `{"to":"` + strings.Repeat("a", 300) + `"}`},
		},
		{
			name: "discriminated oneOf with const",
			schema: `{"type":"object","properties":{"target":{"oneOf":[
				{"type":"object","properties":{"kind":{"const":"email"},"address":{"type":"string"}},"required":["kind","address"]},
				{"type":"object","properties":{"kind":{"const":"phone"},"number":{"type":"string"}},"required":["kind","number"]}]}},"required":["target"]}`,
			valid:   []string{`{"target":{"kind":"email","address":"a@b.c"}}`, `{"target":{"kind":"phone","number":"+33"}}`},
			invalid: []string{`{"target":{"kind":"fax","number":"1"}}`, `{"target":{"kind":"email"}}`, `{"target":{"kind":"phone","address":"a@b.c"}}`},
		},
		{
			name: "allOf extending a definition",
			schema: `{"$defs":{"base":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}},"type":"object",
				"properties":{"deal":{"allOf":[{"$ref":"#/$defs/base"},{"properties":{"amount":{"type":"number","minimum":0}},"required":["amount"]}]}}}`,
			valid:   []string{`{"deal":{"id":"d1","amount":10}}`},
			invalid: []string{`{"deal":{"id":"d1"}}`, `{"deal":{"id":"d1","amount":-1}}`},
		},
		{
			name:    "zod nullable type array",
			schema:  `{"type":"object","properties":{"limit":{"type":["integer","null"],"minimum":1,"maximum":100,"description":"Page size"}}}`,
			valid:   []string{`{"limit":5}`, `{"limit":null}`, `{}`},
			invalid: []string{`{"limit":0}`, `{"limit":"5"}`},
		},
		{
			name:    "keywords beside anyOf move into its branches",
			schema:  `{"type":"object","properties":{"who":{"type":"object","properties":{"email":{"type":"string"},"phone":{"type":"string"}},"anyOf":[{"required":["email"]},{"required":["phone"]}]}}}`,
			valid:   []string{`{"who":{"email":"a@b.c"}}`, `{"who":{"phone":"1"}}`},
			invalid: []string{`{"who":{}}`, `{"who":{"fax":"1"}}`},
		},
		{
			name:    "const without a type",
			schema:  `{"type":"object","properties":{"v":{"const":2}},"required":["v"]}`,
			valid:   []string{`{"v":2}`},
			invalid: []string{`{"v":3}`},
		},
		{
			name:    "escaped JSON pointer",
			schema:  `{"$defs":{"a/b":{"type":"string"},"c~d":{"type":"integer"}},"type":"object","properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/c~0d"}}}`,
			valid:   []string{`{"x":"s","y":1}`},
			invalid: []string{`{"x":1}`, `{"y":"s"}`},
		},
		{
			name:   "a definition used twice",
			schema: `{"$defs":{"id":{"type":"string","pattern":"^[0-9]+$"}},"type":"object","properties":{"from":{"$ref":"#/$defs/id"},"to":{"$ref":"#/$defs/id"}}}`,
			valid:  []string{`{"from":"1","to":"2"}`}, invalid: []string{`{"from":"x"}`},
		},
		{
			name:    "recursive tree",
			schema:  `{"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"type":"object","properties":{"tree":{"$ref":"#/$defs/node"}}}`,
			refused: `$ref "#/$defs/node" is recursive`,
		},
		{name: "root recursion", schema: `{"type":"object","properties":{"self":{"$ref":"#"}}}`, refused: `$ref "#" is recursive`},
		{name: "remote $ref", schema: `{"type":"object","properties":{"a":{"$ref":"https://schemas.example.com/contact.json"}}}`, refused: "remote $ref \"https://schemas.example.com/contact.json\" is not fetched"},
		{name: "relative $ref", schema: `{"type":"object","properties":{"a":{"$ref":"contact.json#/x"}}}`, refused: "is not fetched"},
		{name: "anchor", schema: `{"type":"object","properties":{"a":{"$ref":"#addr"}}}`, refused: "names an anchor"},
		{name: "dangling", schema: `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}}}`, refused: `$ref "#/$defs/x" points at nothing`},
		{name: "too deep", schema: deepRefs(maxRefDepth + 1), refused: "nest more than 16 deep"},
		{name: "just deep enough", schema: deepRefs(maxRefDepth - 1), valid: []string{`{"x":"s"}`}, invalid: []string{`{"x":1}`}},
		{name: "expands too large", schema: laughs(14), refused: "KiB once its $refs are expanded"},
		{name: "const outside enum", schema: `{"type":"object","properties":{"a":{"const":"x","enum":["y"]}}}`, refused: "const is not among its enum"},
		{name: "contradicting allOf", schema: `{"type":"object","properties":{"a":{"allOf":[{"type":"string"},{"type":"integer"}]}}}`, refused: "conflicting type"},
		{name: "keyword in another case", schema: `{"type":"object","Properties":{"a":{"$ref":"#/x"}}}`, refused: `"Properties" is not a keyword`},
		{name: "dynamic ref", schema: `{"type":"object","properties":{"a":{"$dynamicRef":"#meta"}}}`, refused: "$dynamicRef cannot be expanded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw any
			if err := json.Unmarshal([]byte(tc.schema), &raw); err != nil {
				t.Fatal(err)
			}
			s, err := schemaOf(raw)
			var e *registry.Entry
			if err == nil {
				e, err = registry.NewFederated(registry.Federated{Server: "up", Upstream: "tool", Input: s, Output: s,
					Run: func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }})
			}
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("refused with %v, want %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if b, _ := json.Marshal(s); strings.Contains(string(b), `"$ref"`) || strings.Contains(string(b), `"$defs"`) {
				t.Errorf("served schema keeps a $ref or $defs: %s", b)
			}
			for _, in := range tc.valid {
				if _, _, err := e.Validate(withRationale(t, in)); err != nil {
					t.Errorf("valid input %s refused: %v", in, err)
				}
			}
			for _, in := range tc.invalid {
				if _, _, err := e.Validate(withRationale(t, in)); err == nil {
					t.Errorf("invalid input %s accepted", in)
				}
			}
		})
	}
}

func withRationale(t *testing.T, in string) json.RawMessage {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	m["rationale"] = "schema test"
	b, _ := json.Marshal(m)
	return b
}

// FuzzPortableSchema: whatever an upstream sends, the rewrite never
// panics, never serves a $ref, and stays within its size bound.
func FuzzPortableSchema(f *testing.F) {
	for _, s := range []string{
		`{"type":"object"}`,
		`{"$defs":{"a":{"type":"string"}},"type":"object","properties":{"x":{"$ref":"#/$defs/a"}}}`,
		`{"$defs":{"n":{"type":"object","properties":{"c":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}`,
		`{"type":"object","properties":{"a":{"oneOf":[{"const":1},{"type":["string","null"]}]}}}`,
		`{"allOf":[{"$ref":"#"},{"type":"object"}]}`,
		`{"properties":{"$ref":{"$ref":"#/properties"}}}`,
		`{"$ref":"#/items/0","items":[true,{"$ref":"#/items"}]}`,
		deepRefs(4), laughs(6),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 16<<10 {
			return
		}
		s, err := portableSchema(b)
		if err != nil || s == nil {
			return
		}
		out, err := json.Marshal(s)
		if err != nil {
			return
		}
		if len(out) > maxPortableBytes+maxPortableBytes/2 {
			t.Fatalf("served schema is %d bytes", len(out))
		}
		if ref := findRef(s); ref != "" {
			t.Fatalf("served schema keeps $ref %q: %s", ref, out)
		}
	})
}

// findRef returns a $ref left anywhere in s.
func findRef(s *jsonschema.Schema) string {
	if s == nil {
		return ""
	}
	if s.Ref != "" {
		return s.Ref
	}
	if s.DynamicRef != "" {
		return s.DynamicRef
	}
	var subs []*jsonschema.Schema
	subs = append(subs, s.Items, s.AdditionalProperties, s.Not, s.If, s.Then, s.Else, s.Contains, s.PropertyNames,
		s.UnevaluatedProperties, s.UnevaluatedItems, s.AdditionalItems)
	subs = append(subs, s.AnyOf...)
	subs = append(subs, s.OneOf...)
	subs = append(subs, s.AllOf...)
	subs = append(subs, s.PrefixItems...)
	subs = append(subs, s.ItemsArray...)
	for _, m := range []map[string]*jsonschema.Schema{s.Properties, s.PatternProperties, s.DependentSchemas, s.Defs, s.Definitions} {
		for _, v := range m {
			subs = append(subs, v)
		}
	}
	for _, sub := range subs {
		if r := findRef(sub); r != "" {
			return r
		}
	}
	return ""
}

// TestOutputSchemaKeptWhenNotRewritable: an output schema the rewrite
// cannot expand (a recursive tree) is served as the upstream gave it, as
// before, for the registry to resolve; an expandable one is rewritten.
func TestOutputSchemaKeptWhenNotRewritable(t *testing.T) {
	tree := map[string]any{"$defs": map[string]any{"node": map[string]any{"type": "object",
		"properties": map[string]any{"children": map[string]any{"type": "array", "items": map[string]any{"$ref": "#/$defs/node"}}}}},
		"type": "object", "properties": map[string]any{"root": map[string]any{"$ref": "#/$defs/node"}}}
	s, err := outputSchemaOf(tree)
	if err != nil || s.Properties["root"] == nil || s.Properties["root"].Ref != "#/$defs/node" {
		t.Fatalf("recursive output schema = %v, %v; want it as sent", s, err)
	}
	if _, err := s.Resolve(nil); err != nil {
		t.Errorf("the schema as sent does not resolve: %v", err)
	}
	flat := map[string]any{"$defs": map[string]any{"id": map[string]any{"type": "string"}}, "type": "object",
		"properties": map[string]any{"id": map[string]any{"$ref": "#/$defs/id"}}}
	s, err = outputSchemaOf(flat)
	if err != nil || s.Properties["id"] == nil || s.Properties["id"].Ref != "" || s.Properties["id"].Type != "string" || s.Defs != nil {
		t.Fatalf("expandable output schema = %v, %v; want its $ref expanded", s, err)
	}
}
