package registry_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

func schemaOf(t *testing.T, doc string) *jsonschema.Schema {
	t.Helper()
	if doc == "" {
		return nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(doc), &s); err != nil {
		t.Fatalf("schema %s: %v", doc, err)
	}
	return &s
}

func TestNewFederatedServesOrRefuses(t *testing.T) {
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	tests := []struct {
		name   string
		input  string
		refuse string // part of the reason; "" when served
		want   []string
	}{
		{"no schema", "", "", []string{"rationale"}},
		{"draft-07 with defaults and an open object", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
			"properties":{"message":{"type":"string","description":"Text to echo","default":"hi"},
			"opts":{"type":"object","properties":{"n":{"type":"integer"}}}},"required":["message"]}`, "", []string{"message", "opts", "rationale"}},
		{"its own action property", `{"type":"object","properties":{"action":{"type":"string"}},"additionalProperties":false}`, "", []string{"action", "rationale"}},
		{"a $ref", `{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string"}}}`, "$defs", nil},
		{"oneOf", `{"type":"object","properties":{"a":{"oneOf":[{"type":"string"},{"type":"number"}]}}}`, "oneOf", nil},
		{"a type array", `{"type":"object","properties":{"a":{"type":["string","null"]}}}`, "type array", nil},
		{"rationale taken", `{"type":"object","properties":{"rationale":{"type":"string"}}}`, "reserves", nil},
		{"not an object", `{"type":"string"}`, "not an object", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := registry.NewFederated(registry.Federated{Server: "up", Upstream: "echo", Description: "Echoes.",
				Input: schemaOf(t, tc.input), Category: gtmgate.CategoryDataQuery, Run: run})
			if tc.refuse != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refuse) {
					t.Fatalf("err = %v, want a refusal mentioning %q", err, tc.refuse)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.Name != "up__echo" || e.Domain != "mcp/up" || e.Federated() == nil {
				t.Fatalf("entry %s in %s", e.Name, e.Domain)
			}
			var got []string
			for k := range e.Schema.Properties {
				got = append(got, k)
			}
			if strings.Join(slices.Sorted(slices.Values(got)), ",") != strings.Join(tc.want, ",") {
				t.Fatalf("properties %v, want %v", got, tc.want)
			}
			if err := registry.CheckPortable(e.Schema); err != nil {
				t.Fatalf("served schema is not portable: %v", err)
			}
		})
	}
}

func TestFederatedValidate(t *testing.T) {
	e, err := registry.NewFederated(registry.Federated{Server: "up", Upstream: "post",
		Input:    schemaOf(t, `{"type":"object","properties":{"text":{"type":"string"},"action":{"type":"string"}},"required":["text"]}`),
		Category: gtmgate.CategoryDataQuery, Mutating: true, Run: func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, input, wantErr string
	}{
		{"valid, with the upstream's own action field", `{"rationale":"r","text":"x","action":"send"}`, ""},
		{"no rationale", `{"text":"x"}`, "rationale is required"},
		{"missing upstream field", `{"rationale":"r"}`, "text"},
		{"unlisted field", `{"rationale":"r","text":"x","extra":1}`, "extra"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, a, err := e.Validate(json.RawMessage(tc.input))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a.Name != registry.FederatedAction || !a.Mutating {
				t.Fatalf("action %+v", a)
			}
			args, _ := registry.UpstreamArguments(m)
			if strings.Contains(string(args), "rationale") {
				t.Fatalf("arguments sent upstream carry the rationale: %s", args)
			}
		})
	}
	if h := e.Hints(); h.ReadOnly || h.Destructive {
		t.Fatalf("hints %+v: mutating additive tool", h)
	}
}
