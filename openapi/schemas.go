package openapi

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"

	"github.com/gtmgate/gtmgate/gateway"
	"github.com/gtmgate/gtmgate/jsonapi"
	"github.com/gtmgate/gtmgate/registry"
)

// errorSchemas are the error body and its codes, from jsonapi's one mapping.
func errorSchemas() map[string]Schema {
	codes := slices.Sorted(maps.Keys(jsonapi.Codes()))
	return map[string]Schema{
		"ErrorCode": {"type": "string", "enum": codes,
			"description": "Each code has one HTTP status (see the docs' Errors page)."},
		"ErrorBody": {
			"type": "object", "required": []string{"error", "request_id"},
			"properties": map[string]any{
				"error": map[string]any{
					"type": "object", "required": []string{"code", "message"},
					"properties": map[string]any{
						"code": ref("ErrorCode"), "message": map[string]any{"type": "string"},
						"hint": map[string]any{"type": "string"},
						"field": map[string]any{"type": "string",
							"description": "The JSON path of the request body's field at fault, such as providers.google_ads.accounts[1].id."},
					},
				},
				"error_detail": map[string]any{"description": "Provider status and a body excerpt, on UPSTREAM_ERROR."},
				"approval_id":  map[string]any{"type": "string", "description": "Set on APPROVAL_REQUIRED."},
				"retry_after":  map[string]any{"type": "integer", "description": "Seconds, on RATE_LIMITED."},
				"request_id":   map[string]any{"type": "string"},
			},
		},
	}
}

// toolSchemas are the REST proxy's call bodies, one per tool, with the
// tool's input schema taken from the registry, and the body as a oneOf of
// them discriminated by "tool".
func toolSchemas(reg *registry.Registry) map[string]Schema {
	out := map[string]Schema{}
	mapping := map[string]string{}
	var oneOf []Schema
	entries := reg.Tools()
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	for _, e := range entries {
		name := "ToolCall_" + e.Name
		input := inputSchema(e)
		out[name] = Schema{
			"type": "object", "title": e.Title, "description": e.Description,
			"required": []string{"tool", "input"}, "additionalProperties": false,
			"properties": map[string]any{
				"tool":  map[string]any{"const": e.Name, "description": "Domain: " + e.Domain},
				"input": input,
			},
		}
		mapping[e.Name] = "#/components/schemas/" + name
		oneOf = append(oneOf, ref(name))
	}
	out["ToolCall"] = Schema{"oneOf": oneOf, "discriminator": map[string]any{"propertyName": "tool", "mapping": mapping}}
	out["ToolResult"] = responseOf[gateway.ToolCallResult]()
	return out
}

// inputSchema is a tool's JSON Schema without its "$schema" keyword, which
// belongs to a document root, not to a schema inside one.
func inputSchema(e *registry.Entry) Schema {
	var s Schema
	b, _ := json.Marshal(e.Schema)
	_ = json.Unmarshal(b, &s)
	delete(s, "$schema")
	return s
}
