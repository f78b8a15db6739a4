package openapi

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gtmgate/gtmgate"
	"github.com/gtmgate/gtmgate/registry"
)

func testRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	run := func(context.Context, *gtmgate.Call) (any, error) { return nil, nil }
	reg, err := registry.New(
		gtmgate.Tool{Name: "crm_things", Domain: "crm", Provider: "hubspot", Description: "things", Run: run,
			Actions:    []gtmgate.Action{{Name: "list", Category: gtmgate.CategoryCRMRead, List: true}, {Name: "get", Category: gtmgate.CategoryCRMRead, Required: []string{"id"}}},
			Properties: map[string]*jsonschema.Schema{"id": {Type: "string"}}},
		gtmgate.Tool{Name: "data_query", Domain: "data", Provider: "bigquery", Description: "query", Run: run,
			Actions: []gtmgate.Action{{Name: "query", Category: gtmgate.CategoryDataQuery}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// The REST body is a oneOf of one schema per tool, discriminated by "tool",
// each carrying the registry's input schema unchanged but for $schema.
func TestGatewayToolBodiesComeFromTheRegistry(t *testing.T) {
	reg := testRegistry(t)
	d, err := Gateway(reg, []string{"POST /api/v1/{tenant}/{domain}"})
	if err != nil {
		t.Fatal(err)
	}
	call := d.Components.Schemas["ToolCall"]
	if n := len(call["oneOf"].([]Schema)); n != reg.Len() {
		t.Fatalf("oneOf has %d members, registry %d tools", n, reg.Len())
	}
	mapping := call["discriminator"].(map[string]any)["mapping"].(map[string]string)
	for _, e := range reg.Tools() {
		name := strings.TrimPrefix(mapping[e.Name], "#/components/schemas/")
		s, ok := d.Components.Schemas[name]
		if !ok {
			t.Fatalf("tool %s: no schema %q", e.Name, name)
		}
		got := s["properties"].(map[string]any)["input"]
		want := roundTrip(t, e.Schema)
		delete(want, "$schema")
		if !reflect.DeepEqual(roundTrip(t, got), want) {
			t.Errorf("tool %s: input schema differs from the registry's:\n got %v\nwant %v", e.Name, got, want)
		}
	}
	op := (*d.Paths["/api/v1/{tenant}/{domain}"])["post"]
	if op.RequestBody.Content["application/json"].Schema["$ref"] != "#/components/schemas/ToolCall" {
		t.Errorf("tool call body = %v", op.RequestBody.Content)
	}
	if op.Parameters[1].Name != "domain" || len(op.Parameters[1].Schema["enum"].([]string)) != len(registry.Domains) {
		t.Errorf("domain parameter = %+v", op.Parameters[1])
	}
}

func TestGatewayRefusesAnUndescribedRoute(t *testing.T) {
	_, err := Gateway(testRegistry(t), []string{"GET /health", "GET /admin/secret-new-thing", "PATCH /health"})
	if err == nil || !strings.Contains(err.Error(), "GET /admin/secret-new-thing, PATCH /health") {
		t.Fatalf("err = %v, want both undescribed routes named", err)
	}
}

func TestGatewayOperationIDsAreUnique(t *testing.T) {
	var patterns []string
	for _, op := range gatewayOperations() {
		patterns = append(patterns, op.pattern)
	}
	d, err := Gateway(testRegistry(t), patterns)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for path, item := range d.Paths {
		for method, op := range *item {
			if prev, dup := seen[op.OperationID]; dup {
				t.Errorf("operationId %s used by %s and %s %s", op.OperationID, prev, method, path)
			}
			seen[op.OperationID] = method + " " + path
		}
	}
}

func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}
